package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Re-packs by shape the claims Karpenter's loop opened for pods whose constraints are zonal (topology spread or pod
 * affinity on zone, say). The loop decides each pod's domain well, but fills a claim for as long as some type still
 * holds everything: one claim per zone grows to the largest type with enough pod slots (hundreds of pods on a
 * 12 TB, $32/h machine where a few 64-vCPU nodes would do). Once every domain is pinned in a claim's requirements,
 * which node of that domain a pod lands on changes no count, so the pods of claims with the same pool and
 * requirements are packed again as one bag ({@link CostAwarePacking#cheapestPlan}), and the new claims replace the
 * old ones when they cost less.
 *
 * <p>{@link #repackFilled} runs the same regrouping once more at the end, when the free pods have been packed and have
 * filled the slack of these claims: every group of claims with the same pool and requirements (the free pods' own
 * claims too, whose pods count in no topology group) is packed again by patterns ({@link PatternPacking}), which
 * pairs the shapes that bin-by-bin filling splits, and the new claims replace the old when they cost less.
 *
 * <p>A claim takes part only if nothing about its pods depends on which node they share: no host ports, no
 * constraint or counting group on the hostname (spread, affinity or anti-affinity, required or preferred), every
 * other key a group counts them by pinned to one value in the claim's requirements, and a pool without limits (the
 * swap would otherwise move capacity across a limit). The topology counts stay as recorded: the domains are the same.
 */
final class ZoneRepack {
    /** A group whose claims cost within this factor of its LP bound is not packed again by patterns. */
    private static final double TIGHT = 1.005;
    /**
     * Groups of fewer pods skip the wider effort: it costs 40-80 ms on the 250 + 500 anti-affinity benchmark's plain
     * group and found no cheaper plan in any benchmark group this small (there rounding, not the LP, decides).
     */
    private static final int WIDE_FROM = 1_000;

    private ZoneRepack() {
    }

    static void run(Packer packer) {
        run(packer, false);
    }

    /**
     * The second pass, once the free pods have filled the claims' slack: each group (zonal pods and the free pods that
     * share their nodes) is packed again, also by patterns ({@link PatternPacking}), and the fresh claims are right-sized.
     * Packing the zonal pods tightly in the first pass would only take away the room the free pods fill.
     */
    static void repackFilled(Packer packer) {
        run(packer, true);
    }

    /**
     * Packs each group of eligible claims again; after the second pass, each pool's groups together ({@link JointRepack}),
     * over the same claims: a fresh claim holds pods of eligible claims with their requirements, so it is eligible too.
     */
    private static void run(Packer packer, boolean filled) {
        List<Claim> eligible = new ArrayList<>();
        for (Claim claim : packer.claims) {
            if (eligible(packer, claim)) {
                eligible.add(claim);
            }
        }
        Set<PoolContext> joint = filled ? JointRepack.bags(eligible).keySet() : Set.of();
        Map<List<Object>, List<Claim>> groups = new LinkedHashMap<>();
        for (Claim claim : eligible) {
            groups.computeIfAbsent(List.of(claim.pool, claim.requirements), k -> new ArrayList<>()).add(claim);
        }
        Set<Claim> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (List<Claim> group : groups.values()) {
            List<PatternPacking.Effort> efforts = joint.contains(group.get(0).pool) ? List.of(PatternPacking.GROUP)
                    : podCount(group) >= WIDE_FROM ? List.of(PatternPacking.GROUP, PatternPacking.WIDE, PatternPacking.LP)
                    : List.of(PatternPacking.GROUP);
            kept.addAll(repack(packer, group, filled, efforts));
        }
        if (filled) {
            JointRepack.run(packer, packer.claims.stream().filter(kept::contains).toList());
        }
    }

    private static int podCount(List<Claim> claims) {
        int n = 0;
        for (Claim c : claims) {
            n += c.pods.size();
        }
        return n;
    }

    /**
     * The claims that now hold the group's pods: the fresh ones where they replaced {@code old}, else {@code old}.
     *
     * @param efforts the pattern packing's efforts, the cheapest plan kept: also the wider ones (and the LP-priced,
     *                {@link PatternPacking#LP}) for a large group with no {@link JointRepack} pass to follow in its pool
     */
    private static List<Claim> repack(Packer packer, List<Claim> old, boolean filled, List<PatternPacking.Effort> efforts) {
        PoolContext pool = old.get(0).pool;
        Requirements reqs = old.get(0).requirements;
        List<InstanceType> types = pool.typesFor(reqs);
        List<PodConstraints> pods = new ArrayList<>();
        List<List<PodConstraints>> current = new ArrayList<>(); // each old claim's pods
        double before = 0;
        for (Claim c : old) {
            double p = rightSizedPrice(pool, types, reqs, c.requests);
            if (Double.isNaN(p)) {
                return old;
            }
            before += p;
            List<PodConstraints> mine = c.pods.stream().map(PodConstraints::strict).toList();
            current.add(mine);
            pods.addAll(mine);
        }
        pods.sort(java.util.Comparator.comparing(c -> c.pod().key()));
        if (filled && before <= TIGHT * lowerBound(pool, types, reqs, pods)) {
            return old; // within this of the group's LP bound, no packing gains enough to pay for the rounds
        }
        // The first pass packs by shape; the second only by patterns, since the free pods it now holds were packed by shape already.
        List<ShapePacking.Bin<PodConstraints, InstanceType>> plan = filled
                ? patterns(pool, types, reqs, pods, before, efforts, current)
                : CostAwarePacking.cheapestPlan(pool, types, reqs, pods);
        if (plan == null) {
            return old;
        }
        if (price(pool, types, reqs, plan) >= before - 1e-9) {
            return old;
        }
        List<Claim> fresh = open(packer, pool, plan, bin -> reqs, ShapePacking.Bin::type, filled);
        if (fresh == null) {
            return old;
        }
        replace(packer, old, fresh);
        return fresh;
    }

    /**
     * A claim per bin, with the bin's requirements and type, its pods committed in order (and right-sized if asked);
     * null if some pod does not fit its claim (it only fitted at a relaxed level), when the caller keeps its old claims.
     */
    static <B> List<Claim> open(Packer packer, PoolContext pool, List<ShapePacking.Bin<PodConstraints, B>> plan,
                                java.util.function.Function<ShapePacking.Bin<PodConstraints, B>, Requirements> requirements,
                                java.util.function.Function<ShapePacking.Bin<PodConstraints, B>, InstanceType> type, boolean rightSize) {
        List<Claim> fresh = new ArrayList<>();
        for (ShapePacking.Bin<PodConstraints, B> bin : plan) {
            Claim claim = Claim.open(pool, packer.nextClaimIndex(), requirements.apply(bin), List.of(type.apply(bin)));
            for (PodConstraints c : bin.pods()) {
                ClaimFit fit = claim.fit(c, Map.of());
                if (!fit.ok()) {
                    return null;
                }
                claim.commit(c.pod(), fit);
            }
            if (rightSize) {
                claim.rightSize();
            }
            fresh.add(claim);
        }
        return fresh;
    }

    /** Puts {@code fresh} in the packer where {@code old} was (at the first old claim's place), and counts the pool's nodes. */
    static void replace(Packer packer, List<Claim> old, List<Claim> fresh) {
        int at = packer.claims.indexOf(old.get(0));
        packer.claims.removeAll(old);
        packer.claims.addAll(Math.min(at, packer.claims.size()), fresh);
        old.get(0).pool.nodes += fresh.size() - old.size();
    }

    /**
     * The pods packed by patterns at each of {@code efforts} (the group effort, and for a large group the wider ones,
     * {@link PatternPacking#WIDE} and {@link PatternPacking#LP}): the cheapest plan right-sized; null if none beats
     * {@code before}. Each is told the cheapest price so far, so it stops early when its LP shows it cannot beat that.
     * {@code current} is the packing that costs {@code before} (each old claim's pods). Where {@link JointRepack} packs
     * the pool again the group keeps the one effort: the joint pass starts from this plan, and from the wider one's it
     * came out dearer (the benchmark's mixed pods with DaemonSets: 300 pods 3.714 -> 3.716 $/h, 10,000 pods 109.812 ->
     * 109.873).
     */
    private static List<ShapePacking.Bin<PodConstraints, InstanceType>> patterns(PoolContext pool, List<InstanceType> types, Requirements reqs,
                                                                            List<PodConstraints> pods, double before, List<PatternPacking.Effort> efforts,
                                                                            List<List<PodConstraints>> current) {
        List<ShapePacking.Bin<PodConstraints, InstanceType>> best = null;
        double toBeat = before;
        for (PatternPacking.Effort effort : efforts) {
            // Where the efforts before it found nothing cheaper, the LP-priced one starts from the current packing: one
            // its LP cannot improve (the GPU mix's, already optimal) is then proven so in its first rounds, not after
            // all of them (10,000 pods: 470 -> 335 ms). Started from a cheaper plan found before, it rounds dearer
            // (real generic 26.169 -> 26.355), so it starts from scratch there.
            List<List<PodConstraints>> seeds = effort.lp() && best == null ? current : List.of();
            List<ShapePacking.Bin<PodConstraints, InstanceType>> plan = PatternPacking.pack(pods, PodConstraints::requests, c -> "", types,
                    pool::room, t -> t.cheapestOffering(reqs).pricePerHour(), (kind, t) -> true, toBeat, effort, seeds);
            double price = plan == null ? Double.POSITIVE_INFINITY : price(pool, types, reqs, plan);
            if (price < toBeat - 1e-9) {
                best = plan;
                toBeat = price;
            }
        }
        return best;
    }

    private static double lowerBound(PoolContext pool, List<InstanceType> types, Requirements reqs, List<PodConstraints> pods) {
        Map<Resources, Integer> shapes = new java.util.HashMap<>();
        for (PodConstraints c : pods) {
            shapes.merge(c.requests(), 1, Integer::sum);
        }
        return LowerBound.ofPods(shapes, types, reqs, pool::daemonOverhead);
    }

    /** A packing's price with every bin right-sized; infinite if some bin fits no type. */
    private static double price(PoolContext pool, List<InstanceType> types, Requirements reqs, List<ShapePacking.Bin<PodConstraints, InstanceType>> plan) {
        double total = 0;
        for (ShapePacking.Bin<PodConstraints, InstanceType> bin : plan) {
            Resources used = Resources.ZERO;
            for (PodConstraints c : bin.pods()) {
                used = used.plus(c.requests());
            }
            double p = rightSizedPrice(pool, types, reqs, used);
            total += Double.isNaN(p) ? Double.POSITIVE_INFINITY : p;
        }
        return total;
    }

    /** What right-sizing would launch for these requests: the cheapest compatible type that holds them; NaN if none. */
    private static double rightSizedPrice(PoolContext pool, List<InstanceType> types, Requirements reqs, Resources requests) {
        for (InstanceType t : types) { // cheapest first
            if (requests.fitsIn(pool.room(t))) {
                return t.cheapestOffering(reqs).pricePerHour();
            }
        }
        return Double.NaN;
    }

    static boolean eligible(Packer packer, Claim claim) {
        if (claim.pods.isEmpty() || claim.pool.hasLimits() || claim.pool.hasNodeLimit() || !claim.ports.isEmpty()) {
            return false;
        }
        for (Pod p : claim.pods) {
            if (!p.hostPorts().isEmpty() || !keysPinned(claim, p, packer.topology)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every topology key the pod's constraints and counting groups use is pinned in the claim, and none is the hostname. */
    private static boolean keysPinned(Claim claim, Pod p, Topology topology) {
        List<String> keys = new ArrayList<>();
        for (TopologySpread s : p.topologySpread()) {
            keys.add(s.topologyKey());
        }
        for (List<PodAffinityTerm> terms : List.of(p.podAffinity(), p.preferredPodAffinity(), p.podAntiAffinity(), p.preferredPodAntiAffinity())) {
            for (PodAffinityTerm t : terms) {
                keys.add(t.topologyKey());
            }
        }
        for (Topology.Group g : topology.selecting(p)) {
            keys.add(g.id.key());
        }
        for (String k : keys) {
            String key = WellKnownLabels.normalize(k);
            if (key.equals(WellKnownLabels.HOSTNAME) || claim.requirements.get(key).singleValue() == null) {
                return false;
            }
        }
        return true;
    }
}
