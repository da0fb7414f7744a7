package dev.gantry.cli.bench;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What leaving room for consolidatable nodes' pods costs the provisioner: on clusters of the consolidation benchmark's
 * workload, placed at its peak (full, every node a donor candidate), a batch of pending pods planned with {@link Scheduler#solve} and with
 * {@link Scheduler#solveForLaunch}; warm medians of 5, the plans' $/h, and the donors' $/h the second lets go. Run with
 * {@code java -Xmx1g -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.LaunchPlanBenchmark [nodes...]}.
 */
public final class LaunchPlanBenchmark {
    private LaunchPlanBenchmark() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray() : new int[]{100, 1000, 2000};
        NodePool pool = ConsolidationBenchmark.pool();
        List<InstanceType> types = BuiltInCatalog.load("us-east-1", BuiltInCatalog.defaultZones("us-east-1"))
                .instanceTypes(SchedulingBenchmark.defaultNodeClass()).stream().filter(t -> pool.requirements().compatible(t.requirements())).toList();
        System.out.println("nodes  pending  solve ms  solveForLaunch ms  solve $/h  forLaunch $/h  launches");
        for (int n : sizes) {
            List<ClusterNode> cluster = FragmentedClusters.fragmented(pool, types, n * 20, 0.0, 42);
            List<SchedulingInput.ExistingNode> nodes = cluster.stream().map(c -> new SchedulingInput.ExistingNode(c.node(), c.pods())).toList();
            for (int pending : new int[]{4, 20, 60}) {
                List<Pod> pods = new ArrayList<>();
                for (int i = 0; i < pending; i++) {
                    pods.add(Pod.builder("default", "burst-" + i).labels(Map.of("app", "burst")).owner("ReplicaSet", "burst")
                            .requests(Resources.of(500, 1L << 30)).build());
                }
                SchedulingInput in = new SchedulingInput(pods, nodes, List.of(), List.of(),
                        List.of(new SchedulingInput.PoolOffer(pool, types)), Map.of());
                double[] plain = time(() -> Scheduler.solve(in));
                double[] launch = time(() -> Scheduler.solveForLaunch(in));
                SchedulingResult a = Scheduler.solve(in);
                SchedulingResult b = Scheduler.solveForLaunch(in);
                System.out.printf("%5d  %7d  %8.1f  %17.1f  %9.3f  %13.3f  %s%n", cluster.size(), pending, plain[0], launch[0],
                        a.totalPricePerHour(), b.totalPricePerHour(), b.strategy());
            }
        }
    }

    private static double[] time(java.util.function.Supplier<SchedulingResult> run) {
        run.get();
        double[] ms = new double[5];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            run.get();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return new double[]{ms[2]};
    }
}
