package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Scheduling test fixtures: defaults plus overrides, in the spirit of Karpenter's test helpers. */
final class Fixtures {
    static final List<String> ZONES = List.of("test-zone-1a", "test-zone-1b", "test-zone-1c");
    static final long GI = 1L << 30;
    static final long MI = 1L << 20;

    private Fixtures() {
    }

    /** A type with round numbers and no overhead: cpu in cores, memory in GiB; on-demand at {@code price}, spot at 30% of it. */
    static InstanceType type(String name, int cpu, int memGi, double price) {
        return type(name, cpu, memGi, price, "amd64", Map.of());
    }

    static InstanceType type(String name, int cpu, int memGi, double price, String arch, Map<String, Long> extended) {
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.ARCH, arch);
        labels.put(WellKnownLabels.OS, "linux");
        String family = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
        labels.put(WellKnownLabels.INSTANCE_FAMILY, family);
        labels.put(WellKnownLabels.INSTANCE_CATEGORY, family.replaceAll("[0-9].*", ""));
        labels.put(WellKnownLabels.INSTANCE_CPU, Integer.toString(cpu));
        labels.put(WellKnownLabels.INSTANCE_MEMORY, Long.toString(memGi * 1024L));
        if (extended.containsKey(Resources.NVIDIA_GPU)) {
            labels.put(WellKnownLabels.INSTANCE_GPU_COUNT, Long.toString(extended.get(Resources.NVIDIA_GPU)));
        }
        Resources capacity = new Resources(cpu * 1000L, memGi * GI, 100 * GI, 110, extended);
        List<Offering> offerings = new ArrayList<>();
        for (String z : ZONES) {
            offerings.add(Offering.of(z, "on-demand", price));
            offerings.add(Offering.of(z, "spot", price * 0.3));
        }
        return new InstanceType(name, labels, capacity, Resources.ZERO, offerings);
    }

    /** A small catalogue: general purpose, compute and memory optimised, arm64, and a GPU type. */
    static List<InstanceType> catalogue() {
        return List.of(
                type("m5.large", 2, 8, 0.096), type("m5.xlarge", 4, 16, 0.192), type("m5.2xlarge", 8, 32, 0.384),
                type("m5.4xlarge", 16, 64, 0.768), type("c5.large", 2, 4, 0.085), type("c5.xlarge", 4, 8, 0.17),
                type("c5.2xlarge", 8, 16, 0.34), type("r5.large", 2, 16, 0.126), type("r5.xlarge", 4, 32, 0.252),
                type("m6g.large", 2, 8, 0.077, "arm64", Map.of()), type("m6g.xlarge", 4, 16, 0.154, "arm64", Map.of()),
                type("p3.2xlarge", 8, 61, 3.06, "amd64", Map.of(Resources.NVIDIA_GPU, 1L)),
                type("p3.8xlarge", 32, 244, 12.24, "amd64", Map.of(Resources.NVIDIA_GPU, 4L)));
    }

    static PoolBuilder pool(String name) {
        return new PoolBuilder(name);
    }

    static final class PoolBuilder {
        private final String name;
        private final List<Requirement> reqs = new ArrayList<>();
        private final List<Taint> taints = new ArrayList<>();
        private final List<Taint> startupTaints = new ArrayList<>();
        private final Map<String, String> labels = new HashMap<>();
        private final Map<String, Quantity> limits = new HashMap<>();
        private Integer weight;

        PoolBuilder(String name) {
            this.name = name;
        }

        PoolBuilder req(String key, Operator op, String... values) {
            reqs.add(Requirement.of(key, op, values));
            return this;
        }

        PoolBuilder minValues(String key, int min, String... values) {
            reqs.add(new Requirement(key, Operator.In, List.of(values), min));
            return this;
        }

        PoolBuilder taint(String key, String value, Taint.Effect effect) {
            taints.add(new Taint(key, value, effect));
            return this;
        }

        PoolBuilder startupTaint(String key, Taint.Effect effect) {
            startupTaints.add(new Taint(key, "", effect));
            return this;
        }

        PoolBuilder label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        PoolBuilder limit(String resource, String quantity) {
            limits.put(resource, Quantity.parse(quantity));
            return this;
        }

        PoolBuilder weight(int w) {
            weight = w;
            return this;
        }

        NodePool build() {
            NodePool.Template t = new NodePool.Template(labels, Map.of(), taints, startupTaints, reqs,
                    new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
            return new NodePool(name, Map.of(), t, null, limits, weight, null);
        }

        SchedulingInput.PoolOffer offer() {
            return new SchedulingInput.PoolOffer(build(), catalogue());
        }

        SchedulingInput.PoolOffer offer(List<InstanceType> types) {
            return new SchedulingInput.PoolOffer(build(), types);
        }
    }

    static Pod.Builder pod(String name) {
        return Pod.builder("default", name).requests(Resources.of(1000, GI));
    }

    static Pod.Builder pod(String name, long cpuMillis, long memMi) {
        return Pod.builder("default", name).requests(Resources.of(cpuMillis, memMi * MI));
    }

    static List<Pod> pods(String prefix, int n, long cpuMillis, long memMi, Map<String, String> labels) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(pod(prefix + "-" + i, cpuMillis, memMi).labels(labels).build());
        }
        return out;
    }

    static Requirements reqs(String key, Operator op, String... values) {
        return Requirements.of(Requirement.of(key, op, values));
    }

    static LabelSelector selector(String key, String value) {
        return LabelSelector.of(Map.of(key, value));
    }

    static Node node(String name, String zone, int cpu, int memGi, Map<String, String> extraLabels, List<Taint> taints) {
        Map<String, String> labels = new HashMap<>(extraLabels);
        labels.put(WellKnownLabels.ZONE, zone);
        labels.put(WellKnownLabels.HOSTNAME, name);
        labels.putIfAbsent(WellKnownLabels.ARCH, "amd64");
        labels.putIfAbsent(WellKnownLabels.CAPACITY_TYPE, "on-demand");
        return new Node(name, "aws:///" + zone + "/i-" + name, labels, Map.of(), taints,
                new Resources(cpu * 1000L, memGi * GI, 100 * GI, 110, Map.of()), true, false, false, Instant.EPOCH);
    }

    static DaemonSet daemonSet(String name, long cpuMillis, long memMi) {
        return new DaemonSet("kube-system", name, Pod.builder("kube-system", name).requests(Resources.of(cpuMillis, memMi * MI))
                .owner("DaemonSet", name).build());
    }

    /** An input with the given pods and pools and nothing else. */
    static SchedulingInput input(List<Pod> pods, SchedulingInput.PoolOffer... pools) {
        return new SchedulingInput(pods, List.of(), List.of(), List.of(), List.of(pools), Map.of());
    }

    static SchedulingInput input(List<Pod> pods, List<SchedulingInput.ExistingNode> nodes, List<DaemonSet> daemonSets,
                                 SchedulingInput.PoolOffer... pools) {
        return new SchedulingInput(pods, nodes, List.of(), daemonSets, List.of(pools), Map.of());
    }
}
