package dev.gantry.cli.bench;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Splits the gap between Gantry's plan and the LP bound into the bound's looseness and packing, on random samples of
 * the scheduling benchmark's workloads: for each sample of k pods (drawn without replacement from the workload's first
 * {@code --workload} pods, their order kept), Gantry's plan, the LP bound the scheduler reports, the packing bound
 * ({@link SchedulingBenchmark#packingBound}), and the optimum bracketed by {@link ExactPlacement}: "opt LB", and "opt UB",
 * the cheaper of its placement ("dive", whose node count "nodes" is) and Gantry's. "opt÷LP" is opt LB ÷ LP (how loose the bound is, at least); "G÷opt" is Gantry ÷
 * opt UB (the packing gap, at least); "UB÷LB" is how far from proven the optimum is. The summary line per case and
 * size gives geometric means and the worst UB÷LB. Opt LB is the best of the column generation's bound, the LP bound and
 * the packing bound, each a lower bound on every placement of the sample. Columns are each type under the pool's requirements, priced at its
 * cheapest offering there (as the bounds and a claim are), on the room the DaemonSets leave; a pod class may use the
 * types its first node-affinity term admits. Pods with topology spread or pod affinity keep them in Gantry's plan but,
 * unless {@code --zones}, not in the optimum ("constr" counts them), so there the optimum is a relaxation's. Run with
 * {@code java -Xmx512m -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.ExactGapBenchmark [--case=name-or-part] [--samples=5] [--workload=10000] [--fleet] [--zones[=gantry]] [sizes...]};
 * a size of at least the workload solves the whole workload once, {@code --fleet} prints both placements' nodes by type,
 * {@code --zones} keeps the zonal spreads that must be met in the optimum (each zone's least count, on a column per type
 * and zone: the optimum is then that of the spread kept, not dropped), {@code --zones=gantry} keeps each spread pod in
 * the zone Gantry's plan put it (the optimum of Gantry's split of the spread among the zones),
 * and {@code --trace} prints the lower bound's column generation round by round (to standard error).
 * "exact ms" and "gantry ms" are thread CPU time. "master" is the restricted master LP's value where the lower bound's
 * generation stopped (an upper bound on the configuration LP; equal to the column generation's bound when it converged,
 * which "opt LB" may still exceed by the other bounds) and "rounds" its rounds.
 */
public final class ExactGapBenchmark {
    static final List<String> CASES = List.of("real generic on-demand cmr>4 amd64", "real gpu mix", "real mixed", "real mixed + daemonsets",
            "real generic");

    private ExactGapBenchmark() {
    }

    public static void main(String[] args) {
        String only = option(args, "--case=", "");
        int samples = Integer.parseInt(option(args, "--samples=", "5"));
        int workload = Integer.parseInt(option(args, "--workload=", "10000"));
        boolean fleets = Arrays.asList(args).contains("--fleet");
        Zones zones = switch (option(args, "--zones", "none")) {
            case "", "=spread" -> Zones.SPREAD;
            case "=gantry" -> Zones.GANTRY;
            default -> Zones.NONE;
        };
        java.io.PrintStream trace = Arrays.asList(args).contains("--trace") ? System.err : null;
        int[] sizes = Arrays.stream(args).filter(a -> !a.startsWith("--")).mapToInt(Integer::parseInt).toArray();
        if (sizes.length == 0) {
            sizes = new int[]{20, 50, 200};
        }
        System.out.printf("load average %.2f at start%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.printf("%-36s %5s %4s %6s %9s %9s %9s %9s %9s %7s %7s %7s %9s %9s %7s %9s %9s %6s%n", "case", "k", "seed", "constr", "LP",
                "pack LB", "opt LB", "opt UB", "gantry", "opt÷LP", "G÷opt", "UB÷LB", "exact ms", "gantry ms", "nodes", "dive", "master", "rounds");
        Map<String, SchedulingBenchmark.Case> cases = SchedulingBenchmark.cases();
        for (String name : CASES) {
            if (!only.isEmpty() && !(CASES.contains(only) ? name.equals(only) : name.contains(only))) {
                continue;
            }
            SchedulingBenchmark.Case c = cases.get(name);
            List<Pod> all = c.pods().apply(workload);
            for (int k : sizes) {
                List<Row> rows = new ArrayList<>();
                for (int seed = 1; seed <= (k >= all.size() ? 1 : samples); seed++) {
                    Row r = measure(c, sample(all, k, seed), zones, trace);
                    rows.add(r);
                    System.out.printf("%-36s %5d %4d %6d %9.3f %9.3f %9.3f %9.3f %9.3f %7.3f %7.3f %7.4f %9.1f %9.1f %7d %9.3f %9.3f %6d%n", name, k,
                            seed, r.constrained, r.lp, r.pack, r.opt.lower(), r.opt.upper(), r.gantry, r.opt.lower() / r.lp, r.gantry / r.opt.upper(),
                            r.opt.gap(), r.exactMs, r.gantryMs, r.opt.nodes(), r.dive, r.opt.master(), r.opt.rounds());
                    if (fleets) {
                        System.out.println("  the dive's placement: " + r.opt.fleet());
                        System.out.println("  Gantry's plan:       " + r.gantryFleet);
                    }
                }
                System.out.printf("%-36s %5d %4s %6s %9s %9s %9s %9s %9s %7.3f %7.3f %7.4f %9.1f %9.1f  (geomean of %d; UB÷LB worst)%n", name, k,
                        "all", "", "", "", "", "", "", geomean(rows, r -> r.opt.lower() / r.lp), geomean(rows, r -> r.gantry / r.opt.upper()),
                        rows.stream().mapToDouble(r -> r.opt.gap()).max().orElse(0), rows.stream().mapToDouble(r -> r.exactMs).average().orElse(0),
                        rows.stream().mapToDouble(r -> r.gantryMs).average().orElse(0), rows.size());
            }
        }
        System.out.printf("load average %.2f at end%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private record Row(int constrained, double lp, double pack, ExactPlacement.Result opt, double gantry, double exactMs, double gantryMs,
                       java.util.SortedMap<String, Integer> gantryFleet, double dive) {
    }

    /** k of the pods, drawn without replacement by {@code seed}, in their workload order. */
    static List<Pod> sample(List<Pod> all, int k, long seed) {
        if (k >= all.size()) {
            return all;
        }
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            idx.add(i);
        }
        java.util.Collections.shuffle(idx, new Random(seed));
        return idx.subList(0, k).stream().sorted().map(all::get).toList();
    }

    /** How the optimum treats zonal spreads: drops them, keeps each zone's least count, or keeps Gantry's zone for each pod. */
    enum Zones { NONE, SPREAD, GANTRY }

    private static Row measure(SchedulingBenchmark.Case c, List<Pod> pods, Zones zones, java.io.PrintStream trace) {
        SchedulingInput input = new SchedulingInput(pods, List.of(), List.of(), c.daemons(),
                List.of(new SchedulingInput.PoolOffer(c.pool(), c.types())), Map.of());
        var threads = ManagementFactory.getThreadMXBean();
        long t0 = threads.getCurrentThreadCpuTime();
        SchedulingResult plan = Scheduler.solve(input);
        double gantryMs = (threads.getCurrentThreadCpuTime() - t0) / 1e6;
        if (!plan.unschedulable().isEmpty()) {
            throw new IllegalStateException(plan.unschedulable().size() + " pods unschedulable in a sample of " + c.name());
        }
        double pack = SchedulingBenchmark.packingBound(input, plan);
        long t1 = threads.getCurrentThreadCpuTime();
        Map<Pod, String> pinned = null;
        if (zones == Zones.GANTRY) {
            Map<Pod, String> byPod = new java.util.IdentityHashMap<>();
            plan.newClaims().forEach(cl -> cl.pods().forEach(p -> byPod.put(p, cl.offering().zone())));
            pinned = byPod;
        }
        ExactPlacement.Result found = exact(input, zones != Zones.NONE, pinned, trace);
        // The LP and packing bounds hold for every placement of these pods: the optimum is at least each.
        // Gantry's plan is a placement too: the optimum is at most the cheaper of it and the dive's.
        ExactPlacement.Result opt = new ExactPlacement.Result(Math.max(found.lower(), Math.max(pack, plan.lowerBoundPerHour())),
                Math.min(found.upper(), plan.totalPricePerHour()), found.nodes(), found.fillings(), found.fleet(), found.master(), found.rounds());
        double exactMs = (threads.getCurrentThreadCpuTime() - t1) / 1e6;
        int constrained = (int) pods.stream().filter(p -> !p.topologySpread().isEmpty() || !p.podAffinity().isEmpty()
                || !p.podAntiAffinity().isEmpty()).count();
        java.util.SortedMap<String, Integer> gantryFleet = new java.util.TreeMap<>();
        plan.newClaims().forEach(cl -> gantryFleet.merge(cl.instanceType().name(), 1, Integer::sum));
        return new Row(constrained, plan.lowerBoundPerHour(), pack, opt, plan.totalPricePerHour(), exactMs, gantryMs, gantryFleet, found.upper());
    }

    /**
     * The bracket on the optimum for the input's pending pods over its single pool: one column per type the pool
     * admits, priced at its cheapest offering under the pool's requirements; one class per request vector and first
     * node-affinity term, open to the types that term admits. A class whose term changes a type's price (a zone or
     * capacity type of its own) would need a column of its own; the workloads here have none, and it is checked.
     * With {@code zones}, pods with a zonal topology spread that must be met (DoNotSchedule) keep it, as the least count
     * per zone ({@link ExactPlacement.ZoneRow}), over the zones the pool's offerings reach: a column per type and zone,
     * priced at that zone's cheapest offering.
     */
    static ExactPlacement.Result exact(SchedulingInput input) {
        return exact(input, false, null, null);
    }

    /**
     * As above; with {@code pinned} non-null (and {@code zones}), each spread pod stays in the zone it maps to instead
     * (the optimum for that split of the spread among the zones); with {@code trace} non-null, the lower bound's
     * generation is printed there.
     */
    static ExactPlacement.Result exact(SchedulingInput input, boolean zones, Map<Pod, String> pinned, java.io.PrintStream trace) {
        SchedulingInput.PoolOffer offer = input.pools().get(0);
        Requirements reqs = offer.requirements();
        java.util.SortedSet<String> zoneNames = new java.util.TreeSet<>();
        List<TopologySpread> spreads = new ArrayList<>();
        for (Pod p : input.pending()) {
            TopologySpread s = zones ? zonal(p) : null;
            if (s != null && !spreads.contains(s)) {
                spreads.add(s);
            }
        }
        List<InstanceType> types = new ArrayList<>();
        List<ExactPlacement.Column> columns = new ArrayList<>();
        for (InstanceType t : offer.instanceTypes()) {
            if (!reqs.compatible(t.requirements())) {
                continue;
            }
            if (spreads.isEmpty()) {
                Offering o = t.cheapestOffering(reqs);
                if (o != null) {
                    types.add(t);
                    columns.add(new ExactPlacement.Column(t.name(), SchedulingBenchmark.room(input, t), o.pricePerHour()));
                }
                continue;
            }
            java.util.Map<String, Offering> byZone = new java.util.TreeMap<>();
            for (Offering o : t.offerings()) {
                if (o.available() && o.allowedBy(reqs)) {
                    byZone.merge(o.zone(), o, (a, b) -> a.pricePerHour() <= b.pricePerHour() ? a : b);
                }
            }
            for (var e : byZone.entrySet()) {
                zoneNames.add(e.getKey());
                types.add(t);
                columns.add(new ExactPlacement.Column(t.name() + "@" + e.getKey(), SchedulingBenchmark.room(input, t),
                        e.getValue().pricePerHour(), e.getKey()));
            }
        }
        Map<List<Object>, Integer> counts = new LinkedHashMap<>();
        for (Pod p : input.pending()) {
            TopologySpread s = zones ? zonal(p) : null;
            counts.merge(java.util.Arrays.asList(p.requests(), p.nodeRequirementTerms().get(0), s, s == null || pinned == null ? null : pinned.get(p)), 1, Integer::sum);
        }
        List<ExactPlacement.PodClass> classes = new ArrayList<>();
        Map<TopologySpread, List<Integer>> members = new LinkedHashMap<>();
        for (var e : counts.entrySet()) {
            Requirements term = reqs.intersect((Requirements) e.getKey().get(1));
            boolean[] allowed = new boolean[types.size()];
            for (int j = 0; j < types.size(); j++) {
                InstanceType t = types.get(j);
                String zone = columns.get(j).zone();
                Requirements here = zone == null ? term : term.with(WellKnownLabels.ZONE, ValueSet.in(zone));
                Offering o = here.compatible(t.requirements()) ? t.cheapestOffering(here) : null;
                if (o != null && o.pricePerHour() != columns.get(j).price()) {
                    throw new IllegalStateException("a pod's requirements change the price of " + t.name() + ": not modelled");
                }
                allowed[j] = o != null && (e.getKey().get(3) == null || e.getKey().get(3).equals(zone));
            }
            if (e.getKey().get(2) != null && e.getKey().get(3) == null) {
                members.computeIfAbsent((TopologySpread) e.getKey().get(2), k -> new ArrayList<>()).add(classes.size());
            }
            classes.add(new ExactPlacement.PodClass((Resources) e.getKey().get(0), e.getValue(), allowed));
        }
        List<ExactPlacement.ZoneRow> rows = new ArrayList<>();
        for (var e : members.entrySet()) {
            int n = e.getValue().stream().mapToInt(c -> classes.get(c).count()).sum();
            int z = zoneNames.size();
            int least = Math.max(0, -Math.floorDiv(-(n - (z - 1) * e.getKey().maxSkew()), z));
            int[] in = e.getValue().stream().mapToInt(Integer::intValue).toArray();
            if (least > 0) {
                zoneNames.forEach(zone -> rows.add(new ExactPlacement.ZoneRow(in, zone, least)));
            }
        }
        if (trace != null && !rows.isEmpty()) {
            trace.printf("%d zone rows over %s: %s%n", rows.size(), zoneNames, rows.stream().map(r -> r.zone() + " >= " + r.count()).toList());
        }
        return ExactPlacement.solve(classes, columns, rows, trace);
    }

    /** The pod's zonal topology spread that must be met, if it has one (the first). */
    private static TopologySpread zonal(Pod p) {
        return p.topologySpread().stream().filter(s -> s.doNotSchedule() && WellKnownLabels.ZONE.equals(s.topologyKey())).findFirst().orElse(null);
    }

    private static double geomean(List<Row> rows, java.util.function.ToDoubleFunction<Row> f) {
        return Math.exp(rows.stream().mapToDouble(r -> Math.log(f.applyAsDouble(r))).average().orElse(0));
    }

    private static String option(String[] args, String prefix, String otherwise) {
        return Arrays.stream(args).filter(a -> a.startsWith(prefix)).map(a -> a.substring(prefix.length())).findFirst().orElse(otherwise);
    }
}
