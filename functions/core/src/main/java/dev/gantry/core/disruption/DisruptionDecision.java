package dev.gantry.core.disruption;

import dev.gantry.core.disruption.DisruptionCommand.Disrupt;
import dev.gantry.core.disruption.DisruptionCommand.SetEmptySince;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Emptiness and expiry, the part of Karpenter's disruption Gantry does today.
 * <ul>
 *   <li><b>Expiry</b>: a claim older than its pool's {@code expireAfter} is disrupted with its pods replaced first.
 *       Forceful, as in Karpenter v1: no budget applies, and do-not-disrupt pods only hold the drain until the
 *       termination grace period.</li>
 *   <li><b>Emptiness</b>: an initialized node with no reschedulable pods (non-daemon, non-mirror, not terminal) for
 *       the pool's {@code consolidateAfter} is disrupted, oldest-empty first, within the pool's budget for reason
 *       Empty. Karpenter removes empty nodes under every consolidation policy; {@code consolidateAfter: Never} turns it
 *       off. A do-not-disrupt pod (or node annotation) keeps the node. So does holding buffer capacity: a node named
 *       in {@code holdingBuffers} (see {@code headroom.BufferRoom}) is not empty, because removing it would leave a
 *       buffer's virtual pod without room.</li>
 * </ul>
 * "Empty since" lives on the node as the label {@link #EMPTY_SINCE} (epoch seconds), so the sweep needs no extra
 * reads; an empty value means "not empty".
 */
public final class DisruptionDecision {
    public static final String EMPTY_SINCE = "gantry.dev/empty-since";

    private DisruptionDecision() {
    }

    /** A claim with its node and the pods bound to it. */
    public record Candidate(NodeClaim claim, Node node, List<Pod> pods) {
        public Candidate {
            pods = List.copyOf(pods);
        }
    }

    public static List<DisruptionCommand> decide(Map<String, NodePool> pools, List<Candidate> candidates, Instant now) {
        return decide(pools, candidates, n -> false, now);
    }

    /** @param holdingBuffers whether a node (by name) holds buffer capacity, which keeps it from being empty */
    public static List<DisruptionCommand> decide(Map<String, NodePool> pools, List<Candidate> candidates,
                                                 Predicate<String> holdingBuffers, Instant now) {
        List<DisruptionCommand> out = new ArrayList<>();
        for (NodePool pool : pools.values()) {
            List<Candidate> mine = candidates.stream().filter(c -> c.claim().nodePool().equals(pool.name())).toList();
            if (!mine.isEmpty()) {
                decidePool(pool, mine, holdingBuffers, now, out);
            }
        }
        return out;
    }

    private static void decidePool(NodePool pool, List<Candidate> mine, Predicate<String> holdingBuffers, Instant now,
                                   List<DisruptionCommand> out) {
        int nodes = 0;
        int disrupting = 0;
        List<Candidate> active = new ArrayList<>();
        for (Candidate c : mine) {
            NodeClaimState s = c.claim().state();
            if (s == NodeClaimState.Terminating || s == NodeClaimState.Terminated || s.isBefore(NodeClaimState.Initialized)) {
                continue;
            }
            nodes++;
            if (s == NodeClaimState.Draining || !c.node().ready() || c.node().deleting()) {
                disrupting++;
            } else if (c.claim().consolidation() != null) {
                // Part of a consolidation command (a candidate or a replacement): the command decides its fate, and a
                // candidate counts against the budgets as disrupting.
                if (c.claim().consolidation().phase().active() && c.claim().consolidation().candidates().contains(c.claim().name())) {
                    disrupting++;
                }
            } else {
                active.add(c);
            }
        }
        Optional<Duration> expireAfter = pool.template().expireAfter();
        List<Candidate> stillActive = new ArrayList<>();
        for (Candidate c : active) {
            if (expireAfter.isPresent() && c.claim().createdAt() != null && !now.isBefore(c.claim().createdAt().plus(expireAfter.get()))) {
                out.add(Disrupt.replacingFirst(c.claim().name(), "expired"));
                disrupting++; // it is disrupting from now on, and counts against the other reasons' budgets
            } else {
                stillActive.add(c);
            }
        }
        if (!pool.isStatic()) { // a static pool's nodes are kept by count, empty or not (Karpenter's emptiness.go)
            emptiness(pool, stillActive, nodes, disrupting, holdingBuffers, now, out);
        }
    }

    private static void emptiness(NodePool pool, List<Candidate> active, int nodes, int disrupting,
                                  Predicate<String> holdingBuffers, Instant now, List<DisruptionCommand> out) {
        Optional<Duration> after = pool.disruption().consolidateAfter();
        List<Candidate> ready = new ArrayList<>();
        for (Candidate c : active) {
            Instant since = emptySince(c.node());
            boolean empty = isEmpty(c) && !holdingBuffers.test(c.node().name());
            if (!empty) {
                if (since != null) {
                    out.add(new SetEmptySince(c.node().name(), null));
                }
            } else if (since == null) {
                out.add(new SetEmptySince(c.node().name(), now));
            } else if (after.isPresent() && !now.isBefore(since.plus(after.get())) && !blocked(pool, c, now) && !awaitingPods(c, now)) {
                ready.add(c);
            }
        }
        if (after.isEmpty() || ready.isEmpty()) {
            return;
        }
        ready.sort(Comparator.comparing((Candidate c) -> emptySince(c.node())).thenComparing(c -> c.claim().name()));
        int allowed = DisruptionBudgets.allowed(pool, NodePool.Reason.Empty, nodes, disrupting, now);
        for (int i = 0; i < Math.min(allowed, ready.size()); i++) {
            out.add(Disrupt.outright(ready.get(i).claim().name(), "empty"));
        }
    }

    /**
     * A consolidation replacement stays empty until the nodes it replaces have drained onto it, which a PDB can slow to
     * minutes: it is not removed as empty within {@link #REPLACEMENT_GRACE} of initializing (Karpenter keeps such a
     * node as nominated for the pods on their way).
     */
    public static final Duration REPLACEMENT_GRACE = Duration.ofMinutes(10);

    private static boolean awaitingPods(Candidate c, Instant now) {
        Instant init = c.claim().initializedAt();
        return c.claim().fromConsolidation() && init != null && now.isBefore(init.plus(REPLACEMENT_GRACE));
    }

    /** No pods that would need somewhere else to run. */
    static boolean isEmpty(Candidate c) {
        return c.pods().stream().noneMatch(p -> !p.status().isTerminal() && !p.isDaemon() && !p.isMirror());
    }

    /**
     * Karpenter's do-not-disrupt, as consolidation reads it: on the node, in the pool's template annotations (which
     * Karpenter copies onto its nodes), or on an active pod ("true", or a duration the pod is still younger than).
     */
    private static boolean blocked(NodePool pool, Candidate c, Instant now) {
        String key = dev.gantry.core.model.Pod.DO_NOT_DISRUPT;
        return "true".equals(c.node().annotations().get(key)) || "true".equals(pool.template().annotations().get(key))
                || c.pods().stream().anyMatch(p -> DoNotDisrupt.active(p, now));
    }

    /** The node's empty-since label, or null when absent, cleared or unreadable. */
    public static Instant emptySince(Node n) {
        String v = n.labels().get(EMPTY_SINCE);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Instant.ofEpochSecond(Long.parseLong(v));
        } catch (NumberFormatException bad) {
            return null;
        }
    }
}
