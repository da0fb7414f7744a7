package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The NodePool policies Gantry reads but does not (or not fully) act on, each reported where it is written, so that
 * nothing in a pool is ignored without a word. Everything else in a NodePool is honoured: requirements (with
 * minValues), labels, taints, startup taints, limits and weight by the scheduler; expireAfter by the sweep's expiry;
 * terminationGracePeriod by termination; consolidationPolicy (WhenEmpty, WhenEmptyOrUnderutilized, Balanced),
 * consolidateAfter and budgets (nodes, schedule, duration, the Empty and Underutilized reasons) by consolidation
 * ({@code core/disruption/consolidation}); older fields (ttlSecondsAfterEmpty, ttlSecondsUntilExpired,
 * consolidation.enabled, v1beta1 expireAfter and kubelet) once converted to those.
 */
final class PoolPolicies {
    /** Gantry's churn guard annotation on a NodePool (read by core's {@code consolidation.MinSavings}). */
    static final String MIN_SAVINGS = "gantry.dev/consolidation-min-savings";
    /** Gantry's opt-in to replacing nodes on a rebalance recommendation (read by core's {@code InterruptionDecision}). */
    static final String REBALANCE = "gantry.dev/rebalance";
    private static final Pattern SAVING = Pattern.compile("([0-9]+(\\.[0-9]+)?|\\.[0-9]+)(%?)");

    private PoolPolicies() {
    }

    /**
     * Template annotations, which the sweep puts on every node of the pool as it registers (Karpenter puts them on the
     * NodeClaim and syncs them to the Node at registration). Their keys must be qualified names: the API server
     * refuses a Node patch with any other key, so a bad key is an error here rather than nodes that never register.
     */
    static void templateAnnotations(YamlObject owner, String key, Map<String, String> annotations) {
        if (annotations == null || annotations.isEmpty()) {
            return;
        }
        YamlObject at = owner.object(key);
        for (String k : annotations.keySet()) {
            String problem = LabelRules.keySyntaxProblem(k, "annotation");
            if (problem != null) {
                at.errorAtKey(k, problem);
            }
        }
    }

    /**
     * The pool's own annotations: {@value #REBALANCE} is {@code "true"}, {@code "false"} or {@code "replace"} (its first
     * spelling); {@value #MIN_SAVINGS} must be a $/h amount per node or a percentage.
     */
    static void poolAnnotations(Doc doc) {
        YamlObject meta = doc.root().object("metadata");
        YamlObject annotations = meta == null ? null : meta.object("annotations");
        String rebalance = doc.annotations().get(REBALANCE);
        if (annotations != null && rebalance != null && !List.of("true", "false", "replace").contains(rebalance)) {
            annotations.error(REBALANCE, "'" + rebalance + "' is not a rebalance setting: \"true\" replaces a node on an EC2 "
                    + "rebalance recommendation, \"false\" (or no annotation) only records an Event");
        }
        String v = doc.annotations().get(MIN_SAVINGS);
        if (annotations == null || v == null) {
            return;
        }
        var m = SAVING.matcher(v.trim());
        if (!m.matches()) {
            annotations.error(MIN_SAVINGS, "'" + v + "' is not a minimum saving: write $/h per disrupted node (0.05) "
                    + "or a percentage of the removed nodes' price (10%)");
        } else if (!m.group(3).isEmpty() && Double.parseDouble(m.group(1)) > 100) {
            annotations.error(MIN_SAVINGS, "'" + v + "' asks a move to save more than all it removes: no node would "
                    + "ever be consolidated (at most 100%)");
        }
    }
}
