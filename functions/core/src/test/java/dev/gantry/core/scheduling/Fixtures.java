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
        // As the real catalogue does, a type without GPUs is known not to carry the GPU labels.
        java.util.Set<String> undefined = extended.containsKey(Resources.NVIDIA_GPU) ? java.util.Set.of()
                : java.util.Set.of(WellKnownLabels.INSTANCE_GPU_COUNT, WellKnownLabels.INSTANCE_GPU_NAME, WellKnownLabels.INSTANCE_GPU_MANUFACTURER);
        return new InstanceType(name, labels, capacity, Resources.ZERO, offerings, undefined);
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

        PoolBuilder req(Requirement r) {
            reqs.add(r);
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

    /** The same input solved by a strategy. */
    static SchedulingResult solve(SchedulingInput in, Scheduler.Strategy strategy) {
        return Scheduler.solve(in, strategy);
    }

    /** A type with extended resources and explicit pod capacity, for pods-per-node and accelerator cases. */
    static InstanceType type(String name, int cpu, int memGi, double price, String arch, Map<String, Long> extended, int maxPods) {
        InstanceType t = type(name, cpu, memGi, price, arch, extended);
        Resources c = t.capacity();
        return new InstanceType(name, t.labels(), new Resources(c.cpuMillis(), c.memoryBytes(), c.ephemeralBytes(), maxPods, c.extended()),
                Resources.ZERO, t.offerings(), t.undefinedLabels());
    }

    /** An Inferentia type with one Neuron device, the only one in {@link #catalogueWithNeuron()} that offers it. */
    static InstanceType neuronType() {
        return type("inf2.xlarge", 4, 16, 0.758, "amd64", Map.of(Resources.NEURON, 1L));
    }

    static List<InstanceType> catalogueWithNeuron() {
        List<InstanceType> all = new ArrayList<>(catalogue());
        all.add(neuronType());
        return all;
    }

    /** {@code n} synthetic types {@code <family>.s<i>}, cpu i+1, priced by cpu, one family each: many options for truncation. */
    static List<InstanceType> manyTypes(int n, int families) {
        List<InstanceType> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(type("f" + (i % families) + ".s" + i, 2 + i, 8 + i, 0.05 + 0.01 * i));
        }
        return out;
    }

    static Pod.Builder pod(String name, long cpuMillis, long memMi, Map<String, String> labels) {
        return pod(name, cpuMillis, memMi).labels(labels);
    }

    static Node node(String name, String zone, int cpu, int memGi) {
        return node(name, zone, cpu, memGi, Map.of(), List.of());
    }

    static Node cordoned(Node n) {
        return new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(), n.ready(), true,
                n.deleting(), n.createdAt());
    }

    static Node deleting(Node n) {
        return new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(), n.ready(),
                n.unschedulable(), true, n.createdAt());
    }

    static SchedulingInput.ExistingNode existing(Node n, Pod... bound) {
        List<Pod> pods = new ArrayList<>();
        for (Pod p : bound) {
            pods.add(p.withNodeName(n.name()));
        }
        return new SchedulingInput.ExistingNode(n, pods);
    }

    /** An in-flight claim of a pool with the given zone and capacity; its labels are those of a launched node. */
    static SchedulingInput.InFlightClaim inFlight(String name, String pool, String zone, int cpu, int memGi, List<Taint> taints, Pod... pods) {
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.ZONE, zone);
        labels.put(WellKnownLabels.HOSTNAME, name);
        labels.put(WellKnownLabels.ARCH, "amd64");
        labels.put(WellKnownLabels.OS, "linux");
        labels.put(WellKnownLabels.CAPACITY_TYPE, "on-demand");
        labels.put(WellKnownLabels.NODEPOOL, pool);
        return new SchedulingInput.InFlightClaim(name, pool, labels, taints, new Resources(cpu * 1000L, memGi * GI, 100 * GI, 110, Map.of()),
                List.of(pods));
    }

    static DaemonSet daemonSet(String name, Pod template) {
        return new DaemonSet("kube-system", name, template);
    }

    static Scenario scenario() {
        return new Scenario();
    }

    /** A whole input, assembled piece by piece. */
    static final class Scenario {
        private final List<Pod> pods = new ArrayList<>();
        private final List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        private final List<SchedulingInput.InFlightClaim> inFlight = new ArrayList<>();
        private final List<DaemonSet> daemonSets = new ArrayList<>();
        private final List<SchedulingInput.PoolOffer> pools = new ArrayList<>();
        private final Map<String, Map<String, String>> namespaces = new HashMap<>();

        Scenario pods(Pod... p) {
            pods.addAll(List.of(p));
            return this;
        }

        Scenario pods(List<Pod> p) {
            pods.addAll(p);
            return this;
        }

        Scenario node(SchedulingInput.ExistingNode n) {
            nodes.add(n);
            return this;
        }

        Scenario inFlight(SchedulingInput.InFlightClaim c) {
            inFlight.add(c);
            return this;
        }

        Scenario daemonSet(DaemonSet d) {
            daemonSets.add(d);
            return this;
        }

        Scenario pool(SchedulingInput.PoolOffer p) {
            pools.add(p);
            return this;
        }

        Scenario pool(PoolBuilder p) {
            return pool(p.offer());
        }

        Scenario namespace(String name, Map<String, String> labels) {
            namespaces.put(name, labels);
            return this;
        }

        SchedulingInput input() {
            return new SchedulingInput(pods, nodes, inFlight, daemonSets, pools, namespaces);
        }

        SchedulingResult solve(Scheduler.Strategy strategy) {
            return Scheduler.solve(input(), strategy);
        }

        SchedulingResult solve() {
            return Scheduler.solve(input());
        }
    }
}
