package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A two-zone world with a handful of instance types, one NodeClass, and pods kube-scheduler gave up on. */
final class ProvisioningFixtures {
    static final String ZONE_A = "test-1a";
    static final String ZONE_B = "test-1b";
    static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
    static final long GI = 1L << 30;

    private ProvisioningFixtures() {
    }

    /** cpu in cores, memory in GiB, no overhead; spot at 30% of on-demand in both zones. */
    static InstanceType type(String name, int cpu, int memGi, double price, String arch) {
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.ARCH, arch);
        labels.put(WellKnownLabels.OS, "linux");
        labels.put(WellKnownLabels.INSTANCE_FAMILY, name.substring(0, name.indexOf('.')));
        labels.put(WellKnownLabels.INSTANCE_CPU, Integer.toString(cpu));
        List<Offering> offerings = new ArrayList<>();
        for (String z : List.of(ZONE_A, ZONE_B)) {
            offerings.add(Offering.of(z, "on-demand", price));
            offerings.add(Offering.of(z, "spot", price * 0.3));
        }
        return new InstanceType(name, labels, new Resources(cpu * 1000L, memGi * GI, 100 * GI, 110, Map.of()),
                Resources.ZERO, offerings);
    }

    /** Spot is tried zone a first because zone a's spot price is a little lower. */
    static List<InstanceType> catalogue() {
        InstanceType small = type("t4g.small", 2, 2, 0.0168, "arm64");
        List<Offering> skewed = new ArrayList<>();
        for (Offering o : small.offerings()) {
            skewed.add(o.zone().equals(ZONE_A) && o.capacityType().equals("spot") ? Offering.of(ZONE_A, "spot", 0.0040) : o);
        }
        return List.of(small.withOfferings(skewed), type("t4g.medium", 2, 4, 0.0336, "arm64"),
                type("m5.large", 2, 8, 0.096, "amd64"), type("m5.xlarge", 4, 16, 0.192, "amd64"));
    }

    static InstanceTypeProvider provider() {
        List<InstanceType> types = catalogue();
        return nodeClass -> types;
    }

    static NodeClass nodeClass() {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", "AL2023", List.of(), List.of(), List.of(),
                "KarpenterNodeRole", null, null, Map.of(), List.of(), null, null, null, null, null);
    }

    /**
     * {@code pool} under a NodeClass ("narrow") that no longer lists the m5 types, beside a pool ("other", tainted, so
     * no test pod goes there) under the default NodeClass, which still does: the catalogue still knows and prices m5.
     */
    static GantryConfig withoutM5(NodePool pool) {
        NodeClass narrow = new NodeClass("narrow", "karpenter.k8s.aws", "EC2NodeClass", "AL2023", List.of(), List.of(),
                List.of(), "KarpenterNodeRole", null, null, Map.of(), List.of(), null, null, null, null, null);
        NodePool.Template t = pool.template();
        NodePool narrowed = new NodePool(pool.name(), pool.annotations(), new NodePool.Template(t.labels(), t.annotations(), t.taints(),
                t.startupTaints(), t.requirements(), new NodePool.NodeClassRef(null, null, "narrow"), t.expireAfter(),
                t.terminationGracePeriod()), pool.disruption(), pool.limits(), pool.weight(), pool.convertedFrom());
        NodePool other = new NodePool("other", Map.of(), new NodePool.Template(Map.of(), Map.of(),
                List.of(new dev.gantry.core.model.Taint("dedicated", "other", dev.gantry.core.model.Taint.Effect.NoSchedule)), List.of(),
                List.of(), new NodePool.NodeClassRef(null, null, "default"), t.expireAfter(), t.terminationGracePeriod()), null, Map.of(),
                null, null);
        return new GantryConfig(List.of(narrowed, other), List.of(nodeClass(), narrow), "test-1", List.of(ZONE_A, ZONE_B));
    }

    /** The catalogue per NodeClass for {@link #withoutM5}: the "narrow" one without the m5 types. */
    static InstanceTypeProvider providerWithoutM5() {
        List<InstanceType> all = catalogue();
        List<InstanceType> withoutM5 = all.stream().filter(x -> !x.name().startsWith("m5.")).toList();
        return nc -> nc.name().equals("narrow") ? withoutM5 : all;
    }

    static NodePool pool(String name, Integer weight, Requirement... reqs) {
        NodePool.Template t = new NodePool.Template(Map.of("team", "web"), Map.of(), List.of(), List.of(), List.of(reqs),
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
        return new NodePool(name, Map.of(), t, null, Map.of(), weight, null);
    }

    static GantryConfig config(NodePool... pools) {
        return new GantryConfig(List.of(pools), List.of(nodeClass()), "test-1", List.of(ZONE_A, ZONE_B));
    }

    static Requirement req(String key, String... values) {
        return Requirement.of(key, Operator.In, values);
    }

    /** A pending pod kube-scheduler marked Unschedulable, created a minute before {@link #T0}. */
    static Pod.Builder pending(String name, long cpuMillis, long memMi) {
        return Pod.builder("default", name).uid("uid-" + name).requests(Resources.of(cpuMillis, memMi << 20))
                .status(new Pod.Status("Pending", true, T0.minusSeconds(60), null, null));
    }

    /** A clock tests move by hand. */
    static final class ManualClock extends Clock {
        private Instant now;

        ManualClock(Instant start) {
            this.now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
