package dev.gantry.handlers.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.handlers.ProvisionerPrimer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One fresh JVM of {@link SolvePrimingBenchmark}, on the provisioner's jar: optionally the provisioner's SnapStart
 * priming (no client reads), then the first and the second {@code Scheduler.solve} of a 1,000-pod batch unlike the
 * primer's own. Prints {@code BENCH SOLVE <primingNs> <primingCpuNs> <firstNs> <firstCpuNs> <secondNs> <secondCpuNs> <placed> <claims>}
 * (CPU: this thread's, which on a shared machine is steadier than the wall time).
 * Arguments: {@code <primed|unprimed> <pods>}.
 */
public final class SolveChild {
    /** A general pool: three families, both capacity types (all sizes of c, m and r in the catalogue). */
    static final String CONFIG = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata:
              name: general
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                    - key: karpenter.k8s.aws/instance-category
                      operator: In
                      values: ["c", "m", "r"]
                    - key: karpenter.sh/capacity-type
                      operator: In
                      values: ["spot", "on-demand"]
            ---
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata:
              name: default
            spec:
              role: KarpenterNodeRole
              amiSelectorTerms:
                - alias: al2023@latest
              subnetSelectorTerms:
                - tags: {karpenter.sh/discovery: test-cluster}
              securityGroupSelectorTerms:
                - tags: {karpenter.sh/discovery: test-cluster}
            """;
    static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");

    private SolveChild() {
    }

    public static void main(String[] args) {
        boolean primed = args[0].equals("primed");
        int pods = Integer.parseInt(args[1]);
        LoadResult loaded = ConfigLoader.loadString("GANTRY_CONFIG", CONFIG, LoadOptions.DEFAULT);
        if (!loaded.ok()) {
            throw new IllegalStateException("config: " + loaded.errors());
        }
        GantryConfig config = new GantryConfig(loaded.nodePools(), loaded.nodeClasses(), "us-east-1", ZONES);
        InstanceTypeProvider catalogue = BuiltInCatalog.load("us-east-1", ZONES);
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long priming = 0;
        long primingCpu = 0;
        if (primed) {
            long c = threads.getCurrentThreadCpuTime();
            long t = System.nanoTime();
            new ProvisionerPrimer(new HintCodec(new ObjectMapper()), config, catalogue, () -> { }, () -> { }).beforeCheckpoint();
            priming = System.nanoTime() - t;
            primingCpu = threads.getCurrentThreadCpuTime() - c;
        }
        SchedulingInput input = input(config, catalogue, pods);
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        SchedulingResult first = Scheduler.solve(input);
        long t1 = System.nanoTime();
        long c1 = threads.getCurrentThreadCpuTime();
        Scheduler.solve(input);
        long t2 = System.nanoTime();
        long c2 = threads.getCurrentThreadCpuTime();
        System.out.println("BENCH SOLVE " + priming + " " + primingCpu + " " + (t1 - t0) + " " + (c1 - c0) + " " + (t2 - t1) + " "
                + (c2 - c1) + " " + first.placedCount() + " " + first.newClaims().size());
    }

    /** Deployments of 25 pods with seeded sizes; one in five spread over zones. Not the primer's pods or shapes. */
    static SchedulingInput input(GantryConfig config, InstanceTypeProvider catalogue, int n) {
        Random random = new Random(20261201L);
        long[] cpus = {100, 250, 500, 750, 1000, 1500, 2000, 4000};
        long[] mems = {128, 256, 512, 1024, 1536, 2048, 4096, 8192};
        List<Pod> pods = new ArrayList<>(n);
        long cpu = 0;
        long mem = 0;
        boolean spread = false;
        for (int i = 0; i < n; i++) {
            String app = "app-" + i / 25;
            if (i % 25 == 0) {
                cpu = cpus[random.nextInt(cpus.length)];
                mem = mems[random.nextInt(mems.length)] << 20;
                spread = random.nextInt(5) == 0;
            }
            Pod.Builder b = Pod.builder("bench", app + "-" + i).uid("uid-" + i).labels(Map.of("app", app))
                    .requests(Resources.of(cpu, mem)).owner("ReplicaSet", app);
            if (spread) {
                b.topologySpread(List.of(TopologySpread.of(1, "topology.kubernetes.io/zone", true, LabelSelector.of(Map.of("app", app)))));
            }
            pods.add(b.build());
        }
        List<SchedulingInput.PoolOffer> offers = new ArrayList<>();
        for (NodePool pool : config.nodePools()) {
            List<InstanceType> types = config.nodeClassOf(pool).map(catalogue::instanceTypes).orElse(List.of());
            offers.add(new SchedulingInput.PoolOffer(pool, types));
        }
        return new SchedulingInput(pods, List.of(), List.of(), List.of(), offers, Map.of());
    }
}
