package dev.gantry.core.cluster;

/** A Kubernetes API call failed. {@code status} is the HTTP status, or 0 when the server could not be reached. */
public class ClusterException extends RuntimeException {
    private final int status;

    public ClusterException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public boolean notFound() {
        return status == 404;
    }

    /** Worth retrying: unreachable, throttled or a server error. */
    public boolean retryable() {
        return status == 0 || status == 429 || status >= 500;
    }
}
