package dev.gantry.cli.bench;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.LowerBound;
import dev.gantry.core.scheduling.PackingBound;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prints consolidation speed and result on fragmented clusters (a diurnal peak placed by the scheduler, then 60% of
 * each Deployment's pods deleted), for Gantry and for the Karpenter reference on the same input. Each decision yields
 * one command; the command is applied (simulated) and the next decision made until none comes, so "after" is where
 * consolidation settles; "1st ms" is the warm median of 5 first decisions, "ms/cmd" the mean over every decision
 * (the last, which finds nothing, included), "max ms" the slowest. Run with {@code java -Xmx1g -cp functions/cli/target/gantry.jar
 * dev.gantry.cli.bench.ConsolidationBenchmark [nodes...]}.
 */
public final class ConsolidationBenchmark {
    private ConsolidationBenchmark() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray() : new int[]{100, 1000, 2000};
        NodePool pool = pool();
        List<InstanceType> types = BuiltInCatalog.load("us-east-1", BuiltInCatalog.defaultZones("us-east-1"))
                .instanceTypes(SchedulingBenchmark.defaultNodeClass()).stream().filter(t -> pool.requirements().compatible(t.requirements())).toList();
        System.out.printf("%-9s %6s %6s %9s | %-9s %8s %6s %9s %6s %6s %5s %9s %9s %8s %8s %6s%n", "case", "nodes", "pods", "$/h",
                "engine", "1st ms", "nodes", "$/h", "÷LP", "÷pack", "cmds", "total ms", "ms/cmd", "max ms", "moved", "saved");
        for (int n : sizes) {
            List<ClusterNode> start = FragmentedClusters.fragmented(pool, types, n * 50, 0.6, 42);
            double before = FragmentedClusters.price(start, types);
            Resources demand = Resources.ZERO;
            Map<Resources, Integer> shapes = new java.util.HashMap<>();
            for (ClusterNode c : start) {
                for (Pod p : c.pods()) {
                    demand = demand.plus(p.requests());
                    shapes.merge(p.requests(), 1, Integer::sum);
                }
            }
            double bound = LowerBound.of(demand, types, pool.requirements(), t -> Resources.ZERO);
            // The same pods as whole pods on whole nodes (the benchmark's clusters run no DaemonSets).
            double packing = PackingBound.of(shapes, types.stream().map(t -> new PackingBound.Column(t.allocatable(),
                    t.cheapestOffering(pool.requirements()).pricePerHour())).toList());
            String name = "frag-" + n;
            System.out.printf("%-9s %6d %6d %9.3f | bound $/h %.3f (LP), %.3f (packing)%n", name, start.size(), FragmentedClusters.pods(start),
                    before, bound, packing);
            for (ConsolidationSettings.Strategy s : ConsolidationSettings.Strategy.values()) {
                run(name, start, before, bound, packing, pool, types, new ConsolidationSettings(false, s));
            }
        }
        Runtime rt = Runtime.getRuntime();
        System.out.printf("heap max %d MB, used %d MB%n", rt.maxMemory() >> 20, (rt.totalMemory() - rt.freeMemory()) >> 20);
    }

    private static void run(String name, List<ClusterNode> start, double before, double bound, double packing, NodePool pool,
                            List<InstanceType> types, ConsolidationSettings settings) {
        var firstInput = FragmentedClusters.input(start, pool, types, settings);
        Consolidation.decide(firstInput); // warm-up
        Consolidation.decide(firstInput);
        double[] ms = new double[5];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            Consolidation.decide(firstInput);
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        List<ClusterNode> nodes = start;
        double total = 0;
        double worst = 0;
        int commands = 0;
        int moved = 0;
        for (int round = 0; round < 1000; round++) {
            long t0 = System.nanoTime();
            ConsolidationDecision d = Consolidation.decide(FragmentedClusters.input(nodes, pool, types, settings));
            double took = (System.nanoTime() - t0) / 1e6;
            total += took;
            worst = Math.max(worst, took);
            if (d.command().isEmpty()) {
                break;
            }
            ConsolidationCommand cmd = d.command().get();
            commands++;
            moved += cmd.podsMoved();
            nodes = FragmentedClusters.apply(nodes, cmd, round);
        }
        double after = FragmentedClusters.price(nodes, types);
        System.out.printf("%-9s %6s %6s %9s | %-9s %8.1f %6d %9.3f %6.3f %6.3f %5d %9.0f %9.1f %8.0f %8d %5.1f%%%n", name, "", "", "",
                settings.strategy().name().toLowerCase(), ms[ms.length / 2], nodes.size(), after, bound > 0 ? after / bound : 0,
                packing > 0 ? after / packing : 0,
                commands, total, total / (commands + 1), worst, moved, 100 * (1 - after / before));
    }

    /** Karpenter's default pool on-demand, on mid-size general, compute and memory types. */
    static NodePool pool() {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(
                Requirement.of(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand"),
                Requirement.of(WellKnownLabels.INSTANCE_CATEGORY, Operator.In, "c", "m", "r"),
                Requirement.of(WellKnownLabels.INSTANCE_SIZE, Operator.In, "large", "xlarge", "2xlarge", "4xlarge", "8xlarge")),
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
        return new NodePool("default", Map.of(), t, null, Map.of(), null, null);
    }
}
