package dev.gantry.simulator.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The invariant repairWhileUnhealthy: Karpenter's safeguard (20% of the pool, rounded up), judged on its own. */
class RepairChecksTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final List<String> violations = new ArrayList<>();
    private final Checks.Episodes episodes = new Checks.Episodes() {
        @Override
        public void episode(boolean bad, String kind, String key, java.util.function.Supplier<String> message) {
        }

        @Override
        public void violated(String kind, String message) {
            violations.add(kind + ": " + message);
        }
    };

    private static Node node(int i, String readyStatus) {
        return new Node("n" + i, "aws:///us-east-1a/i-" + i, Map.of("karpenter.sh/nodepool", "web"), Map.of(), List.of(),
                Resources.of(2000, 8L << 30), readyStatus.equals("True"), false, false, T0, List.of(), null,
                List.of(new NodeCondition("Ready", readyStatus, T0)));
    }

    private static NodeClaim repaired(int i) {
        return NodeClaim.launching("web-" + i, "web", "h", List.of(), List.of(), List.of(), "m5.large", "us-east-1a",
                "on-demand", 0.1, T0).launched("i-" + i, "m5.large", "us-east-1a", "on-demand", 0.1, T0)
                .registered("n" + i, T0).draining("unhealthy", T0.plusSeconds(1800));
    }

    @Test
    void aRepairWithinTheAllowanceIsFineAndOneBeyondItIsAViolation() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            nodes.add(node(i, i == 0 ? "Unknown" : "True"));
        }
        RepairChecks checks = new RepairChecks();
        checks.check(List.of(repaired(0)), nodes, episodes);
        assertThat(violations).as("1 of 5: 1 allowed").isEmpty();

        nodes.set(1, node(1, "Unknown"));
        checks.check(List.of(repaired(1)), nodes, episodes);
        assertThat(violations).containsExactly("repairWhileUnhealthy: nodeclaim web-1 repaired while 2 of 5 nodes of pool "
                + "web were unhealthy (1 allowed)");

        checks.check(List.of(repaired(1)), nodes, episodes);
        assertThat(violations).as("each repair judged once").hasSize(1);
    }

    @Test
    void aRepairedNodeAlreadyGoneStillCountsAsUnhealthy() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 1; i < 3; i++) {
            nodes.add(node(i, i == 1 ? "False" : "True"));
        }
        new RepairChecks().check(List.of(repaired(0)), nodes, episodes); // 2 of 3, 1 allowed
        assertThat(violations).hasSize(1);
    }
}
