package dev.gantry.core.model;

/**
 * A PodDisruptionBudget. {@code minAvailable} and {@code maxUnavailable} are written as Kubernetes writes them
 * (an integer or a percentage, at most one of them set); {@code disruptionsAllowed} is the API server's own count
 * from the status, which the Eviction API enforces.
 */
public record PodDisruptionBudget(String namespace, String name, LabelSelector selector, String minAvailable,
                                  String maxUnavailable, int disruptionsAllowed) {

    /** Whether this budget governs the pod. */
    public boolean covers(Pod pod) {
        return namespace.equals(pod.namespace()) && selector.matches(pod.labels());
    }
}
