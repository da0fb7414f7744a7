package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cases ported from Karpenter's instance_selection_test.go, against its assorted catalogue: every (cpu, memory, zone,
 * capacity type, os, arch) combination is its own type with one offering, priced by its resources.
 */
class KarpenterSuiteInstanceSelectionTest {
    static final String ARCH = WellKnownLabels.ARCH;
    static final String OS = WellKnownLabels.OS;
    static final String ZONE = WellKnownLabels.ZONE;
    static final String CT = WellKnownLabels.CAPACITY_TYPE;
    static final List<InstanceType> ASSORTED = assorted();

    static List<InstanceType> assorted() {
        List<InstanceType> out = new ArrayList<>();
        for (int cpu : new int[]{1, 2, 4, 8, 16, 32, 64}) {
            for (int mem : new int[]{1, 2, 4, 8, 16, 32, 64, 128}) {
                for (String zone : ZONES) {
                    for (String ct : List.of("spot", "on-demand")) {
                        for (String os : List.of("linux", "windows")) {
                            for (String arch : List.of("amd64", "arm64")) {
                                Map<String, String> labels = new HashMap<>(Map.of(ARCH, arch, OS, os));
                                double price = 0.1 * cpu + 0.1 * mem * (double) (1L << 30) / 1e9;
                                out.add(new InstanceType(cpu + "-cpu-" + mem + "-mem-" + arch + "-" + os + "-" + zone + "-" + ct, labels,
                                        new Resources(cpu * 1000L, (long) mem << 30, 100L << 30, 110, Map.of()), Resources.of(100, 10L << 20),
                                        List.of(Offering.of(zone, ct, price))));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The default pool of the suite: both capacity types, both arches. */
    static PoolBuilder np() {
        return pool("default").req(CT, Operator.In, "spot", "on-demand").req(ARCH, Operator.In, "arm64", "amd64");
    }

    static Requirements req(String key, String... values) {
        return Requirements.of(Requirement.of(key, Operator.In, values));
    }

    /** Solves one default pod and checks it landed on the cheapest type allowed, and that every launch option keeps to {@code expect}. */
    static void assertCheapest(Strategy s, PoolBuilder pool, Pod pod, Map<String, String> expect) {
        var r = scenario().pods(pod).pool(pool.offer(ASSORTED)).solve(s);
        var claim = claimOf(r, pod.name());
        double min = Double.MAX_VALUE;
        Requirements all = pool.build().requirements().intersect(pod.nodeRequirementTerms().get(0));
        for (InstanceType t : ASSORTED) {
            Offering o = t.cheapestOffering(all);
            if (all.compatible(t.requirements()) && o != null && pod.requests().fitsIn(t.allocatable())) {
                min = Math.min(min, o.pricePerHour());
            }
        }
        assertThat(claim.pricePerHour()).isEqualTo(min);
        for (InstanceType option : claim.instanceTypeOptions()) {
            expect.forEach((k, v) -> {
                if (k.equals(ZONE) || k.equals(CT)) {
                    assertThat(option.offerings()).anyMatch(o -> (k.equals(ZONE) ? o.zone() : o.capacityType()).equals(v));
                } else {
                    assertThat(option.labels()).containsEntry(k, v);
                }
            });
        }
        expect.forEach((k, v) -> assertThat(label(claim, k)).as(k).isEqualTo(v));
    }

    static Pod pod(Requirements affinity) {
        var b = Pod.builder("default", "p");
        return (affinity == null ? b : b.requiredNodeAffinity(List.of(affinity))).build();
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestType(Strategy s) {
        assertCheapest(s, np(), pod(null), Map.of());
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod arch = amd64)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePodsArchAmd64(Strategy s) {
        assertCheapest(s, np(), pod(req(ARCH, "amd64")), Map.of(ARCH, "amd64"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod arch = arm64)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePodsArchArm64(Strategy s) {
        assertCheapest(s, np(), pod(req(ARCH, "arm64")), Map.of(ARCH, "arm64"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov arch = amd64)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePoolsArchAmd64(Strategy s) {
        assertCheapest(s, pool("default").req(ARCH, Operator.In, "amd64"), pod(null), Map.of(ARCH, "amd64"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov arch = arm64)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePoolsArchArm64(Strategy s) {
        assertCheapest(s, pool("default").req(ARCH, Operator.In, "arm64"), pod(null), Map.of(ARCH, "arm64"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov os = windows)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePoolsOs(Strategy s) {
        assertCheapest(s, pool("default").req(OS, Operator.In, "windows"), pod(null), Map.of(OS, "windows"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod os = windows)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePodsOsWindows(Strategy s) {
        assertCheapest(s, np(), pod(req(OS, "windows")), Map.of(OS, "windows"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod os = linux)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePodsOsLinux(Strategy s) {
        assertCheapest(s, np(), pod(req(OS, "linux")), Map.of(OS, "linux"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov zone = test-zone-2)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeInThePoolsZone(Strategy s) {
        assertCheapest(s, pool("default").req(ZONE, Operator.In, ZONES.get(1)), pod(null), Map.of(ZONE, ZONES.get(1)));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod zone = test-zone-2)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeInThePodsZone(Strategy s) {
        assertCheapest(s, np(), pod(req(ZONE, ZONES.get(1))), Map.of(ZONE, ZONES.get(1)));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov ct = spot)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePoolsCapacityType(Strategy s) {
        assertCheapest(s, pool("default").req(CT, Operator.In, "spot"), pod(null), Map.of(CT, "spot"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod ct = spot)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePodsCapacityType(Strategy s) {
        assertCheapest(s, np(), pod(req(CT, "spot")), Map.of(CT, "spot"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov ct = ondemand, prov zone = test-zone-1)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePoolsCapacityTypeAndZone(Strategy s) {
        assertCheapest(s, pool("default").req(CT, Operator.In, "on-demand").req(ZONE, Operator.In, ZONES.get(0)), pod(null),
                Map.of(CT, "on-demand", ZONE, ZONES.get(0)));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod ct = spot, pod zone = test-zone-1)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePodsCapacityTypeAndZone(Strategy s) {
        var both = Requirements.of(Requirement.of(CT, Operator.In, "spot"), Requirement.of(ZONE, Operator.In, ZONES.get(0)));
        assertCheapest(s, np(), pod(both), Map.of(CT, "spot", ZONE, ZONES.get(0)));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov ct = spot, pod zone = test-zone-2)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeOfThePoolsCapacityTypeInThePodsZone(Strategy s) {
        assertCheapest(s, pool("default").req(CT, Operator.In, "spot"), pod(req(ZONE, ZONES.get(1))), Map.of(CT, "spot", ZONE, ZONES.get(1)));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (prov ct = ondemand/test-zone-1/arm64/windows)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeUnderFourPoolRequirements(Strategy s) {
        var pool = pool("default").req(CT, Operator.In, "on-demand").req(ZONE, Operator.In, ZONES.get(0)).req(ARCH, Operator.In, "arm64")
                .req(OS, Operator.In, "windows");
        assertCheapest(s, pool, pod(null), Map.of(CT, "on-demand", ZONE, ZONES.get(0), ARCH, "arm64", OS, "windows"));
    }

    // karpenter: instance_selection_test.go "should schedule on one of the cheapest instances (pod ct = spot/test-zone-2/amd64/linux)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheapestTypeUnderFourPodRequirements(Strategy s) {
        var all = Requirements.of(Requirement.of(CT, Operator.In, "spot"), Requirement.of(ZONE, Operator.In, ZONES.get(1)),
                Requirement.of(ARCH, Operator.In, "amd64"), Requirement.of(OS, Operator.In, "linux"));
        assertCheapest(s, np(), pod(all), Map.of(CT, "spot", ZONE, ZONES.get(1), ARCH, "amd64", OS, "linux"));
    }

    // karpenter: instance_selection_test.go "should not schedule if no instance type matches selector (pod arch = arm)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleWhenTheArchMatchesNoType(Strategy s) {
        var r = scenario().pods(pod(req(ARCH, "arm"))).pool(np().offer(ASSORTED)).solve(s);
        assertNotScheduled(r, "p");
    }

    // karpenter: instance_selection_test.go "should not schedule if no instance type matches selector (prov arch = arm / pod zone=test-zone-2)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleWhenThePoolsArchAndThePodsZoneMatchNoType(Strategy s) {
        var types = ASSORTED.stream().filter(t -> !(t.labels().get(ARCH).equals("arm64") && t.offerings().get(0).zone().equals(ZONES.get(1)))).toList();
        var r = scenario().pods(pod(req(ZONE, ZONES.get(1)))).pool(pool("default").req(ARCH, Operator.In, "arm64").offer(types)).solve(s);
        assertNotScheduled(r, "p");
    }

    // karpenter: instance_selection_test.go "should schedule on an instance with enough resources"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void threeEqualPodsShareOneNodeOfATypeThatHoldsThemAll(Strategy s) {
        for (double cpu : new double[]{0.1, 1.0, 2, 2.5, 4, 8, 16}) {
            for (double mem : new double[]{0.1, 1.0, 2, 4, 8, 16, 32}) {
                List<Pod> pods = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    pods.add(Pod.builder("default", "p" + i).requests(Resources.of((long) (cpu * 1000), (long) (mem * (1L << 30)))).build());
                }
                var r = scenario().pods(pods).pool(np().offer(ASSORTED)).solve(s);
                assertThat(r.newClaims()).as("%s cpu %s GiB", cpu, mem).hasSize(1);
                var claim = r.newClaims().get(0);
                for (InstanceType t : claim.instanceTypeOptions()) {
                    assertThat(claim.requests().fitsIn(t.allocatable())).isTrue();
                }
            }
        }
    }

    // karpenter: instance_selection_test.go "should schedule on cheaper on-demand instance even when spot price ordering would place other instance types first"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheCheaperOnDemandTypeWhenThePoolAllowsOnlyOnDemand(Strategy s) {
        var t1 = new InstanceType("test-instance1", Map.of(ARCH, "amd64", OS, "linux"), new Resources(1000, 1L << 30, 0, 110, Map.of()),
                Resources.ZERO, List.of(Offering.of(ZONES.get(0), "on-demand", 1.0), Offering.of(ZONES.get(0), "spot", 0.2)));
        var t2 = new InstanceType("test-instance2", Map.of(ARCH, "amd64", OS, "linux"), new Resources(1000, 1L << 30, 0, 110, Map.of()),
                Resources.ZERO, List.of(Offering.of(ZONES.get(0), "on-demand", 1.3), Offering.of(ZONES.get(0), "spot", 0.1)));
        var r = scenario().pods(pod(null)).pool(pool("default").req(CT, Operator.In, "on-demand").offer(List.of(t1, t2))).solve(s);
        assertThat(claimOf(r, "p").instanceType().name()).isEqualTo("test-instance1");
    }
}
