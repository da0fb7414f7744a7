package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's hostname topology cases: every new node is a fresh domain. */
class TopologySpreadHostnameTest {
    private static List<Pod> spreadPods(String app, int n, int maxSkew) {
        var spread = TopologySpread.of(maxSkew, WellKnownLabels.HOSTNAME, true, selector("app", app));
        return IntStream.range(0, n).mapToObj(i -> pod(app + "-" + i, 250, 256, Map.of("app", app)).topologySpread(List.of(spread)).build()).toList();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossNodes(Strategy s) {
        var r = scenario().pods(spreadPods("web", 4, 1)).pool(pool("default")).solve(s);
        assertThat(podsPerClaim(r)).containsExactly(1, 1, 1, 1);
    }

    @ParameterizedTest(name = "maxSkew {0}: {1} nodes for 4 pods")
    @CsvSource({"1,4", "2,2", "4,1"})
    void stacksPodsOnTheSameHostnameUpToMaxSkew(int maxSkew, int nodes) {
        var r = scenario().pods(spreadPods("web", 4, maxSkew)).pool(pool("default")).solve(Strategy.KARPENTER_GREEDY);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(nodes);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesMultipleDeploymentsWithHostnameSpread(Strategy s) {
        List<Pod> pods = new ArrayList<>(spreadPods("web", 3, 1));
        pods.addAll(spreadPods("api", 3, 1));
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        for (var c : r.newClaims()) {
            assertThat(c.pods().stream().filter(p -> p.labels().get("app").equals("web")).count()).isLessThanOrEqualTo(1);
            assertThat(c.pods().stream().filter(p -> p.labels().get("app").equals("api")).count()).isLessThanOrEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void avoidsAnExistingNodeThatAlreadyHoldsAMatchingPod(Strategy s) {
        var n = existing(node("n1", ZONES.get(0), 8, 32), pod("web-old", 100, 128, Map.of("app", "web")).build());
        var r = scenario().pods(spreadPods("web", 1, 1)).node(n).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "web-0")).isNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void usesAnExistingNodeWithoutMatchingPods(Strategy s) {
        var n = existing(node("n1", ZONES.get(0), 8, 32), pod("other", 100, 128, Map.of("app", "other")).build());
        var r = scenario().pods(spreadPods("web", 2, 1)).node(n).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.existingNodes().get("n1")).hasSize(1);
        assertThat(r.newClaims()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsAPoolsNodeLimitUnderHostnameSpread(Strategy s) {
        var r = scenario().pods(spreadPods("web", 3, 1)).pool(pool("default").limit("nodes", "2")).solve(s);
        assertThat(r.placedCount()).isEqualTo(2);
        assertThat(r.unschedulable()).hasSize(1);
    }
}
