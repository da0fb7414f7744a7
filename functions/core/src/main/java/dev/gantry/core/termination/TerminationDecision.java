package dev.gantry.core.termination;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Taint;
import dev.gantry.core.termination.TerminationCommand.ContinueAfter;
import dev.gantry.core.termination.TerminationCommand.DeleteNode;
import dev.gantry.core.termination.TerminationCommand.DeletePod;
import dev.gantry.core.termination.TerminationCommand.Evict;
import dev.gantry.core.termination.TerminationCommand.MarkTerminated;
import dev.gantry.core.termination.TerminationCommand.RemoveFinalizer;
import dev.gantry.core.termination.TerminationCommand.TaintNode;
import dev.gantry.core.termination.TerminationCommand.TerminateInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The termination flow as a resumable state machine: from a fresh snapshot, the next bounded slice of work. Calling it
 * again on the snapshot that results from executing a slice continues where it left off, so the flow survives any
 * number of invocations, crashes and duplicate messages. The steps, as Karpenter's node termination controller:
 * <ol>
 *   <li>taint {@code karpenter.sh/disrupted:NoSchedule}, cordon, exclude from external load balancers;</li>
 *   <li>evict pods tier by tier ({@link DrainPlan}); PDB refusals and do-not-disrupt pods are retried later;</li>
 *   <li>once the grace period (the NodePool's {@code terminationGracePeriod}, capped by an interruption deadline) has
 *       passed since deletion began, delete the remaining pods;</li>
 *   <li>wait for VolumeAttachments to go, unless the grace period has passed;</li>
 *   <li>terminate the instance, delete the Node, remove the finalizer, mark the claim Terminated.</li>
 * </ol>
 * Every slice ends with either {@link ContinueAfter} or {@link MarkTerminated}.
 */
public final class TerminationDecision {
    /** At most this many eviction (or deletion) calls per slice: a slice must fit comfortably in one invocation. */
    public static final int MAX_CALLS_PER_SLICE = 50;
    public static final String EXCLUDE_FROM_LB = "node.kubernetes.io/exclude-from-external-load-balancers";
    /** How long a rebalance drain waits for its replacement before draining anyway. */
    public static final Duration REPLACEMENT_WAIT_LIMIT = Duration.ofMinutes(10);
    static final Duration EVICTING = Duration.ofSeconds(5);
    static final Duration WAITING = Duration.ofSeconds(15);

    private TerminationDecision() {
    }

    /**
     * The next slice.
     *
     * @param claim                  the claim being terminated; its {@code deletionRequestedAt} is when deletion began
     * @param node                   its Node, if one exists
     * @param podsOnNode             pods bound to that node (empty without a node)
     * @param volumeAttachments      whether VolumeAttachments for the node still exist
     * @param terminationGracePeriod the NodePool's; empty means wait for evictions forever
     * @param deadline               a hard end (a spot warning's two minutes), if any
     * @param replacementPending     for a drain that waits for its replacement: newer capacity is not yet initialized
     */
    public static List<TerminationCommand> next(NodeClaim claim, Optional<Node> node, List<Pod> podsOnNode,
                                                List<PodDisruptionBudget> pdbs, boolean volumeAttachments, Instant now,
                                                Optional<Duration> terminationGracePeriod, Optional<Instant> deadline,
                                                boolean replacementPending) {
        if (claim.state() == dev.gantry.core.lifecycle.NodeClaimState.Terminated) {
            return List.of();
        }
        Instant began = claim.deletionRequestedAt() == null ? now : claim.deletionRequestedAt();
        Instant expiry = graceExpiry(began, terminationGracePeriod, deadline);
        boolean expired = expiry != null && !now.isBefore(expiry);
        List<TerminationCommand> out = new ArrayList<>();
        if (node.isPresent()) {
            Node n = node.get();
            if (!isTainted(n)) {
                out.add(new TaintNode(n.name()));
            }
            // A hard deadline (a reclaim) leaves no time to wait for the replacement: evict now.
            if (replacementPending && deadline.isEmpty() && !expired && now.isBefore(began.plus(REPLACEMENT_WAIT_LIMIT))) {
                out.add(continueAfter(WAITING, now, expiry, "waiting for the replacement to initialize"));
                return out;
            }
            DrainPlan plan = DrainPlan.of(podsOnNode, pdbs, now, expiry, MAX_CALLS_PER_SLICE);
            plan.delete().forEach(p -> out.add(new DeletePod(p)));
            plan.evict().forEach(p -> out.add(new Evict(p)));
            // Past the grace period, pods deleted in this slice are not waited for: the drain is over.
            boolean allDeleted = expired && plan.delete().size() == plan.waiting().size();
            if (!plan.waiting().isEmpty() && !allDeleted) {
                Duration delay = plan.evict().isEmpty() && plan.delete().isEmpty() ? WAITING : EVICTING;
                out.add(continueAfter(delay, now, expiry, describe(plan)));
                return out;
            }
            if (volumeAttachments && !expired) {
                out.add(continueAfter(WAITING, now, expiry, "waiting for VolumeAttachments to detach"));
                return out;
            }
        }
        if (claim.instanceId() != null) {
            out.add(new TerminateInstance(claim.instanceId()));
        }
        node.ifPresent(n -> {
            out.add(new DeleteNode(n.name()));
            // An adopted node Karpenter was deleting still carries Karpenter's finalizer, and no Karpenter is left.
            if (n.finalizers().contains(Node.FINALIZER) || n.finalizers().contains(Node.KARPENTER_FINALIZER)) {
                out.add(new RemoveFinalizer(n.name()));
            }
        });
        out.add(new MarkTerminated(claim.name()));
        return out;
    }

    /** When pods stop being waited for: the earlier of the grace period's end and the deadline, or null for never. */
    public static Instant graceExpiry(Instant began, Optional<Duration> gracePeriod, Optional<Instant> deadline) {
        Instant byGrace = gracePeriod.map(began::plus).orElse(null);
        Instant byDeadline = deadline.orElse(null);
        if (byGrace == null) {
            return byDeadline;
        }
        return byDeadline == null || byGrace.isBefore(byDeadline) ? byGrace : byDeadline;
    }

    static boolean isTainted(Node n) {
        return n.unschedulable() && "true".equals(n.labels().get(EXCLUDE_FROM_LB))
                && n.hasTaint(Taint.DISRUPTED);
    }

    /** Never sleep past the grace expiry: the pods must be deleted on time. */
    private static ContinueAfter continueAfter(Duration delay, Instant now, Instant expiry, String why) {
        if (expiry != null && now.isBefore(expiry)) {
            Duration left = Duration.between(now, expiry);
            if (left.compareTo(delay) < 0) {
                delay = left.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : left;
            }
        }
        return new ContinueAfter(delay, why);
    }

    private static String describe(DrainPlan plan) {
        return plan.waiting().size() + " pods still on the node (" + plan.evict().size() + " evicting, "
                + plan.delete().size() + " deleting, " + plan.blocked().size() + " blocked by PDB or do-not-disrupt)";
    }
}
