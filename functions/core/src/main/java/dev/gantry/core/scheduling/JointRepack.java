package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
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
 * <p>Replicas of a zonal spread alike but for their requests ({@link ZoneExchange}) may also trade zones: their kind
 * leaves the zone open, each zone keeps its count of them ({@link Quotas}: a column per zone, a master row per group
 * and zone), and the claim of a bin holding one is pinned to its column's zone. On the benchmark's real mixed pods
 * (10,000 pods; one spread of 16 shapes) this takes the plan from 100.58 to 99.75 $/h, where the
 * optimum keeping the spread is at least 99.64 (ExactGapBenchmark --zones).
 *
 * <p>The same claims take part as in {@link ZoneRepack} (nothing depends on which node their pods share), and for the
 * same reason the topology counts stay as recorded: a pod keeps its domain, or trades it with a pod every group counts
 * alike.
 */
final class JointRepack {
    /**
     * The bag is a whole pool's, with more classes (shape and kind) than a group's and more ways to pair them, so the
     * column generation searches wider, and prices the eight most promising types a round exactly (a grid of 32,768
     * states: cpu and memory of a type up to about 2xlarge in the pods' common units). On the benchmark's real mixed
     * pods (10,000 pods, 91 classes) the depth-first search alone stopped its LP at 101.86 $/h, the exact pricing takes
     * it to 100.47, the LP's optimum for these kinds with each replica in its zone (proven by ExactGapBenchmark), and
     * the plan from 102.02 to 100.56 $/h, for about 1 s more (SchedulingBenchmark).
     */
    static final PatternPacking.Effort EFFORT = new PatternPacking.Effort(60, 32, 2_000, 128, 8, 1 << 15, false);

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

    /**
     * Packs the bag with each exchange group's replicas free to trade zones ({@link ZoneExchange}) and, where there are
     * such replicas, also with every replica kept in its zone, as before: the freer LP is tighter, but rounding decides
     * the plan (on the benchmark's 300 mixed pods with DaemonSets the kept zones round 0.3% cheaper), and the second
     * stops early once its LP shows it cannot beat the first. The cheaper replaces the old claims if it costs less.
     */
    private static void repack(Packer packer, List<Claim> old) {
        Bag traded = new Bag(packer, old, true);
        int mark = packer.claimIndex;
        List<Claim> fresh = traded.repacked(packer, traded.before);
        if (traded.groups > 0) {
            int end = packer.claimIndex;
            packer.claimIndex = mark;
            Bag kept = new Bag(packer, old, false);
            List<Claim> other = kept.repacked(packer, fresh == null ? kept.before : Math.min(kept.before, price(fresh)));
            if (other == null || (fresh != null && price(fresh) <= price(other))) {
                packer.claimIndex = end; // the traded claims' indexes: mark up to end
            } else {
                fresh = other;
            }
        }
        if (fresh == null || price(fresh) >= traded.before - 1e-9) {
            return;
        }
        ZoneRepack.replace(packer, old, fresh);
    }

    private static double price(List<Claim> claims) {
        return claims.stream().mapToDouble(Claim::price).sum();
    }

    /**
     * A pool's eligible claims as one bag: each pod's kind (what it needs of a node), the replicas that may trade zones
     * and their zones, and each old claim's pods as a seed.
     */
    private static final class Bag {
        final PoolContext pool;
        final Map<Pod, Integer> kindOf = new IdentityHashMap<>();
        final List<Requirements> kinds = new ArrayList<>();
        final Map<Pod, Integer> groupOf = new IdentityHashMap<>();
        final Map<Pod, String> zoneOf = new IdentityHashMap<>();
        final List<PodConstraints> pods = new ArrayList<>();
        final List<List<PodConstraints>> seeds = new ArrayList<>(); // each old claim's pods: the master starts from the current plan
        final int groups;
        final double before;

        /** @param trade whether replicas may trade zones; if not, every pod but a free one keeps its claim's requirements */
        Bag(Packer packer, List<Claim> old, boolean trade) {
            pool = old.get(0).pool;
            Map<Pod, List<Object>> exchangeOf = new IdentityHashMap<>();
            Map<List<Object>, Set<Resources>> shapes = new HashMap<>();
            double price = 0;
            for (Claim c : old) {
                price += c.price();
                List<PodConstraints> seed = new ArrayList<>();
                boolean zoned = c.requirements.get(WellKnownLabels.ZONE).singleValue() != null;
                for (Pod p : c.pods) {
                    PodConstraints pc = PodConstraints.strict(p);
                    List<Object> exchange = !trade || !zoned || CostAwarePacking.isFree(packer, pc) ? null : ZoneExchange.key(packer, pc);
                    if (exchange != null) {
                        exchangeOf.put(p, exchange);
                        shapes.computeIfAbsent(exchange, k -> new HashSet<>()).add(p.requests());
                    }
                    seed.add(pc);
                }
                pods.addAll(seed);
                seeds.add(seed);
            }
            // Replicas all of one shape gain nothing by trading: their kind stays their claim's.
            exchangeOf.values().removeIf(k -> shapes.get(k).size() < 2);
            Map<List<Object>, Integer> kindIndex = new LinkedHashMap<>(); // a kind's requirements and its exchange group (-1: none)
            Map<List<Object>, Integer> exchangeGroups = new LinkedHashMap<>();
            for (int i = 0; i < old.size(); i++) {
                Claim c = old.get(i);
                for (PodConstraints pc : seeds.get(i)) {
                    Pod p = pc.pod();
                    List<Object> exchange = exchangeOf.get(p);
                    Requirements kind = exchange != null || CostAwarePacking.isFree(packer, pc) ? pool.requirements.intersect(pc.nodeRequirements())
                            : c.requirements;
                    int group = exchange == null ? -1 : exchangeGroups.computeIfAbsent(exchange, k -> exchangeGroups.size());
                    kindOf.put(p, kindIndex.computeIfAbsent(List.of(kind, group), k -> {
                        kinds.add(kind);
                        return kinds.size() - 1;
                    }));
                    if (group >= 0) {
                        groupOf.put(p, group);
                        zoneOf.put(p, c.requirements.get(WellKnownLabels.ZONE).singleValue());
                    }
                }
            }
            pods.sort(java.util.Comparator.comparing(c -> c.pod().key()));
            groups = exchangeGroups.size();
            before = price;
        }

        /** The bag packed by patterns, as right-sized claims; null if no packing is sought (none can beat {@code toBeat}). */
        List<Claim> repacked(Packer packer, double toBeat) {
            List<Column> columns = columns(pool, kinds, groups > 0);
            List<ShapePacking.Bin<PodConstraints, Column>> plan = PatternPacking.pack(pods, PodConstraints::requests,
                    c -> kindOf.get(c.pod()), columns, Column::room, c -> c.offering().pricePerHour(),
                    (kind, column) -> column.kinds().contains(kind), toBeat, EFFORT, seeds, quotas(columns));
            return plan == null ? null : open(packer, plan);
        }

        /**
         * Each exchange group keeps its count per zone ({@link ZoneExchange}): a column's cell is its zone, and a replica
         * starts in its old claim's zone.
         */
        private Quotas<PodConstraints, Column> quotas(List<Column> columns) {
            if (groups == 0) {
                return Quotas.none();
            }
            Map<String, Integer> cell = new LinkedHashMap<>();
            columns.forEach(c -> cell.putIfAbsent(c.offering().zone(), cell.size()));
            zoneOf.values().forEach(z -> cell.putIfAbsent(z, cell.size()));
            int[][] count = new int[groups][cell.size()];
            groupOf.forEach((p, g) -> count[g][cell.get(zoneOf.get(p))]++);
            return new Quotas<>(c -> groupOf.getOrDefault(c.pod(), -1), c -> cell.get(c.offering().zone()), count,
                    c -> groupOf.containsKey(c.pod()) ? cell.get(zoneOf.get(c.pod())) : -1);
        }

        /** The plan's claims: each bin's pods' kinds together, and a replica's zone its node's; null if one does not fit. */
        private List<Claim> open(Packer packer, List<ShapePacking.Bin<PodConstraints, Column>> plan) {
            Map<ShapePacking.Bin<PodConstraints, Column>, Requirements> reqsOf = new IdentityHashMap<>();
            for (ShapePacking.Bin<PodConstraints, Column> bin : plan) {
                Requirements reqs = pool.requirements;
                for (PodConstraints c : bin.pods()) {
                    reqs = reqs.intersect(kinds.get(kindOf.get(c.pod())));
                    if (groupOf.containsKey(c.pod())) {
                        reqs = reqs.intersect(Requirements.NONE.with(WellKnownLabels.ZONE, ValueSet.in(bin.type().offering().zone())));
                    }
                }
                if (reqs.isUnsatisfiable()) {
                    return null; // cannot happen: a column lets in only kinds that share a node
                }
                reqsOf.put(bin, reqs);
            }
            return ZoneRepack.open(packer, pool, plan, reqsOf::get, bin -> bin.type().type(), true);
        }
    }

    /**
     * For each type of the pool, its offerings grouped by the kinds they let in, the cheapest of each group, less those
     * another offering of the type lets in at least as much for no more. Kinds may also differ on labels neither the
     * type nor the offering decides (a custom label a spread pins, say): a column is then also one of the kinds' values
     * for those labels, its cell, and lets in only the kinds that allow the whole cell, so the kinds a column lets in
     * can always share a node.
     */
    private static List<Column> columns(PoolContext pool, List<Requirements> kinds, boolean byZone) {
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
            Map<List<Object>, Offering> cheapest = new HashMap<>(); // by the kinds let in (and the zone, if byZone)
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
                    List<Object> key = byZone ? List.of(in, o.zone()) : List.of(in);
                    Offering was = cheapest.get(key);
                    if (!in.isEmpty() && (was == null || o.pricePerHour() < was.pricePerHour())) {
                        cheapest.put(key, o);
                    }
                }
            }
            Resources room = pool.room(t);
            for (var e : cheapest.entrySet()) {
                @SuppressWarnings("unchecked")
                Set<Integer> in = (Set<Integer>) e.getKey().get(0);
                boolean dominated = false;
                for (var f : cheapest.entrySet()) {
                    @SuppressWarnings("unchecked")
                    Set<Integer> fin = (Set<Integer>) f.getKey().get(0);
                    dominated |= f != e && (!byZone || f.getValue().zone().equals(e.getValue().zone())) && fin.containsAll(in)
                            && f.getValue().pricePerHour() <= e.getValue().pricePerHour()
                            && (fin.size() > in.size() || f.getValue().pricePerHour() < e.getValue().pricePerHour());
                }
                if (!dominated) {
                    out.add(new Column(t, e.getValue(), room, Set.copyOf(in)));
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
