package dev.gantry.kube;

import dev.gantry.core.cluster.ClusterException;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Supplier;

/**
 * The one place where fabric8's exceptions become the port's {@link ClusterException}, so callers see a status code
 * (0 when the API server could not be reached) and never a fabric8 type.
 */
final class ApiCall {
    private ApiCall() {
    }

    /** Runs the call; a {@link KubernetesClientException} becomes a {@link ClusterException} naming {@code what}. */
    static <T> T run(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            throw translate(what, e);
        }
    }

    static void run(String what, Runnable call) {
        run(what, () -> {
            call.run();
            return null;
        });
    }

    static ClusterException translate(String what, KubernetesClientException e) {
        int status = Math.max(e.getCode(), 0);
        String reason = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
        return new ClusterException(status, what + " failed" + (status == 0 ? "" : " (" + status + ")") + ": " + reason, e);
    }
}
