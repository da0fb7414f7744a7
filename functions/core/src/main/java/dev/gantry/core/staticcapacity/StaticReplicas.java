package dev.gantry.core.staticcapacity;

import dev.gantry.core.disruption.DoNotDisrupt;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What a static NodePool ({@code spec.replicas}) needs to hold its count: how many claims to make from its template,
 * and which claims to remove. Pure; the sweep's {@link StaticCapacity} step carries it out.
 *
 * <p>Counting, as Karpenter's static controllers count (core {@code pkg/controllers/static/provisioning/controller.go},
 * {@code static/deprovisioning/controller.go}):
 * <ul>
 *   <li><b>Live</b> claims are the pool's claims not deleting: in flight ({@code Launching}, {@code Launched}), registered
 *       or initialized. A candidate of a consolidation command under way (a drifted static node being replaced) is live
 *       but <i>pending disruption</i>.</li>
 *   <li><b>Scale-up</b> when the live claims are fewer than {@code replicas}: make {@code replicas − live} claims, capped
 *       so that live plus new never exceeds {@code limits.nodes}. Claims in flight count, so a sweep that runs again
 *       (a restart, a second delivery) makes none for capacity already recorded.</li>
 *   <li><b>Scale-down</b> when the live claims not pending disruption exceed {@code replicas} (a drift's replacement and
 *       its candidate are not two nodes too many): remove the excess, in this order: claims not launched (no instance
 *       yet), then empty nodes (in flight, or running no pod that would need a new home), then the lowest disruption
 *       cost ({@link EvictionCost#reschedule}); nodes under {@code karpenter.sh/do-not-disrupt} (the node's, the
 *       template's, or an active pod's) last of all. Ties go by claim name, so two sweeps choose alike.</li>
 * </ul>
 */
public final class StaticReplicas {
    private StaticReplicas() {
    }

    /** One claim of the pool, with its node (null while in flight) and the pods bound to that node. */
    public record Member(NodeClaim claim, Node node, List<Pod> pods) {
        public Member {
            Objects.requireNonNull(claim, "claim");
            pods = List.copyOf(pods == null ? List.of() : pods);
        }

        boolean pendingDisruption() {
            var mark = claim.consolidation();
            // Handed too: the command has handed it to the termination flow (or is about to), so it is on its way out.
            return mark != null && mark.phase() != dev.gantry.core.lifecycle.ConsolidationMark.Phase.Aborted
                    && mark.candidates().contains(claim.name());
        }
    }

    /**
     * @param live    the pool's claims not deleting
     * @param launch  claims to make from the template now
     * @param remove  claims to remove now, in the order chosen
     * @param limited whether {@code limits.nodes} held the launch below the shortfall
     */
    public record Decision(String pool, int replicas, int live, int launch, List<String> remove, boolean limited) {
        public Decision {
            remove = List.copyOf(remove);
        }

        public boolean isNothing() {
            return launch == 0 && remove.isEmpty();
        }
    }

    /**
     * The decision for {@code pool} (which must be static) over its claims; claims of other pools and claims already
     * deleting are left out here.
     */
    public static Decision decide(NodePool pool, List<Member> members, Instant now) {
        if (!pool.isStatic()) {
            throw new IllegalArgumentException("NodePool " + pool.name() + " is not static");
        }
        int replicas = pool.replicas();
        List<Member> live = members.stream().filter(m -> m.claim().nodePool().equals(pool.name())
                && !m.claim().state().isDeleting() && !m.claim().isExpired(now)).toList();
        List<Member> running = live.stream().filter(m -> !m.pendingDisruption()).toList();
        int launch = 0;
        boolean limited = false;
        if (live.size() < replicas) {
            launch = replicas - live.size();
            long limit = pool.limit("nodes").map(Quantity::toUnits).orElse(Long.MAX_VALUE);
            long room = Math.max(0, limit - live.size());
            if (room < launch) {
                launch = (int) room;
                limited = true;
            }
        }
        List<String> remove = List.of();
        int excess = running.size() - replicas;
        if (excess > 0) {
            List<Member> order = new ArrayList<>(running);
            order.sort(Comparator.comparingInt((Member m) -> rank(pool, m, now))
                    .thenComparingDouble(m -> EvictionCost.reschedule(m.pods().stream().filter(EvictionCost::reschedulable).toList()))
                    .thenComparing(m -> m.claim().name()));
            remove = order.subList(0, excess).stream().map(m -> m.claim().name()).toList();
        }
        return new Decision(pool.name(), replicas, live.size(), launch, remove, limited);
    }

    /** 0: not launched; 1: empty (in flight or no pod to move); 2: running pods; 3: do-not-disrupt. */
    private static int rank(NodePool pool, Member m, Instant now) {
        if (m.claim().state() == NodeClaimState.Launching && m.claim().instanceId() == null) {
            return 0;
        }
        if (doNotDisrupt(pool, m, now)) {
            return 3;
        }
        return m.pods().stream().anyMatch(EvictionCost::reschedulable) ? 2 : 1;
    }

    private static boolean doNotDisrupt(NodePool pool, Member m, Instant now) {
        String key = Pod.DO_NOT_DISRUPT;
        return "true".equals(pool.template().annotations().get(key))
                || (m.node() != null && "true".equals(m.node().annotations().get(key)))
                || m.pods().stream().anyMatch(p -> DoNotDisrupt.active(p, now));
    }
}
