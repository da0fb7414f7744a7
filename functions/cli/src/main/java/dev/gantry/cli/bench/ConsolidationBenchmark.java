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
 * consolidation settles; "1st ms" is the warm median of 5 ({@code --firsts}) first decisions, "ms/cmd" the mean over every decision
 * (the last, which finds nothing, included), "max ms" the slowest, "p50 ms" the median decision. Run with
 * {@code java -Xmx1g -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.ConsolidationBenchmark [nodes...]
 * [--rounds N] [--firsts N] [--engine gantry|karpenter] [--buffers N]}: -Xmx1g is the sweep's deployed memory ({@code DeploymentSettings}, 1024 MB);
 * {@code --rounds} stops after N decisions (at 5,000 nodes settling takes hundreds), {@code --engine} runs one strategy,
 * {@code --buffers} keeps N buffer chunks of 1 vCPU / 2 GiB warm (a CapacityBuffer's virtual pods, placed by every
 * decision: the cost of planning moves into their room as kube-scheduler makes them).
 * "max cpu ms" is the slowest decision's CPU time on its thread (the wall times stretch on a shared machine).
 * The heap line gives the heap pools' peak (garbage included, so an upper bound on what the run needed) and the load
 * average, since the machine the figures come from is shared.
 */
public final class ConsolidationBenchmark {
    private ConsolidationBenchmark() {
    }

    public static void main(String[] args) {
        List<Integer> given = new java.util.ArrayList<>();
        int rounds = 1000;
        int firsts = 5;
        int buffers = 0;
        List<ConsolidationSettings.Strategy> engines = List.of(ConsolidationSettings.Strategy.values());
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--firsts" -> firsts = Integer.parseInt(args[++i]);
                case "--buffers" -> buffers = Integer.parseInt(args[++i]);
                case "--engine" -> engines = List.of(ConsolidationSettings.Strategy.valueOf(args[++i].toUpperCase(java.util.Locale.ROOT)));
                default -> given.add(Integer.parseInt(args[i]));
            }
        }
        int[] sizes = given.isEmpty() ? new int[]{100, 1000, 2000} : given.stream().mapToInt(Integer::intValue).toArray();
        NodePool pool = pool();
        List<InstanceType> types = BuiltInCatalog.load("us-east-1", BuiltInCatalog.defaultZones("us-east-1"))
                .instanceTypes(SchedulingBenchmark.defaultNodeClass()).stream().filter(t -> pool.requirements().compatible(t.requirements())).toList();
        System.out.printf("%-9s %6s %6s %9s | %-9s %8s %6s %9s %6s %6s %5s %9s %9s %8s %8s %6s %8s %10s%n", "case", "nodes", "pods", "$/h",
                "engine", "1st ms", "nodes", "$/h", "÷LP", "÷pack", "cmds", "total ms", "ms/cmd", "max ms", "moved", "saved", "p50 ms", "max cpu ms");
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
            String name = "frag-" + n + (buffers > 0 ? "+b" + buffers : "");
            System.out.printf("%-9s %6d %6d %9.3f | bound $/h %.3f (LP), %.3f (packing)%n", name, start.size(), FragmentedClusters.pods(start),
                    before, bound, packing);
            for (ConsolidationSettings.Strategy s : engines) {
                run(name, start, before, bound, packing, pool, types, new ConsolidationSettings(false, s), rounds, firsts,
                        chunks(buffers));
            }
            System.gc();
            Runtime r = Runtime.getRuntime();
            System.out.printf("%-9s live heap after GC with the cluster held: %d MB (%d nodes)%n", name,
                    (r.totalMemory() - r.freeMemory()) >> 20, start.size());
        }
        Runtime rt = Runtime.getRuntime();
        long peak = java.lang.management.ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP).mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        System.out.printf("heap max %d MB, pools' peak %d MB (each pool's own peak, summed: an upper bound); load average %.2f%n",
                rt.maxMemory() >> 20, peak >> 20,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static void run(String name, List<ClusterNode> start, double before, double bound, double packing, NodePool pool,
                            List<InstanceType> types, ConsolidationSettings settings, int rounds, int firsts, List<Pod> chunks) {
        var firstInput = withBuffers(FragmentedClusters.input(start, pool, types, settings), chunks);
        Consolidation.decide(firstInput); // warm-up
        double[] ms = new double[firsts];
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
        List<Double> each = new java.util.ArrayList<>();
        double worstCpu = 0;
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int round = 0; round < rounds; round++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            ConsolidationDecision d = Consolidation.decide(withBuffers(FragmentedClusters.input(nodes, pool, types, settings), chunks));
            double took = (System.nanoTime() - t0) / 1e6;
            worstCpu = Math.max(worstCpu, (threads.getCurrentThreadCpuTime() - c0) / 1e6);
            total += took;
            each.add(took);
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
        System.out.printf("%-9s %6s %6s %9s | %-9s %8.1f %6d %9.3f %6.3f %6.3f %5d %9.0f %9.1f %8.0f %8d %5.1f%% %8.0f %10.0f%n", name, "", "", "",
                settings.strategy().name().toLowerCase(), ms[ms.length / 2], nodes.size(), after, bound > 0 ? after / bound : 0,
                packing > 0 ? after / packing : 0,
                commands, total, total / each.size(), worst, moved, 100 * (1 - after / before),
                each.stream().sorted().toList().get(each.size() / 2), worstCpu);
    }

    /** {@code n} chunks of a CapacityBuffer: virtual pods of 1 vCPU / 2 GiB, bound to no node. */
    private static List<Pod> chunks(int n) {
        List<Pod> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Pod.builder("default", "buffer-chunk-" + i).uid("buffer-" + i).owner("CapacityBuffer", "warm")
                    .requests(Resources.of(1000, 2L << 30)).build());
        }
        return out;
    }

    private static dev.gantry.core.disruption.consolidation.ConsolidationInput withBuffers(
            dev.gantry.core.disruption.consolidation.ConsolidationInput in, List<Pod> chunks) {
        return chunks.isEmpty() ? in : new dev.gantry.core.disruption.consolidation.ConsolidationInput(in.nodes(), in.pools(),
                in.daemonSets(), in.pdbs(), in.namespaceLabels(), in.settings(), in.now(), chunks, in.only(), in.inFlight(),
                in.launchPrices());
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
