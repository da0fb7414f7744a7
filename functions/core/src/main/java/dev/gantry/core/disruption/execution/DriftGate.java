package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which drifted claims drift may start replacing now, beside the budgets and the per-NodePool back-off (an AMI rollout's
 * canary wave and soak hold the rest back). Called once per decision with the store's claims; it may read and write its
 * own state (a pause), must be idempotent, and a failure of its own must answer "all admitted" only if that is safe: an
 * implementation that cannot decide holds back what it gates.
 */
@FunctionalInterface
public interface DriftGate {
    /** Admits every drifted claim (Karpenter's behaviour). */
    DriftGate OPEN = (claims, now) -> c -> true;

    Predicate<NodeClaim> admits(List<NodeClaim> claims, Instant now);

    /**
     * As {@link #admits(List, Instant)}, judging by the cluster the caller already read ({@code view}: its nodes and
     * pods, e.g. a canary's crash-looping pods) rather than reading it again. This default ignores the view.
     */
    default Predicate<NodeClaim> admits(List<NodeClaim> claims, dev.gantry.core.provisioning.ClusterView view, Instant now) {
        return admits(claims, now);
    }
}
