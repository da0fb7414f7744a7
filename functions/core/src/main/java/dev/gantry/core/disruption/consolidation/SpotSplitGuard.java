package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.capacity.SpotSplit;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * Consolidation's side of the spot/on-demand split ({@link SpotSplit}): a command may not leave a pool's spot share
 * further than one node's worth from its target. Precisely, for each pool with a target p that the command touches,
 * with s the share after it and w the vCPU of the pool's largest node before it (of the replacements when it had none)
 * over the pool's total vCPU after it, the command is allowed when {@code |s - p| <= w}, or when it brings the share
 * closer to p than it was (so a pool far off its target after spot ran out is restored step by step, by replacing
 * on-demand nodes with cheaper spot ones). Gantry's own rule; Karpenter has no split.
 */
final class SpotSplitGuard {
    private SpotSplitGuard() {
    }

    /** Why the command would break a pool's split, or null when it keeps every split. */
    static String breaks(ConsolidationInput in, ConsolidationCommand cmd) {
        for (Shares s : shares(in, cmd.nodes(), cmd.replacements())) {
            if (s.off() > s.oneNode() + 1e-9 && s.off() >= s.was() - 1e-9) {
                return String.format("would put NodePool %s's spot share at %.0f%% of its vCPU, more than one node's worth "
                        + "from its %s of %d%%", s.pool(), 100.0 * s.after(), SpotSplit.ANNOTATION, s.target());
            }
        }
        return null;
    }

    /**
     * Whether removing {@code nodes} for {@code replacements} restores a split: some pool it touches ends strictly closer
     * to its target than it was, and none is broken ({@link #breaks}). Such a move may launch as many nodes as it
     * removes, or more (one on-demand node for two spot ones, when the pods' zonal spread puts them in two zones), where
     * other consolidation moves must launch fewer: it is how the share comes back after spot ran out.
     */
    static boolean restores(ConsolidationInput in, List<String> nodes, List<NodeClaimPlan> replacements) {
        boolean closer = false;
        for (Shares s : shares(in, nodes, replacements)) {
            if (s.off() > s.oneNode() + 1e-9 && s.off() >= s.was() - 1e-9) {
                return false;
            }
            closer |= s.off() < s.was() - 1e-9;
        }
        return closer;
    }

    /**
     * A guarded pool's spot share before and after a move: the target (0–100), the share after (0–1), its distance from
     * the target after and before, and one node's worth (the pool's largest node before, of the replacements when it
     * had none, over its total after).
     */
    private record Shares(String pool, int target, double after, double off, double was, double oneNode) {
    }

    /**
     * The move's new claims, each claim of a pool with a split narrowed to the capacity type the split's rule picks for
     * a launch ({@link SpotSplit#wantsSpot}), with the pool as the move leaves it and the earlier claims added, in
     * order: consolidation replaces a node as the provisioner would launch one. A pool at its target keeps its
     * on-demand share (a cheaper on-demand type may still replace an on-demand node), and a pool short of spot gets spot
     * back. A claim whose options have no offering of that type (spot out of capacity) is left as it is.
     */
    static List<NodeClaimPlan> narrow(ConsolidationInput in, List<String> nodes, List<NodeClaimPlan> claims) {
        if (claims.isEmpty()) {
            return claims;
        }
        Tallies t = tallies(in, nodes);
        List<NodeClaimPlan> out = new ArrayList<>(claims.size());
        for (NodeClaimPlan c : claims) {
            PoolOffer offer = t.pools().get(c.nodePool());
            OptionalInt target = offer == null ? OptionalInt.empty() : SpotSplit.target(offer.pool());
            NodeClaimPlan n = c;
            if (target.isPresent()) {
                long[] a = t.after().getOrDefault(c.nodePool(), new long[3]);
                boolean spot = SpotSplit.wantsSpot(new SpotSplit.Tally(a[0], a[1]), c.instanceType().capacity().cpuMillis(),
                        target.getAsInt());
                NodeClaimPlan narrowed = SpotSplit.narrowed(c, spot ? WellKnownLabels.CAPACITY_SPOT : WellKnownLabels.CAPACITY_ON_DEMAND);
                n = narrowed == null ? c : narrowed;
            }
            out.add(n);
            add(t.after(), n.nodePool(), WellKnownLabels.CAPACITY_SPOT.equals(n.offering().capacityType()),
                    n.instanceType().capacity().cpuMillis());
        }
        return out;
    }

    /** Per pool {spot, total, largest} vCPU before the move and after its removals, and the pools the removals touch. */
    private record Tallies(Map<String, PoolOffer> pools, Map<String, long[]> before, Map<String, long[]> after, Set<String> touched) {
    }

    private static Tallies tallies(ConsolidationInput in, List<String> nodes) {
        Map<String, PoolOffer> pools = new HashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        Set<String> removed = new HashSet<>(nodes);
        Map<String, long[]> before = new HashMap<>();
        Map<String, long[]> after = new HashMap<>();
        Set<String> touched = new HashSet<>();
        for (ClusterNode n : in.nodes()) {
            Map<String, String> l = n.node().labels();
            String pool = l.get(WellKnownLabels.NODEPOOL);
            if (!n.managed() || pool == null || !pools.containsKey(pool) || n.node().deleting()) {
                continue;
            }
            long v = vcpu(pools.get(pool), l.get(WellKnownLabels.INSTANCE_TYPE), n.node().allocatable().cpuMillis());
            boolean spot = WellKnownLabels.CAPACITY_SPOT.equals(l.get(WellKnownLabels.CAPACITY_TYPE));
            add(before, pool, spot, v);
            if (removed.contains(n.node().name())) {
                touched.add(pool);
                max(after, pool, v);
            } else {
                add(after, pool, spot, v);
            }
        }
        return new Tallies(pools, before, after, touched);
    }

    /** The shares of the guarded pools the move touches and does not empty. */
    private static List<Shares> shares(ConsolidationInput in, List<String> nodes, List<NodeClaimPlan> replacements) {
        Tallies t = tallies(in, nodes);
        Map<String, PoolOffer> pools = t.pools();
        Map<String, long[]> before = t.before();
        Map<String, long[]> after = t.after();
        Set<String> touched = t.touched();
        for (NodeClaimPlan r : replacements) {
            touched.add(r.nodePool());
            add(after, r.nodePool(), WellKnownLabels.CAPACITY_SPOT.equals(r.offering().capacityType()),
                    r.instanceType().capacity().cpuMillis());
        }
        List<Shares> out = new ArrayList<>();
        for (String pool : new TreeSet<>(touched)) {
            PoolOffer offer = pools.get(pool);
            OptionalInt target = offer == null ? OptionalInt.empty() : SpotSplit.target(offer.pool());
            if (target.isEmpty()) {
                continue;
            }
            long[] a = after.getOrDefault(pool, new long[3]);
            long[] b = before.getOrDefault(pool, new long[3]);
            if (a[1] == 0) {
                continue; // the pool empties: no split to keep
            }
            double p = target.getAsInt() / 100.0;
            double share = (double) a[0] / a[1];
            double was = b[1] == 0 ? Double.MAX_VALUE : Math.abs((double) b[0] / b[1] - p);
            out.add(new Shares(pool, target.getAsInt(), share, Math.abs(share - p), was, (double) (b[2] > 0 ? b[2] : a[2]) / a[1]));
        }
        return out;
    }

    private static long vcpu(PoolOffer offer, String type, long fallback) {
        for (InstanceType t : offer.instanceTypes()) {
            if (t.name().equals(type)) {
                return t.capacity().cpuMillis();
            }
        }
        return fallback;
    }

    /** {spot, total, largest} per pool. */
    private static void add(Map<String, long[]> m, String pool, boolean spot, long v) {
        long[] t = m.computeIfAbsent(pool, k -> new long[3]);
        t[0] += spot ? v : 0;
        t[1] += v;
        t[2] = Math.max(t[2], v);
    }

    private static void max(Map<String, long[]> m, String pool, long v) {
        long[] t = m.computeIfAbsent(pool, k -> new long[3]);
        t[2] = Math.max(t[2], v);
    }
}
