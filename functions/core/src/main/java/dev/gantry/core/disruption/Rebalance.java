package dev.gantry.core.disruption;

import dev.gantry.core.model.Node;
import java.time.Duration;
import java.util.Map;

/**
 * Rebalance replacement, Gantry's own (Karpenter only records an Event for an EC2 Instance Rebalance Recommendation;
 * handling it is its open request aws/karpenter-provider-aws#2813). A NodePool opts in with {@value #ANNOTATION}
 * {@code "true"}. The interruption handler labels a recommended spot node {@value #RECOMMENDED_LABEL}{@code =true} and
 * keeps its offering from the provisioner for {@link #AVOID_FOR}; the sweep then replaces the node through the
 * consolidation command machinery (method {@code REBALANCE}): taint, replacement launched on another offering and
 * initialized, then drain, within the pool's budgets that apply to every reason.
 */
public final class Rebalance {
    /** The NodePool annotation that opts into replacing nodes on a rebalance recommendation. */
    public static final String ANNOTATION = "gantry.dev/rebalance";
    /** The node label the interruption handler sets on a recommended node of an opted-in pool (visible in kubectl). */
    public static final String RECOMMENDED_LABEL = "gantry.dev/rebalance-recommended";
    /** The command's mark reason, and its candidates' termination reason. */
    public static final String REASON = "rebalance";
    /**
     * How long a recommended node's own offering (type, zone, spot) is kept from the provisioner: long enough for the
     * command's replacement to launch (validation, then launch within {@code LAUNCH_TIMEOUT}).
     */
    public static final Duration AVOID_FOR = Duration.ofMinutes(10);

    private Rebalance() {
    }

    /** {@value #ANNOTATION} is {@code "true"}, or {@code "replace"} (its first spelling, still read). */
    public static boolean optedIn(Map<String, String> poolAnnotations) {
        String v = poolAnnotations.get(ANNOTATION);
        return "true".equals(v) || "replace".equals(v);
    }

    /** Whether the interruption handler has labelled the node as recommended for rebalance. */
    public static boolean recommended(Node node) {
        return "true".equals(node.labels().get(RECOMMENDED_LABEL));
    }
}
