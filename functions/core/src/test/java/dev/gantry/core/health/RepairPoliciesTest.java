package dev.gantry.core.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The repair table and its arithmetic, each rule against its Karpenter source. */
class RepairPoliciesTest {
    private static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
    private final RepairPolicies policies = RepairPolicies.aws();

    static Node node(boolean ready, NodeCondition... conditions) {
        return new Node("n", "aws:///us-east-1a/i-n", Map.of("karpenter.sh/nodepool", "default"), Map.of(), List.of(),
                Resources.of(2000, 8L << 30), ready, false, false, T0.minusSeconds(7200), List.of(), null, List.of(conditions));
    }

    static NodeCondition c(String type, String status, Instant since) {
        return new NodeCondition(type, status, since);
    }

    /** aws pkg/cloudprovider/cloudprovider.go RepairPolicies() at v1.14.1: seven lines, Ready twice. */
    @Test
    void theTableIsKarpentersAwsProviders() {
        assertThat(RepairPolicies.AWS).containsExactly(
                new RepairPolicy("Ready", "False", Duration.ofMinutes(30)),
                new RepairPolicy("Ready", "Unknown", Duration.ofMinutes(30)),
                new RepairPolicy("AcceleratedHardwareReady", "False", Duration.ofMinutes(10)),
                new RepairPolicy("StorageReady", "False", Duration.ofMinutes(30)),
                new RepairPolicy("NetworkingReady", "False", Duration.ofMinutes(30)),
                new RepairPolicy("KernelReady", "False", Duration.ofMinutes(30)),
                new RepairPolicy("ContainerRuntimeReady", "False", Duration.ofMinutes(30)));
    }

    /** core pkg/controllers/node/health/controller.go: terminationTime = lastTransitionTime + toleration. */
    @Test
    void theTolerationCountsFromTheConditionsLastTransitionTime() {
        Node n = node(false, c("Ready", "Unknown", T0));
        var b = policies.breach(n, T0.plusSeconds(600)).orElseThrow(); // Gantry saw it later: the condition's time wins
        assertThat(b.deadline()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
        assertThat(b.due(T0.plus(Duration.ofMinutes(30)).minusSeconds(1))).isFalse();
        assertThat(b.due(T0.plus(Duration.ofMinutes(30)))).isTrue();
    }

    /** core findUnhealthyConditions: when several policies match, the earliest termination time wins. */
    @Test
    void theEarliestDeadlineWins() {
        Node n = node(false, c("Ready", "False", T0.minus(Duration.ofMinutes(15))),
                c("AcceleratedHardwareReady", "False", T0), c("KernelReady", "False", T0.minus(Duration.ofMinutes(40))));
        var b = policies.breach(n, null).orElseThrow();
        assertThat(b.condition()).isEqualTo("KernelReady");
        assertThat(b.deadline()).isEqualTo(T0.minus(Duration.ofMinutes(10)));

        Node gpu = node(true, c("Ready", "True", T0.minusSeconds(7000)), c("AcceleratedHardwareReady", "False", T0),
                c("StorageReady", "False", T0.minusSeconds(60)));
        assertThat(policies.breach(gpu, null).orElseThrow())
                .isEqualTo(new RepairPolicies.Breach("AcceleratedHardwareReady", "False", T0, T0.plus(Duration.ofMinutes(10))));
    }

    /** aws RepairPolicies(): the agent's conditions repair on False only; Ready on False or Unknown. */
    @Test
    void onlyTheDeclaredStatusesMatch() {
        assertThat(policies.breach(node(true, c("KernelReady", "Unknown", T0), c("StorageReady", "True", T0),
                c("MemoryPressure", "True", T0)), null)).isEmpty();
        assertThat(policies.unhealthy(node(true, c("KernelReady", "Unknown", T0)))).isFalse();
        assertThat(policies.unhealthy(node(true, c("NetworkingReady", "False", T0)))).isTrue();
        assertThat(policies.unhealthy(node(false, c("Ready", "Unknown", T0)))).isTrue();
    }

    /** Gantry's own: a node with no Ready condition but not Ready counts as Ready=Unknown since the sweep saw it so. */
    @Test
    void aNodeWithoutConditionsFallsBackOnWhenTheSweepFirstSawItNotReady() {
        Node bare = node(false);
        assertThat(policies.unhealthy(bare)).isTrue();
        assertThat(policies.breach(bare, null)).as("not yet seen: no deadline").isEmpty();
        assertThat(policies.breach(bare, T0).orElseThrow().deadline()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
        assertThat(policies.breach(node(true), T0)).isEmpty();
    }

    /** A new condition is one line of the table. */
    @Test
    void aNewConditionIsOneLine() {
        var extended = new java.util.ArrayList<>(RepairPolicies.AWS);
        extended.add(new RepairPolicy("DiskPressure", "True", Duration.ofMinutes(5)));
        var b = new RepairPolicies(extended).breach(node(true, c("DiskPressure", "True", T0)), null).orElseThrow();
        assertThat(b.deadline()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
    }
}
