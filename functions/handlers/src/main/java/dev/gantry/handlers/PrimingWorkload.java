package dev.gantry.handlers;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.scheduling.SchedulingInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The synthetic scheduling problem the provisioner's primer solves before a snapshot, so the snapshot holds the
 * scheduler's compiled code rather than its interpreter state: {@value #PODS} pending pods in six shapes (small,
 * medium, memory-heavy, zone-spread, spot-only and a few with hostname anti-affinity) over every configured NodePool with the
 * built-in catalogue's instance types. The same input every time (no clock, no randomness, no live prices); the
 * pods tolerate every taint, so each pool's code paths are taken. Two solves: see {@link #inputs}. Nothing here reads or writes the world.
 */
public final class PrimingWorkload {
    /** Enough pods that the scheduler's hot methods pass the JIT's compile thresholds several times over. */
    public static final int PODS = 250;
    /**
     * Solved apart from the others: measured on a shared 2-core machine under C1 with an unconstrained pool (1,382
     * catalogue types), 250 mixed pods took 1.0-1.4 s, the same with 10 hostname anti-affinity pods 3.0-4.5 s, and with
     * 50 of them 13-18 s, warm or not.
     */
    private static final int ANTI_AFFINITY_PODS = 10;
    private static final int SPREAD_PODS = 20;
    private static final long MIB = 1L << 20;

    private PrimingWorkload() {
    }

    /**
     * The problems for {@code config}'s pools, each pool offered its NodeClass's types from {@code catalogue}: the
     * mixed batch, then the anti-affinity pods on their own (solved with the others, each of them multiplies the
     * slots every later placement tries, which is the scheduler's cost and not what priming is for).
     */
    static List<SchedulingInput> inputs(GantryConfig config, InstanceTypeProvider catalogue) {
        List<SchedulingInput.PoolOffer> offers = new ArrayList<>();
        for (NodePool pool : config.nodePools()) {
            List<InstanceType> types = config.nodeClassOf(pool).map(catalogue::instanceTypes).orElse(List.of());
            offers.add(new SchedulingInput.PoolOffer(pool, types));
        }
        List<Pod> pods = pods();
        int split = PODS - ANTI_AFFINITY_PODS;
        return List.of(new SchedulingInput(pods.subList(0, split), List.of(), List.of(), List.of(), offers, Map.of()),
                new SchedulingInput(pods.subList(split, PODS), List.of(), List.of(), List.of(), offers, Map.of()));
    }

    static List<Pod> pods() {
        List<Pod> pods = new ArrayList<>(PODS);
        for (int i = 0; i < PODS; i++) {
            pods.add(pod(i));
        }
        return pods;
    }

    private static Pod pod(int i) {
        // One zone-spread deployment (the scheduler's costliest common shape) among four plain ones.
        int shape = i >= PODS - ANTI_AFFINITY_PODS ? 5 : i < SPREAD_PODS ? 3 : new int[] {0, 1, 2, 4}[i % 4];
        String app = switch (shape) {
            case 0 -> "small";
            case 1 -> "medium";
            case 2 -> "memory";
            case 3 -> "spread";
            case 4 -> "spot";
            default -> "anti";
        };
        Map<String, String> labels = Map.of("app", "prime-" + app);
        Pod.Builder b = Pod.builder("gantry-prime", "prime-" + app + "-" + i).uid("prime-uid-" + i).labels(labels)
                .tolerations(List.of(Toleration.exists(""))).owner("ReplicaSet", "prime-" + app);
        switch (shape) {
            case 0 -> b.requests(Resources.of(250, 256 * MIB));
            case 1 -> b.requests(Resources.of(1000, 2048 * MIB));
            case 2 -> b.requests(Resources.of(500, 4096 * MIB));
            case 3 -> b.requests(Resources.of(200, 512 * MIB))
                    .topologySpread(List.of(TopologySpread.of(1, "topology.kubernetes.io/zone", true, LabelSelector.of(labels))));
            case 4 -> b.requests(Resources.of(2000, 1024 * MIB)).nodeSelector(Map.of("karpenter.sh/capacity-type", "spot"));
            default -> b.requests(Resources.of(100, 128 * MIB))
                    .podAntiAffinity(List.of(PodAffinityTerm.required(LabelSelector.of(labels), "kubernetes.io/hostname")));
        }
        return b.build();
    }
}
