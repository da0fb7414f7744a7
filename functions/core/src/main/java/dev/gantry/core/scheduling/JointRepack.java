package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The last packing pass: a pool's claims packed again as one bag across their requirement sets. Every earlier pass packs
 * a group of claims with the same requirements, so pods that would pair well never meet: an arm64-only pod and a plain
 * pod (which an arm64 node takes too) sit on separate half-empty nodes, and so do a zone-pinned spread replica and a
 * plain pod. Here each pod keeps what it needs of a node (its kind: the pool's requirements and its own node affinity
 * for a free pod; its claim's requirements, zone pins included, for any other) and may share a node with any pod whose
 * kind the same type and offering satisfy. Columns are a type at one offering (zone and capacity type), one per set of
 * kinds the offerings of the type let in, the cheapest; {@link PatternPacking} packs the classes (shape and kind)
 * across them. A bin's claim gets the intersection of its pods' kinds, and the new claims replace the old only when
 * they cost less, right-sized.
 *
 * <p>The same claims take part as in {@link ZoneRepack} (nothing depends on which node their pods share), and for the
 * same reason the topology counts stay as recorded: no pod changes domain.
 */
final class JointRepack {
    /**
     * The bag is a whole pool's, with more classes (shape and kind) than a group's and more ways to pair them, so the
     * column generation searches wider, and prices the eight most promising types a round exactly (a grid of 32,768
     * states: cpu and memory of a type up to about 2xlarge in the pods' common units). On the benchmark's real mixed
     * pods (10,000 pods, 91 classes) the depth-first search alone stopped its LP at 101.86 $/h, the exact pricing takes
     * it to 100.47, the LP's optimum for these kinds (proven by ExactGapBenchmark), and the plan from 102.02 to 100.56
     * $/h, for about 1 s more (SchedulingBenchmark).
     */
    static final PatternPacking.Effort EFFORT = new PatternPacking.Effort(60, 32, 2_000, 128, 8, 1 << 15);

    private JointRepack() {
    }

    /** @param eligible the claims {@link ZoneRepack} may re-pack, in the packer's order */
    static void run(Packer packer, List<Claim> eligible) {
        bags(eligible).values().forEach(claims -> repack(packer, claims));
    }

    /**
     * The claims this pass packs, per pool: the eligible ones ({@link ZoneRepack#eligible}), in the pools where they
     * have more than one requirement set (with one, ZoneRepack packed them as one group already).
     */
    static Map<PoolContext, List<Claim>> bags(List<Claim> eligible) {
        Map<PoolContext, List<Claim>> byPool = new LinkedHashMap<>();
        for (Claim claim : eligible) {
            byPool.computeIfAbsent(claim.pool, k -> new ArrayList<>()).add(claim);
        }
        byPool.values().removeIf(claims -> claims.stream().map(c -> c.requirements).distinct().count() < 2);
        return byPool;
    }

    /** A node one could launch for the bag: a type at one of its offerings, and the room its pods get. */
    record Column(InstanceType type, Offering offering, Resources room, Set<Integer> kinds) {
    }

    private static void repack(Packer packer, List<Claim> old) {
        PoolContext pool = old.get(0).pool;
        Map<Pod, Requirements> kindOf = new IdentityHashMap<>();
        Map<Requirements, Integer> kindIndex = new LinkedHashMap<>();
        List<PodConstraints> pods = new ArrayList<>();
        List<List<PodConstraints>> seeds = new ArrayList<>(); // each old claim's pods: the master starts from the current plan
        double before = 0;
        for (Claim c : old) {
            before += c.price();
            List<PodConstraints> seed = new ArrayList<>();
            for (Pod p : c.pods) {
                PodConstraints pc = PodConstraints.strict(p);
                boolean free = CostAwarePacking.isFree(packer, pc);
                Requirements kind = free ? pool.requirements.intersect(pc.nodeRequirements()) : c.requirements;
                kindOf.put(p, kind);
                kindIndex.putIfAbsent(kind, kindIndex.size());
                seed.add(pc);
            }
            pods.addAll(seed);
            seeds.add(seed);
        }
        pods.sort(java.util.Comparator.comparing(c -> c.pod().key()));
        List<Column> columns = columns(pool, new ArrayList<>(kindIndex.keySet()));
        List<ShapePacking.Bin<PodConstraints, Column>> plan = PatternPacking.pack(pods, PodConstraints::requests,
                c -> kindIndex.get(kindOf.get(c.pod())), columns, Column::room, c -> c.offering().pricePerHour(),
                (kind, column) -> column.kinds().contains(kind), before, EFFORT, seeds);
        if (plan == null) {
            return;
        }
        Map<ShapePacking.Bin<PodConstraints, Column>, Requirements> reqsOf = new IdentityHashMap<>();
        for (ShapePacking.Bin<PodConstraints, Column> bin : plan) {
            Requirements reqs = pool.requirements;
            for (PodConstraints c : bin.pods()) {
                reqs = reqs.intersect(kindOf.get(c.pod()));
            }
            if (reqs.isUnsatisfiable()) {
                return; // cannot happen: a column lets in only kinds that share a node
            }
            reqsOf.put(bin, reqs);
        }
        List<Claim> fresh = ZoneRepack.open(packer, pool, plan, reqsOf::get, bin -> bin.type().type(), true);
        if (fresh == null || fresh.stream().mapToDouble(Claim::price).sum() >= before - 1e-9) {
            return;
        }
        ZoneRepack.replace(packer, old, fresh);
    }

    /**
     * For each type of the pool, its offerings grouped by the kinds they let in, the cheapest of each group, less those
     * another offering of the type lets in at least as much for no more. Kinds may also differ on labels neither the
     * type nor the offering decides (a custom label a spread pins, say): a column is then also one of the kinds' values
     * for those labels, its cell, and lets in only the kinds that allow the whole cell, so the kinds a column lets in
     * can always share a node.
     */
    private static List<Column> columns(PoolContext pool, List<Requirements> kinds) {
        List<InstanceType> types = pool.typesFor(pool.requirements);
        Set<String> decided = new HashSet<>(Set.of(WellKnownLabels.ZONE, WellKnownLabels.ZONE_ID, WellKnownLabels.CAPACITY_TYPE));
        for (InstanceType t : types) {
            decided.addAll(t.requirements().keys());
        }
        List<Requirements> residual = new ArrayList<>();
        for (Requirements k : kinds) {
            Map<String, dev.gantry.core.requirements.ValueSet> rest = new HashMap<>(k.asMap());
            rest.keySet().removeAll(decided);
            residual.add(Requirements.ofSets(rest));
        }
        List<Requirements> cells = residual.stream().distinct().toList();
        List<Column> out = new ArrayList<>();
        for (InstanceType t : types) {
            Map<Set<Integer>, Offering> cheapest = new HashMap<>();
            for (Offering o : t.offerings()) {
                if (!o.available() || !admits(pool.requirements, t, o)) {
                    continue;
                }
                for (Requirements cell : cells) {
                    Set<Integer> in = new HashSet<>();
                    for (int k = 0; k < kinds.size(); k++) {
                        if (admits(kinds.get(k), t, o) && cell.intersect(residual.get(k)).equals(cell)) {
                            in.add(k);
                        }
                    }
                    Offering was = cheapest.get(in);
                    if (!in.isEmpty() && (was == null || o.pricePerHour() < was.pricePerHour())) {
                        cheapest.put(in, o);
                    }
                }
            }
            Resources room = pool.room(t);
            for (var e : cheapest.entrySet()) {
                boolean dominated = false;
                for (var f : cheapest.entrySet()) {
                    dominated |= f != e && f.getKey().containsAll(e.getKey()) && f.getValue().pricePerHour() <= e.getValue().pricePerHour()
                            && (f.getKey().size() > e.getKey().size() || f.getValue().pricePerHour() < e.getValue().pricePerHour());
                }
                if (!dominated) {
                    out.add(new Column(t, e.getValue(), room, Set.copyOf(e.getKey())));
                }
            }
        }
        out.sort(java.util.Comparator.comparingDouble((Column c) -> c.offering().pricePerHour()).thenComparing(c -> c.type().name())
                .thenComparing(c -> c.offering().zone()).thenComparing(c -> c.offering().capacityType()));
        return out;
    }

    /** Whether a node of type {@code t} launched at offering {@code o} meets {@code reqs}. */
    private static boolean admits(Requirements reqs, InstanceType t, Offering o) {
        return reqs.compatible(t.requirements()) && o.allowedBy(reqs);
    }
}
