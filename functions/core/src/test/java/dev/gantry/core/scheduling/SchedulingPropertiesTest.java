package dev.gantry.core.scheduling;

import static dev.gantry.core.requirements.Generators.biased;
import static dev.gantry.core.requirements.Generators.biasedInts;
import static dev.gantry.core.requirements.Generators.orNull;
import static dev.gantry.core.requirements.Generators.theory;
import static dev.gantry.core.scheduling.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Generators;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Random pods and NodePools over {@link Fixtures#catalogue()}: whatever either strategy decides, every placement
 * satisfies the pod's and the pool's hard constraints, fits the chosen type, keeps limits, and every pod is accounted for.
 */
class SchedulingPropertiesTest {
    /** App "spread" spreads over zones, app "solo" keeps one pod per node, app "plain" has no topology. */
    private static final List<String> APPS = List.of("spread", "solo", "plain");

    record PoolSpec(String arch, String capacityType, List<String> zones, boolean tainted, Integer cpuLimit, int weight) {
    }

    record PodSpec(long cpu, long memMi, String app, String arch, boolean tolerates) {
    }

    record Case(List<PoolSpec> pools, List<PodSpec> pods, int maxSkew) {
        SchedulingInput input() {
            List<SchedulingInput.PoolOffer> offers = new ArrayList<>();
            for (int i = 0; i < pools.size(); i++) {
                PoolSpec p = pools.get(i);
                PoolBuilder b = pool("pool-" + i).weight(p.weight());
                if (p.arch() != null) {
                    b.req(WellKnownLabels.ARCH, Operator.In, p.arch());
                }
                if (p.capacityType() != null) {
                    b.req(WellKnownLabels.CAPACITY_TYPE, Operator.In, p.capacityType());
                }
                if (!p.zones().isEmpty()) {
                    b.req(WellKnownLabels.ZONE, Operator.In, p.zones().toArray(String[]::new));
                }
                if (p.tainted()) {
                    b.taint("team", "a", Taint.Effect.NoSchedule);
                }
                if (p.cpuLimit() != null) {
                    b.limit("cpu", Integer.toString(p.cpuLimit()));
                }
                offers.add(b.offer());
            }
            List<Pod> out = new ArrayList<>();
            for (int i = 0; i < pods.size(); i++) {
                PodSpec s = pods.get(i);
                Pod.Builder b = pod(s.app() + "-" + i, s.cpu(), s.memMi()).labels(Map.of("app", s.app()));
                if (s.arch() != null) {
                    b.nodeSelector(Map.of(WellKnownLabels.ARCH, s.arch()));
                }
                if (s.tolerates()) {
                    b.tolerations(List.of(Toleration.exists("team")));
                }
                if (s.app().equals("spread")) {
                    b.topologySpread(List.of(TopologySpread.of(maxSkew, WellKnownLabels.ZONE, true, selector("app", "spread"))));
                } else if (s.app().equals("solo")) {
                    b.podAntiAffinity(List.of(PodAffinityTerm.required(selector("app", "solo"), WellKnownLabels.HOSTNAME)));
                }
                out.add(b.build());
            }
            return new SchedulingInput(out, List.of(), List.of(), List.of(), offers, Map.of());
        }
    }

    /**
     * One to three pools and one to 25 pods, every field drawn independently (a missing arch or capacity type is null).
     * Mostly small: 86 in 100 have at most 15 pods, 2 in 100 all 25.
     */
    private static final Gen<Case> CASES = cases();
    /** A case costs milliseconds to solve: the default (100 per example) would shrink a failure for over a minute. */
    private static final int SHRINK_CYCLES = 4_000;

    private static Gen<Case> cases() {
        Gen<String> archs = Generate.pick(List.of("amd64", "arm64"));
        Gen<String> poolArch = orNull(50, archs);
        Gen<String> capacityType = orNull(50, Generate.pick(List.of("spot", "on-demand")));
        Gen<List<String>> zones = Generators.distinct(ZONES, 0, ZONES.size()).map(z -> List.copyOf(new java.util.TreeSet<>(z)));
        Gen<Boolean> tainted = booleans().all();
        Gen<Integer> cpuLimit = orNull(60, biasedInts(2, 48));
        Gen<Integer> weight = biasedInts(0, 100);
        Gen<PoolSpec> pool = in -> new PoolSpec(poolArch.generate(in), capacityType.generate(in), zones.generate(in), tainted.generate(in),
                cpuLimit.generate(in), weight.generate(in));
        Gen<PodSpec> pod = biased(100L, 4000L).zip(biased(128L, 8192L), Generate.pick(APPS), orNull(60, archs), booleans().all(),
                PodSpec::new);
        Gen<Integer> podCounts = Generate.frequency(Pair.of(86, biasedInts(1, 15)), Pair.of(12, biasedInts(16, 25)),
                Pair.of(2, Generate.constant(25)));
        return lists().of(pool).ofSizeBetween(1, 3).zip(lists().of(pod).ofSizes(podCounts), biasedInts(1, 2), Case::new);
    }

    @Test
    void everyPlacementHonoursEveryHardConstraint() {
        theory(200).withShrinkCycles(SHRINK_CYCLES).forAll(CASES).checkAssert(c -> {
            SchedulingInput in = c.input();
            for (Strategy s : Strategy.values()) {
                check(in, c, Scheduler.solve(in, s));
            }
        });
    }

    @Test
    void gantryNeverCostsMoreOrPlacesFewerThanTheGreedy() {
        theory(200).withShrinkCycles(SHRINK_CYCLES).forAll(CASES).checkAssert(c -> {
            SchedulingInput in = c.input();
            SchedulingResult gantry = Scheduler.solve(in, Strategy.GANTRY);
            SchedulingResult greedy = Scheduler.solve(in, Strategy.KARPENTER_GREEDY);
            assertThat(gantry.placedCount()).isGreaterThanOrEqualTo(greedy.placedCount());
            assertThat(gantry.totalPricePerHour()).isLessThanOrEqualTo(greedy.totalPricePerHour() + 1e-9);
        });
    }

    private static void check(SchedulingInput in, Case c, SchedulingResult r) {
        assertThat(r.existingNodes()).isEmpty();
        assertThat(r.inFlightClaims()).isEmpty();
        // Placed exactly once, or unschedulable with a reason.
        Map<String, Integer> seen = new HashMap<>();
        r.newClaims().forEach(cl -> cl.pods().forEach(p -> seen.merge(p.key(), 1, Integer::sum)));
        r.unschedulable().forEach(u -> {
            assertThat(u.reason()).as("reason for %s", u.pod().key()).isNotBlank();
            seen.merge(u.pod().key(), 1, Integer::sum);
        });
        assertThat(seen).hasSize(in.pending().size()).allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));

        Map<String, SchedulingInput.PoolOffer> pools = new HashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        Map<String, Long> cpuPerPool = new HashMap<>();
        Map<String, Map<String, Integer>> perZone = new TreeMap<>();
        for (var claim : r.newClaims()) {
            SchedulingInput.PoolOffer pool = pools.get(claim.nodePool());
            InstanceType type = claim.instanceType();
            assertThat(claim.instanceTypeOptions()).contains(type).hasSizeBetween(1, Scheduler.MAX_INSTANCE_TYPE_OPTIONS);
            Map<String, String> labels = nodeLabels(claim);
            assertThat(pool.requirements().matches(labels)).as("pool %s requirements hold on %s", pool.pool().name(), labels).isTrue();
            assertThat(claim.offering().available()).isTrue();
            Resources used = Resources.ZERO;
            int solo = 0;
            for (Pod p : claim.pods()) {
                used = used.plus(p.requests());
                assertThat(p.nodeRequirementTerms().stream().anyMatch(t -> t.matches(labels))).as("%s node affinity on %s", p.key(), labels).isTrue();
                assertThat(Toleration.firstUntolerated(p.tolerations(), pool.pool().template().taints())).as("%s tolerates %s", p.key(), pool.pool().name())
                        .isNull();
                solo += "solo".equals(p.labels().get("app")) ? 1 : 0;
                perZone.computeIfAbsent(p.labels().get("app"), a -> new TreeMap<>()).merge(claim.offering().zone(), 1, Integer::sum);
            }
            assertThat(solo).as("hostname anti-affinity").isLessThanOrEqualTo(1);
            assertThat(used.fitsIn(type.allocatable())).as("%s fits %s", used, type).isTrue();
            assertThat(claim.requests().fitsIn(type.allocatable())).isTrue();
            cpuPerPool.merge(claim.nodePool(), type.capacity().cpuMillis(), Long::sum);
        }
        for (int i = 0; i < c.pools().size(); i++) {
            Integer limit = c.pools().get(i).cpuLimit();
            if (limit != null) {
                assertThat(cpuPerPool.getOrDefault("pool-" + i, 0L)).as("cpu limit of pool-%d", i).isLessThanOrEqualTo(limit * 1000L);
            }
        }
        Map<String, Integer> spread = perZone.getOrDefault("spread", Map.of());
        // Under nodeAffinityPolicy Honor each pod's skew counts only the nodes its own node selector matches, so one
        // global skew bound holds only when every spread pod has the same selector.
        boolean oneFilter = c.pods().stream().filter(p -> p.app().equals("spread")).map(PodSpec::arch).distinct().count() == 1;
        if (!spread.isEmpty() && oneFilter) {
            Set<String> universe = zoneUniverse(in);
            int max = universe.stream().mapToInt(z -> spread.getOrDefault(z, 0)).max().orElse(0);
            int min = universe.stream().mapToInt(z -> spread.getOrDefault(z, 0)).min().orElse(0);
            assertThat(max - min).as("zone skew of %s over %s", spread, universe).isLessThanOrEqualTo(c.maxSkew());
        }
    }

    /** The labels the launched node would carry. */
    private static Map<String, String> nodeLabels(SchedulingResult.NodeClaimPlan claim) {
        Map<String, String> labels = new HashMap<>(claim.requirements().singleValuedLabels());
        labels.putAll(claim.instanceType().labels());
        labels.put(WellKnownLabels.ZONE, claim.offering().zone());
        labels.put(WellKnownLabels.CAPACITY_TYPE, claim.offering().capacityType());
        labels.put(WellKnownLabels.INSTANCE_TYPE, claim.instanceType().name());
        return labels;
    }

    /** Every zone some pool can launch into: the domains a zonal spread is measured over. */
    private static Set<String> zoneUniverse(SchedulingInput in) {
        Set<String> zones = new java.util.TreeSet<>();
        for (var p : in.pools()) {
            Requirements reqs = p.requirements();
            for (InstanceType t : p.instanceTypes()) {
                if (reqs.compatible(t.requirements())) {
                    t.offerings().stream().filter(o -> reqs.get(WellKnownLabels.ZONE).has(o.zone())
                            && reqs.get(WellKnownLabels.CAPACITY_TYPE).has(o.capacityType())).forEach(o -> zones.add(o.zone()));
                }
            }
        }
        return zones;
    }
}
