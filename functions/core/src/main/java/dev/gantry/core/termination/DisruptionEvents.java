package dev.gantry.core.termination;

import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.lifecycle.NodeClaim;
import java.util.Map;
import java.util.Optional;

/**
 * Karpenter's disruption events, in its words: {@code DisruptionTerminating} ("Disrupting Node: Underutilized") on
 * the Node and the NodeClaim when the termination flow of a claim a disruption method handed over runs its first slice
 * (once per flow, and in the termination handler when the deciding sweep queued it, so 500 expiries do not spend the
 * sweep's time on 1,000 events), and
 * {@code DisruptionLaunching} ("Launching NodeClaim: Underutilized") on a replacement's NodeClaim. Only voluntary
 * disruptions have them: an interruption, a deleted node or a repair is not a disruption method's decision.
 */
public final class DisruptionEvents {
    /** Gantry's deletion reasons that are disruption methods, to Karpenter's reason names. */
    private static final Map<String, String> REASONS = Map.of("empty", "Empty", "expired", "Expired",
            "underutilized", "Underutilized", "drifted", "Drifted", "drift", "Drifted");

    private DisruptionEvents() {
    }

    /** Karpenter's name of a disruption reason, or empty when {@code reason} is not a disruption method's. */
    public static Optional<String> reason(String reason) {
        return Optional.ofNullable(reason == null ? null : REASONS.get(reason));
    }

    /** The claim's deletion began for {@code reason}: its Node (if registered) and NodeClaim say so, best effort. */
    public static void terminating(ClusterWriter writer, NodeClaim claim, String reason) {
        reason(reason).ifPresent(r -> {
            if (claim.nodeName() != null) {
                writer.event("Node", null, claim.nodeName(), "Normal", "DisruptionTerminating", "Disrupting Node: " + r);
            }
            writer.event("NodeClaim", null, claim.name(), "Normal", "DisruptionTerminating", "Disrupting NodeClaim: " + r);
        });
    }

    /** A replacement launched for a disruption: its NodeClaim says why, best effort. */
    public static void launching(ClusterWriter writer, String claim, String reason) {
        reason(reason).ifPresent(r -> writer.event("NodeClaim", null, claim, "Normal", "DisruptionLaunching",
                "Launching NodeClaim: " + r));
    }
}
