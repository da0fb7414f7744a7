package dev.gantry.cli.bench;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
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
 * types its first node-affinity term admits. Pods with topology spread or pod affinity keep them in Gantry's plan but not
 * in the optimum ("constr" counts them), so there the optimum is a relaxation's. Run with
 * {@code java -Xmx512m -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.ExactGapBenchmark [--case=name-or-part] [--samples=5] [--workload=10000] [--fleet] [sizes...]};
 * a size of at least the workload solves the whole workload once, {@code --fleet} prints both placements' nodes by type,
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
                    Row r = measure(c, sample(all, k, seed), trace);
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

    private static Row measure(SchedulingBenchmark.Case c, List<Pod> pods, java.io.PrintStream trace) {
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
        ExactPlacement.Result found = exact(input, trace);
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
     */
    static ExactPlacement.Result exact(SchedulingInput input) {
        return exact(input, null);
    }

    /** As above; with {@code trace} non-null, the lower bound's generation is printed there. */
    static ExactPlacement.Result exact(SchedulingInput input, java.io.PrintStream trace) {
        SchedulingInput.PoolOffer offer = input.pools().get(0);
        Requirements reqs = offer.requirements();
        List<InstanceType> types = new ArrayList<>();
        List<ExactPlacement.Column> columns = new ArrayList<>();
        for (InstanceType t : offer.instanceTypes()) {
            Offering o = reqs.compatible(t.requirements()) ? t.cheapestOffering(reqs) : null;
            if (o != null) {
                types.add(t);
                columns.add(new ExactPlacement.Column(t.name(), SchedulingBenchmark.room(input, t), o.pricePerHour()));
            }
        }
        Map<List<Object>, Integer> counts = new LinkedHashMap<>();
        for (Pod p : input.pending()) {
            counts.merge(List.of(p.requests(), p.nodeRequirementTerms().get(0)), 1, Integer::sum);
        }
        List<ExactPlacement.PodClass> classes = new ArrayList<>();
        for (var e : counts.entrySet()) {
            Requirements term = reqs.intersect((Requirements) e.getKey().get(1));
            boolean[] allowed = new boolean[types.size()];
            for (int j = 0; j < types.size(); j++) {
                InstanceType t = types.get(j);
                Offering o = term.compatible(t.requirements()) ? t.cheapestOffering(term) : null;
                if (o != null && o.pricePerHour() != columns.get(j).price()) {
                    throw new IllegalStateException("a pod's requirements change the price of " + t.name() + ": not modelled");
                }
                allowed[j] = o != null;
            }
            classes.add(new ExactPlacement.PodClass((Resources) e.getKey().get(0), e.getValue(), allowed));
        }
        return ExactPlacement.solve(classes, columns, trace);
    }

    private static double geomean(List<Row> rows, java.util.function.ToDoubleFunction<Row> f) {
        return Math.exp(rows.stream().mapToDouble(r -> Math.log(f.applyAsDouble(r))).average().orElse(0));
    }

    private static String option(String[] args, String prefix, String otherwise) {
        return Arrays.stream(args).filter(a -> a.startsWith(prefix)).map(a -> a.substring(prefix.length())).findFirst().orElse(otherwise);
    }
}
