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
}
