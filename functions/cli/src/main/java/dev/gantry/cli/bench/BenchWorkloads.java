package dev.gantry.cli.bench;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Benchmark inputs: Karpenter's published scheduling benchmark, rebuilt, and a mixed workload for the real catalogue. */
final class BenchWorkloads {
    private static final long MI = 1L << 20;
    private static final long GI = 1L << 30;
    private static final long[] CPU = {100, 250, 500, 1000, 1500};
    private static final long[] MEM = {100, 256, 512, 1024, 2048, 4096};
    private static final String[] LABEL_VALUES = {"a", "b", "c", "d", "e", "f", "g"};

    private BenchWorkloads() {
    }

    /**
     * Karpenter's fake types: type i has i+1 vCPU, 2(i+1) GiB and 10(i+1) pods, offered on-demand in three zones and
     * spot in two, every offering at 0.1 per vCPU plus 0.1 per GiB.
     */
    static List<InstanceType> syntheticTypes(int count) {
        List<InstanceType> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int cpu = i + 1;
            int memGi = 2 * (i + 1);
            double price = 0.1 * cpu + 0.1 * memGi;
            List<Offering> offerings = List.of(
                    Offering.of("test-zone-1", "spot", price), Offering.of("test-zone-2", "spot", price),
                    Offering.of("test-zone-1", "on-demand", price), Offering.of("test-zone-2", "on-demand", price),
                    Offering.of("test-zone-3", "on-demand", price));
            out.add(new InstanceType("fake-it-" + i, Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                    new Resources(cpu * 1000L, memGi * GI, 100 * GI, 10L * (i + 1), Map.of()), Resources.ZERO, offerings));
        }
        return out;
    }

    /** One fifth each: generic, zonal spread, hostname spread, zonal self-affinity, hostname self-anti-affinity. */
    static List<Pod> diversePods(int count, long seed) {
        Random r = new Random(seed);
        List<Pod> pods = new ArrayList<>(count);
        int fifth = count / 5;
        for (int i = 0; i < count; i++) {
            int kind = fifth == 0 ? 0 : Math.min(i / fifth, 4);
            Pod.Builder b = Pod.builder("default", "pod-" + i).requests(randomRequests(r));
            switch (kind) {
                case 1 -> spread(b, r, WellKnownLabels.ZONE);
                case 2 -> spread(b, r, WellKnownLabels.HOSTNAME);
                case 3 -> {
                    Map<String, String> l = Map.of("my-affinity", pick(r));
                    b.labels(l).podAffinity(List.of(PodAffinityTerm.required(LabelSelector.of(l), WellKnownLabels.ZONE)));
                }
                case 4 -> {
                    Map<String, String> l = Map.of("app", "nginx");
                    b.labels(l).podAntiAffinity(List.of(PodAffinityTerm.required(LabelSelector.of(l), WellKnownLabels.HOSTNAME)));
                }
                default -> b.labels(Map.of("my-label", pick(r)));
            }
            pods.add(b.build());
        }
        return pods;
    }

    /** Generic pods only: the case the LP bound is tight for. */
    static List<Pod> genericPods(int count, long seed) {
        Random r = new Random(seed);
        List<Pod> pods = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pods.add(Pod.builder("default", "pod-" + i).labels(Map.of("my-label", pick(r))).requests(randomRequests(r)).build());
        }
        return pods;
    }

    private static void spread(Pod.Builder b, Random r, String key) {
        Map<String, String> l = Map.of("my-label", pick(r));
        b.labels(l).topologySpread(List.of(TopologySpread.of(1, key, true, LabelSelector.of(l))));
    }

    private static Resources randomRequests(Random r) {
        return Resources.of(CPU[r.nextInt(CPU.length)], MEM[r.nextInt(MEM.length)] * MI);
    }

    private static String pick(Random r) {
        return LABEL_VALUES[r.nextInt(LABEL_VALUES.length)];
    }

    /**
     * A mixed workload for the real catalogue: web tiers of different shapes (CPU-heavy, memory-heavy, balanced),
     * an arm64-only slice, zonal spread on some, and a small GPU slice.
     */
    static List<Pod> mixedRealPods(int count, long seed) {
        Random r = new Random(seed);
        List<Pod> pods = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int k = r.nextInt(100);
            Pod.Builder b = Pod.builder("default", "mixed-" + i);
            if (k < 30) {
                b.requests(Resources.of(1000 + 500L * r.nextInt(4), (512 + 256L * r.nextInt(4)) * MI)).labels(Map.of("tier", "cpu"));
            } else if (k < 55) {
                b.requests(Resources.of(250 + 250L * r.nextInt(3), (4096 + 2048L * r.nextInt(4)) * MI)).labels(Map.of("tier", "mem"));
            } else if (k < 80) {
                Map<String, String> l = Map.of("tier", "web");
                b.requests(Resources.of(500 + 250L * r.nextInt(4), (1024 + 512L * r.nextInt(4)) * MI)).labels(l)
                        .topologySpread(List.of(TopologySpread.of(1, WellKnownLabels.ZONE, true, LabelSelector.of(l))));
            } else if (k < 97) {
                b.requests(Resources.of(500 + 500L * r.nextInt(3), (1024 + 1024L * r.nextInt(3)) * MI)).labels(Map.of("tier", "arm"))
                        .requiredNodeAffinity(List.of(Requirements.NONE.with(WellKnownLabels.ARCH, ValueSet.in("arm64"))));
            } else {
                b.requests(Resources.of(4000, 16 * GI).with(Resources.NVIDIA_GPU, 1)).labels(Map.of("tier", "gpu"))
                        .tolerations(List.of(dev.gantry.core.model.Toleration.exists("nvidia.com/gpu")));
            }
            pods.add(b.build());
        }
        return pods;
    }

    /**
     * What EKS runs on every node, as DaemonSets: the VPC CNI and kube-proxy (on every node), a log agent that tolerates
     * every taint, and an arm64-only monitoring agent, so the overhead differs between architectures.
     */
    static List<DaemonSet> daemonSets() {
        Pod cni = Pod.builder("kube-system", "aws-node").requests(Resources.of(25, 64 * MI)).build();
        Pod proxy = Pod.builder("kube-system", "kube-proxy").requests(Resources.of(100, 128 * MI)).build();
        Pod logs = Pod.builder("logging", "fluent-bit").requests(Resources.of(200, 256 * MI))
                .tolerations(List.of(dev.gantry.core.model.Toleration.exists(null))).build();
        Pod arm = Pod.builder("monitoring", "node-exporter-arm").requests(Resources.of(100, 180 * MI))
                .requiredNodeAffinity(List.of(Requirements.NONE.with(WellKnownLabels.ARCH, ValueSet.in("arm64")))).build();
        return List.of(new DaemonSet("kube-system", "aws-node", cni), new DaemonSet("kube-system", "kube-proxy", proxy),
                new DaemonSet("logging", "fluent-bit", logs), new DaemonSet("monitoring", "node-exporter-arm", arm));
    }

    /**
     * A GPU mix: generic pods, with one in ten an inference pod asking for one NVIDIA GPU (4 vCPU, 16 GiB) and
     * tolerating the GPU taint, and one in twenty a larger training pod (two GPUs, 16 vCPU, 64 GiB).
     */
    static List<Pod> gpuMix(int count, long seed) {
        Random r = new Random(seed);
        List<Pod> pods = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Pod.Builder b = Pod.builder("default", "gpu-mix-" + i);
            if (i % 10 == 9 || i % 20 == 4) {
                boolean training = i % 20 == 4;
                b.requests(training ? Resources.of(16000, 64 * GI).with(Resources.NVIDIA_GPU, 2) : Resources.of(4000, 16 * GI).with(Resources.NVIDIA_GPU, 1))
                        .labels(Map.of("tier", training ? "training" : "inference"))
                        .tolerations(List.of(dev.gantry.core.model.Toleration.exists("nvidia.com/gpu")));
            } else {
                b.requests(randomRequests(r)).labels(Map.of("my-label", pick(r)));
            }
            pods.add(b.build());
        }
        return pods;
    }

    /** The constrained pods' Deployment-like label, which each of their constraints selects. */
    private static final Map<String, String> CONSTRAINED = Map.of("app", "constrained");
    private static final long[][] SHAPES = {{100, 128}, {250, 512}, {500, 1024}, {1000, 4096}, {2000, 8192}};

    /** How the {@code constrained} pods of {@link #mixedPlus} are constrained, each by a rule on their own label. */
    enum Constraint {
        /** Required podAntiAffinity on hostname. */
        HOSTNAME_ANTI_AFFINITY,
        /** Topology spread on zone, maxSkew 1, DoNotSchedule. */
        ZONE_SPREAD,
        /** Topology spread on hostname, maxSkew 1, DoNotSchedule. */
        HOSTNAME_SPREAD
    }

    /**
     * A new user's plan: {@code mixed} plain pods of five shapes (100m/128Mi to 2 vCPU/8Gi, in turn) plus
     * {@code constrained} replicas of one Deployment (500m/512Mi) carrying {@code constraint} on their own label.
     */
    static List<Pod> mixedPlus(int mixed, int constrained, Constraint constraint) {
        List<Pod> pods = new ArrayList<>(mixed + constrained);
        for (int i = 0; i < mixed; i++) {
            long[] s = SHAPES[i % SHAPES.length];
            pods.add(Pod.builder("default", "plain-" + i).labels(Map.of("app", "plain-" + (i % SHAPES.length)))
                    .requests(Resources.of(s[0], s[1] * MI)).build());
        }
        for (int i = 0; i < constrained; i++) {
            Pod.Builder b = Pod.builder("default", "constrained-" + i).labels(CONSTRAINED).requests(Resources.of(500, 512 * MI));
            switch (constraint) {
                case HOSTNAME_ANTI_AFFINITY -> b.podAntiAffinity(List.of(PodAffinityTerm.required(LabelSelector.of(CONSTRAINED), WellKnownLabels.HOSTNAME)));
                case ZONE_SPREAD -> b.topologySpread(List.of(TopologySpread.of(1, WellKnownLabels.ZONE, true, LabelSelector.of(CONSTRAINED))));
                case HOSTNAME_SPREAD -> b.topologySpread(List.of(TopologySpread.of(1, WellKnownLabels.HOSTNAME, true, LabelSelector.of(CONSTRAINED))));
            }
            pods.add(b.build());
        }
        return pods;
    }
}
