package dev.gantry.core.model;

/**
 * A PodDisruptionBudget. {@code minAvailable} and {@code maxUnavailable} are written as Kubernetes writes them
 * (an integer or a percentage, at most one of them set); {@code disruptionsAllowed} is the API server's own count
 * from the status, which the Eviction API enforces.
 *
 * @param unhealthyPodEvictionPolicy {@code IfHealthyBudget} (Kubernetes' default, also when null) or {@code AlwaysAllow}:
 *                                   with AlwaysAllow a pod whose PodReady condition is False may be evicted whatever
 *                                   the budget allows
 */
public record PodDisruptionBudget(String namespace, String name, LabelSelector selector, String minAvailable,
                                  String maxUnavailable, int disruptionsAllowed, String unhealthyPodEvictionPolicy) {
    public static final String ALWAYS_ALLOW = "AlwaysAllow";

    /** A budget with Kubernetes' default unhealthy-pod policy ({@code IfHealthyBudget}). */
    public PodDisruptionBudget(String namespace, String name, LabelSelector selector, String minAvailable,
                               String maxUnavailable, int disruptionsAllowed) {
        this(namespace, name, selector, minAvailable, maxUnavailable, disruptionsAllowed, null);
    }

    /** Whether this budget governs the pod. */
    public boolean covers(Pod pod) {
        return namespace.equals(pod.namespace()) && selector.matches(pod.labels());
    }

    /**
     * Whether this budget lets the pod be evicted regardless of {@code disruptionsAllowed}: its policy is AlwaysAllow
     * and the pod reports itself not ready (the Eviction API's rule, which Karpenter's candidate check mirrors).
     */
    public boolean alwaysEvicts(Pod pod) {
        return ALWAYS_ALLOW.equals(unhealthyPodEvictionPolicy) && pod.status().reportsNotReady();
    }
}
