package dev.gantry.cli.bench;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prints placement speed and cost for Karpenter's benchmark workload and for the real catalogue, for Gantry and for
 * the Karpenter greedy reference on the same input. Run with a 512 MB heap:
 * {@code java -Xmx512m -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.SchedulingBenchmark [sizes...]}.
 */
public final class SchedulingBenchmark {
    private SchedulingBenchmark() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray() : new int[]{1, 100, 1000, 5000, 10000, 20000};
        System.out.printf("%-34s %7s %9s %9s %6s %10s %8s %10s %9s %7s%n", "case", "pods", "pods/s", "solve ms",
                "nodes", "$/h", "÷LP", "greedy $/h", "greedy ms", "saving");
        List<InstanceType> synthetic = BenchWorkloads.syntheticTypes(400);
        for (int n : sizes) {
            run("karpenter-400types diverse", synthetic, BenchWorkloads.diversePods(n, 42));
        }
        for (int n : sizes) {
            run("karpenter-400types generic", synthetic, BenchWorkloads.genericPods(n, 42));
        }
        List<InstanceType> real = BuiltInCatalog.load("us-east-1", BuiltInCatalog.defaultZones("us-east-1")).instanceTypes(defaultNodeClass());
        for (int n : sizes) {
            run("real-catalogue mixed", real, BenchWorkloads.mixedRealPods(n, 42));
        }
        for (int n : sizes) {
            run("real-catalogue generic", real, BenchWorkloads.genericPods(n, 42));
        }
        Runtime rt = Runtime.getRuntime();
        System.out.printf("heap max %d MB, used %d MB%n", rt.maxMemory() >> 20, (rt.totalMemory() - rt.freeMemory()) >> 20);
    }

    private static void run(String name, List<InstanceType> types, List<Pod> pods) {
        SchedulingInput input = new SchedulingInput(pods, List.of(), List.of(), List.of(),
                List.of(new SchedulingInput.PoolOffer(pool(), types)), Map.of());
        int reps = pods.size() <= 1000 ? 7 : pods.size() <= 5000 ? 3 : 2;
        Timed ours = time(input, Scheduler.Strategy.GANTRY, reps);
        Timed greedy = time(input, Scheduler.Strategy.KARPENTER_GREEDY, reps);
        SchedulingResult r = ours.result;
        double bound = greedy.result.lowerBoundPerHour();
        System.out.printf("%-34s %7d %9.0f %9.1f %6d %10.3f %8.3f %10.3f %9.1f %6.1f%%%s%n", name, pods.size(),
                pods.size() / (ours.millis / 1000.0), ours.millis, r.newClaims().size(), r.totalPricePerHour(),
                bound > 0 ? r.totalPricePerHour() / bound : 0, greedy.result.totalPricePerHour(), greedy.millis,
                100 * (1 - r.totalPricePerHour() / Math.max(1e-9, greedy.result.totalPricePerHour())),
                r.unschedulable().isEmpty() ? "" : "  unschedulable " + r.unschedulable().size());
    }

    private record Timed(SchedulingResult result, double millis) {
    }

    /** The median of {@code reps} solves after one warm-up. */
    private static Timed time(SchedulingInput input, Scheduler.Strategy s, int reps) {
        SchedulingResult r = Scheduler.solve(input, s);
        double[] ms = new double[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            r = Scheduler.solve(input, s);
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return new Timed(r, ms[reps / 2]);
    }

    private static NodePool pool() {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
        return new NodePool("default", Map.of(), t, null, Map.of(), null, null);
    }

    static NodeClass defaultNodeClass() {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", null,
                List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")), List.of(), List.of(), "KarpenterNodeRole", null,
                null, Map.of(), List.of(), null, null, null, null, null);
    }

    static List<Pod> copy(List<Pod> pods) {
        return new ArrayList<>(pods);
    }
}
