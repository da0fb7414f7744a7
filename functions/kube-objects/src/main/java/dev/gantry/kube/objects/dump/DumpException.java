package dev.gantry.kube.objects.dump;

/**
 * A cluster dump that cannot be read: the message is one line naming the file and, where the problem is in one
 * object, that object ({@code cluster.yaml: Pod default/web-0: spec.containers[0].resources.requests.cpu: ...}).
 */
public final class DumpException extends RuntimeException {
    public DumpException(String message) {
        super(message);
    }

    public DumpException(String message, Throwable cause) {
        super(message, cause);
    }
}
