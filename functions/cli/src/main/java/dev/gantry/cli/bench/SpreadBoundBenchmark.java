package dev.gantry.cli.bench;

import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How loose the LP bound is for pods with a zonal topology spread, and how much of a gap is packing. The spread tier
 * of a workload (its pods with a topology spread on the zone) is solved alone; the spread decides how many pods each
 * zone gets, and then each zone's pods are a bag of their own, on that zone's prices. Printed:
 * <ul>
 *   <li>the tier as the scheduler bounds it (one LP over all its pods, each type at its cheapest zone's price), and
 *       the optimum of the tier with the spread dropped ({@link ExactGapBenchmark#exact}: a bracket);</li>
 *   <li>per zone of Gantry's plan: its pods, what Gantry pays there, the zone's LP (the same bound, the pool pinned
 *       to the zone) and the zone's optimum bracket;</li>
 *   <li>the spread-aware bound: the zones' LPs and optimum brackets summed, for Gantry's split of the pods among the
 *       zones and for an interleaved one (every z-th pod to each zone: the same counts, other shapes), to show that
 *       which shapes go to which zone hardly matters.</li>
 * </ul>
 * Run with {@code java -Xmx1g -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.SpreadBoundBenchmark
 * [--case="real mixed"] [--workload=10000]}. The exact brackets take seconds to a minute each.
 */
public final class SpreadBoundBenchmark {
    private SpreadBoundBenchmark() {
    }

    public static void main(String[] args) {
        String name = option(args, "--case=", "real mixed");
        int workload = Integer.parseInt(option(args, "--workload=", "10000"));
        SchedulingBenchmark.Case c = SchedulingBenchmark.cases().get(name);
        System.out.printf("load average %.2f at start%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        List<Pod> tier = c.pods().apply(workload).stream()
                .filter(p -> p.topologySpread().stream().anyMatch(s -> WellKnownLabels.normalize(s.topologyKey()).equals(WellKnownLabels.ZONE))).toList();
        SchedulingResult plan = Scheduler.solve(input(c, tier, c.pool()));
        List<Pod> free = tier.stream().map(p -> p.toBuilder().topologySpread(List.of()).build()).toList();
        var whole = ExactGapBenchmark.exact(input(c, free, c.pool()));
        System.out.printf("%s, zone-spread tier: %d pods; Gantry %.3f, LP %.3f (Gantry ÷ LP %.3f); without the spread: optimum in [%.3f, %.3f]%n",
                name, tier.size(), plan.totalPricePerHour(), plan.lowerBoundPerHour(), plan.totalPricePerHour() / plan.lowerBoundPerHour(),
                whole.lower(), whole.upper());
        Map<String, List<Pod>> byZone = new TreeMap<>();
        Map<String, Double> paid = new TreeMap<>();
        Map<String, Map<String, Integer>> fleet = new TreeMap<>();
        for (SchedulingResult.NodeClaimPlan claim : plan.newClaims()) {
            String zone = claim.offering().zone();
            byZone.computeIfAbsent(zone, k -> new ArrayList<>()).addAll(claim.pods());
            paid.merge(zone, claim.pricePerHour(), Double::sum);
            fleet.computeIfAbsent(zone, k -> new TreeMap<>()).merge(claim.instanceType().name(), 1, Integer::sum);
        }
        double[] own = new double[3];
        double[] interleaved = new double[3];
        int z = 0;
        for (var e : byZone.entrySet()) {
            NodePool pinned = SchedulingBenchmark.pool(List.of(Requirement.of(WellKnownLabels.ZONE, Operator.In, e.getKey())));
            double[] b = zoneBound(c, e.getValue().stream().map(p -> p.toBuilder().topologySpread(List.of()).build()).toList(), pinned);
            List<Pod> every = new ArrayList<>();
            for (int i = z++; i < free.size(); i += byZone.size()) {
                every.add(free.get(i));
            }
            double[] other = zoneBound(c, every, pinned);
            for (int i = 0; i < 3; i++) {
                own[i] += b[i];
                interleaved[i] += other[i];
            }
            System.out.printf("  %s: %d pods, Gantry %.3f, LP %.3f, optimum in [%.3f, %.3f]; Gantry ÷ optimum %.3f–%.3f; Gantry's nodes %s%n", e.getKey(),
                    e.getValue().size(), paid.get(e.getKey()), b[0], b[1], b[2], paid.get(e.getKey()) / b[2], paid.get(e.getKey()) / b[1],
                    fleet.get(e.getKey()));
        }
        double lp = plan.lowerBoundPerHour();
        System.out.printf("spread-aware bound (Gantry's split): LP %.3f (%.3f × the tier's LP), optimum in [%.3f, %.3f] (%.3f–%.3f × the tier's LP)%n",
                own[0], own[0] / lp, own[1], own[2], own[1] / lp, own[2] / lp);
        System.out.printf("spread-aware bound (interleaved split): LP %.3f, optimum in [%.3f, %.3f]%n", interleaved[0], interleaved[1], interleaved[2]);
        System.out.printf("Gantry %.3f = %.3f × the spread-aware optimum's upper end, %.3f × its lower end%n", plan.totalPricePerHour(),
                plan.totalPricePerHour() / own[2], plan.totalPricePerHour() / own[1]);
        System.out.printf("load average %.2f at end%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** A zone's bag on the pool pinned to it: the scheduler's LP bound and the optimum's bracket. */
    private static double[] zoneBound(SchedulingBenchmark.Case c, List<Pod> pods, NodePool pinned) {
        SchedulingInput in = input(c, pods, pinned);
        var exact = ExactGapBenchmark.exact(in);
        return new double[]{Scheduler.solve(in).lowerBoundPerHour(), exact.lower(), exact.upper()};
    }

    private static SchedulingInput input(SchedulingBenchmark.Case c, List<Pod> pods, NodePool pool) {
        return new SchedulingInput(pods, List.of(), List.of(), c.daemons(), List.of(new SchedulingInput.PoolOffer(pool, c.types())), Map.of());
    }

    private static String option(String[] args, String prefix, String otherwise) {
        return Arrays.stream(args).filter(a -> a.startsWith(prefix)).map(a -> a.substring(prefix.length())).findFirst().orElse(otherwise);
    }
}
