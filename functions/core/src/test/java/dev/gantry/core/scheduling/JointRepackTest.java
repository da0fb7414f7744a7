package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pods that need different things of a node (arm64 only; a zone their spread pins) are packed in separate groups, so
 * two shapes that would fill a node together never meet. The last pass packs a pool's groups as one bag, each pod on
 * the nodes its requirements allow.
 */
class JointRepackTest {
    /** One node holds a cpu-heavy and a memory-heavy pod together; either alone leaves half of it idle. */
    private static final List<InstanceType> TYPES = List.of(
            type("m6g.xlarge", 4, 8, 0.10, "arm64", Map.of()),
            type("m5.xlarge", 4, 8, 0.11, "amd64", Map.of()));

    private static List<Pod> armCpuAndPlainMemory(int n) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(pod("arm-cpu-" + i, 2500, 1024).requiredNodeAffinity(List.of(Requirements.NONE.with(WellKnownLabels.ARCH, ValueSet.in("arm64"))))
                    .build());
            pods.add(pod("plain-mem-" + i, 1000, 5 * 1024).build());
        }
        return pods;
    }

    @Test
    void anArm64OnlyPodSharesItsNodeWithAPodThatRunsAnywhere() {
        SchedulingResult r = scenario().pods(armCpuAndPlainMemory(8)).pool(pool("default").offer(TYPES)).solve(Strategy.GANTRY);
        assertAllScheduled(r);
        assertThat(r.strategy()).isEqualTo("gantry"); // Karpenter's loop pairs them too; Gantry's own passes must not do worse
        assertThat(r.newClaims()).hasSize(8).allSatisfy(c -> {
            assertThat(c.pods()).hasSize(2);
            assertThat(c.requirements().get(WellKnownLabels.ARCH).singleValue()).isEqualTo("arm64");
        });
    }

    @Test
    void aZonePinnedSpreadReplicaSharesItsNodeWithAPodThatRunsAnywhere() {
        TopologySpread s = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(pod("web-" + i, 2500, 1024, Map.of("app", "web")).topologySpread(List.of(s)).build());
            pods.add(pod("plain-mem-" + i, 1000, 5 * 1024).build());
        }
        SchedulingResult r = scenario().pods(pods).pool(pool("default").offer(TYPES)).solve(Strategy.GANTRY);
        assertAllScheduled(r);
        assertThat(r.strategy()).isEqualTo("gantry");
        assertThat(podsPerZone(r).values()).containsOnly(4L); // two replicas and two plain pods a zone
        assertThat(r.newClaims()).hasSize(6).allSatisfy(c -> assertThat(c.pods()).hasSize(2));
    }

    /**
     * The first passes give each replica of a spread its zone as it comes, whatever its shape; the joint pass lets
     * replicas alike but for their requests trade zones, each zone keeping its count, so a memory-heavy replica goes
     * where the zone's pinned pods are cpu-heavy and the other way round: seven full nodes, where keeping the first
     * passes' zones leaves lone pods on half-idle nodes.
     */
    @Test
    void spreadReplicasTradeZonesToPairWithWhatEachZoneHolds() {
        TopologySpread s = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(pod("web-cpu-" + i, 2500, 1024, Map.of("app", "web")).topologySpread(List.of(s)).build());
            pods.add(pod("web-mem-" + i, 1000, 5 * 1024, Map.of("app", "web")).topologySpread(List.of(s)).build());
            pods.add(pod("batch-cpu-" + i, 2500, 1024).requiredNodeAffinity(List.of(inZone(ZONES.get(0)))).build());
            pods.add(pod("cache-mem-" + i, 1000, 5 * 1024).requiredNodeAffinity(List.of(inZone(ZONES.get(1)))).build());
        }
        SchedulingResult r = scenario().pods(pods).pool(pool("default").offer(List.of(type("m5.xlarge", 4, 8, 0.10)))).solve(Strategy.GANTRY);
        assertAllScheduled(r);
        Map<String, Long> web = new java.util.TreeMap<>();
        r.newClaims().forEach(c -> c.pods().stream().filter(p -> "web".equals(p.labels().get("app"))).forEach(p -> web.merge(zoneOf(c), 1L, Long::sum)));
        assertThat(web.values()).containsOnly(2L); // the spread kept: two replicas a zone
        assertThat(r.newClaims()).hasSize(7);
    }

    /**
     * Replicas trade zones only with pods alike in their labels: here a second spread counts only the cpu-heavy
     * replicas ({@code size: cpu}), so trading a cpu-heavy replica's zone for a memory-heavy one's would break it,
     * though the first spread (all replicas) would not see the trade. Both spreads hold in the plan.
     */
    @Test
    void replicasWhoseLabelsDifferKeepEverySpreadThatTellsThemApart() {
        TopologySpread web = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        TopologySpread cpu = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("size", "cpu"));
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(pod("web-cpu-" + i, 2500, 1024, Map.of("app", "web", "size", "cpu")).topologySpread(List.of(web, cpu)).build());
            pods.add(pod("web-mem-" + i, 1000, 5 * 1024, Map.of("app", "web", "size", "mem")).topologySpread(List.of(web)).build());
            pods.add(pod("batch-cpu-" + i, 2500, 1024).requiredNodeAffinity(List.of(inZone(ZONES.get(0)))).build());
            pods.add(pod("cache-mem-" + i, 1000, 5 * 1024).requiredNodeAffinity(List.of(inZone(ZONES.get(1)))).build());
        }
        SchedulingResult r = scenario().pods(pods).pool(pool("default").offer(List.of(type("m5.xlarge", 4, 8, 0.10)))).solve(Strategy.GANTRY);
        assertAllScheduled(r);
        for (String key : List.of("app", "size")) {
            Map<String, Long> perZone = new java.util.TreeMap<>();
            ZONES.forEach(z -> perZone.put(z, 0L));
            r.newClaims().forEach(c -> c.pods().stream().filter(p -> key.equals("app") ? p.labels().containsKey("app") : "cpu".equals(p.labels().get("size")))
                    .forEach(p -> perZone.merge(zoneOf(c), 1L, Long::sum)));
            assertThat(java.util.Collections.max(perZone.values()) - java.util.Collections.min(perZone.values())).as(key + " " + perZone).isLessThanOrEqualTo(1);
        }
    }

    private static Requirements inZone(String zone) {
        return Requirements.NONE.with(WellKnownLabels.ZONE, ValueSet.in(zone));
    }
}
