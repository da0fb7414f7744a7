package dev.gantry.core.health;

import static dev.gantry.core.health.RepairPoliciesTest.c;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The repair safeguard, as core {@code pkg/controllers/node/health/controller.go} ({@code areNodesHealthy}: 20%,
 * {@code GetScaledValueFromIntOrPercent(…, roundUp=true)}, blocked when unhealthy exceeds it).
 */
class RepairSafeguardTest {
    private static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
    private final RepairSafeguard safeguard = new RepairSafeguard(RepairPolicies.aws());

    private static Node node(String name, String pool, boolean healthy) {
        Map<String, String> labels = pool == null ? Map.of() : Map.of("karpenter.sh/nodepool", pool);
        NodeCondition ready = c("Ready", healthy ? "True" : "Unknown", T0);
        return new Node(name, "aws:///us-east-1a/i-" + name, labels, Map.of(), List.of(), Resources.of(2000, 8L << 30),
                healthy, false, false, T0, List.of(), null, List.of(ready));
    }

    private static List<Node> pool(String pool, int total, int unhealthy) {
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            out.add(node(pool + i, pool, i >= unhealthy));
        }
        return out;
    }

    @Test
    void twentyPercentRoundsUpAsAPdbPercentageDoes() {
        assertThat(RepairSafeguard.allowed(0)).isZero();
        assertThat(RepairSafeguard.allowed(1)).isEqualTo(1);
        assertThat(RepairSafeguard.allowed(3)).isEqualTo(1);
        assertThat(RepairSafeguard.allowed(5)).isEqualTo(1);
        assertThat(RepairSafeguard.allowed(6)).isEqualTo(2);
        assertThat(RepairSafeguard.allowed(10)).isEqualTo(2);
        assertThat(RepairSafeguard.allowed(11)).isEqualTo(3);
    }

    @Test
    void oneOfThreeIsAllowedTwoOfThreeIsBlocked() {
        assertThat(safeguard.judge("a", pool("a", 3, 1)).blocked()).isFalse();
        RepairSafeguard.Verdict two = safeguard.judge("a", pool("a", 3, 2));
        assertThat(two.blocked()).isTrue();
        assertThat(two.message()).contains("NodePool a", "2 of 3", "1 allowed");
    }

    @Test
    void aPoolIsJudgedOnItsOwnNodesOnly() {
        List<Node> nodes = new ArrayList<>(pool("a", 10, 2));
        nodes.addAll(pool("b", 2, 2));
        assertThat(safeguard.judge("a", nodes).blocked()).isFalse();
        assertThat(safeguard.judge("b", nodes).blocked()).isTrue();
    }

    /** core: a NodeClaim without the nodepool label is judged by isClusterHealthy, over every node. */
    @Test
    void aNodeOfNoPoolIsJudgedAgainstTheWholeCluster() {
        List<Node> nodes = new ArrayList<>(pool("a", 9, 0));
        nodes.add(node("standalone", null, false));
        assertThat(safeguard.judge(null, nodes)).isEqualTo(new RepairSafeguard.Verdict(null, 10, 1, 2));
        assertThat(safeguard.judge("", nodes).blocked()).isFalse();
        nodes.addAll(pool("b", 2, 2));
        assertThat(safeguard.judge(null, nodes).blocked()).as("3 of 12, 3 allowed").isFalse();
        nodes.add(node("c0", "c", false));
        assertThat(safeguard.judge(null, nodes).blocked()).as("4 of 13, 3 allowed").isTrue();
    }
}
