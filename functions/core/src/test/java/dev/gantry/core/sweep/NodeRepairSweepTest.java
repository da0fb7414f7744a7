package dev.gantry.core.sweep;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import dev.gantry.core.model.Pod;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Node repair through the sweep: the policies, the safeguard and the forceful action, each against its source. */
class NodeRepairSweepTest {
    private static Node with(Node n, NodeCondition... conditions) {
        return n.withConditions(List.of(conditions));
    }

    private static NodeCondition c(String type, String status, Instant since) {
        return new NodeCondition(type, status, since);
    }

    private static LifecycleWorld pool(int nodes) {
        LifecycleWorld w = new LifecycleWorld(SweepServiceTest.quiet());
        for (int i = 0; i < nodes; i++) {
            w.addNode("n" + i, "default");
        }
        return w;
    }

    /**
     * aws {@code pkg/cloudprovider/cloudprovider.go} {@code RepairPolicies()}: AcceleratedHardwareReady False for 10 min;
     * core {@code pkg/controllers/node/health/controller.go} {@code annotateTerminationGracePeriod} then
     * {@code deleteNodeClaim}: the claim is deleted with its termination time now, so a do-not-disrupt pod does not hold
     * it (forceful).
     */
    @Test
    void aGpuNodeWithAHardwareFailureIsRepairedAfterTenMinutesThoughReady() {
        LifecycleWorld w = pool(6);
        w.cluster.putNode(with(w.cluster.node("node-n0"), c("Ready", "True", T0.minusSeconds(3000)),
                c("AcceleratedHardwareReady", "False", T0)));
        w.cluster.putPod(pod("keep", "node-n0").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build());

        w.sweep.sweep();
        w.clock.advance(Duration.ofMinutes(10).minusSeconds(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).as("within the toleration").isEmpty();

        w.clock.advance(Duration.ofSeconds(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-n0");
        assertThat(w.claim("n0").deletionReason()).isEqualTo("unhealthy");
    }

    /**
     * core {@code pkg/controllers/node/health/controller.go} {@code Reconcile}: terminationTime = the condition's
     * lastTransitionTime + toleration, not when Gantry first looked.
     */
    @Test
    void aConditionOlderThanItsTolerationIsRepairedOnTheFirstSweep() {
        LifecycleWorld w = pool(6);
        w.cluster.putNode(with(w.cluster.node("node-n0"), c("Ready", "True", T0.minusSeconds(3000)),
                c("KernelReady", "False", T0.minus(Duration.ofMinutes(30)))));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-n0");
    }

    /** aws {@code pkg/cloudprovider/cloudprovider.go} {@code RepairPolicies()}: Unknown on an agent's condition is not a repair cause (False only). */
    @Test
    void anAgentConditionUnknownIsLeftAlone() {
        LifecycleWorld w = pool(6);
        w.cluster.putNode(with(w.cluster.node("node-n0"), c("Ready", "True", T0.minusSeconds(3000)),
                c("ContainerRuntimeReady", "Unknown", T0.minus(Duration.ofHours(2)))));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).isEmpty();
    }

    /**
     * core {@code pkg/controllers/node/health/controller.go} {@code Reconcile}/{@code isNodePoolHealthy}: more than 20%
     * of the pool unhealthy blocks the repair with a NodeRepairBlocked Event ({@code events.go}) and a requeue after 5
     * min; Gantry's sweep is the requeue. Once the pool is healthy enough, the next sweep repairs.
     */
    @Test
    void aBlockedRepairRecordsNodeRepairBlockedAndIsTriedAgain() {
        LifecycleWorld w = pool(4); // 1 of 4 allowed
        w.cluster.putNode(with(w.cluster.node("node-n0"), c("Ready", "Unknown", T0)));
        w.cluster.putNode(with(w.cluster.node("node-n1"), c("Ready", "False", T0)));
        w.clock.advance(Duration.ofMinutes(31));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).isEmpty();
        assertThat(w.cluster.events()).filteredOn(e -> e.contains("NodeRepairBlocked"))
                .contains("Node/node-n0 Warning NodeRepairBlocked: more than 20% of NodePool default's nodes are "
                        + "unhealthy (2 of 4, 1 allowed); repair waits")
                .anyMatch(e -> e.startsWith("NodeClaim/n1 Warning NodeRepairBlocked"))
                .anyMatch(e -> e.startsWith("NodePool/default Warning NodeRepairBlocked"));

        w.cluster.putNode(with(w.cluster.node("node-n1"), c("Ready", "True", w.clock.instant())));
        w.clock.advance(Duration.ofMinutes(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-n0");
    }

    /** core {@code pkg/controllers/node/health/controller.go} {@code areNodesHealthy}: 1 of 3 is allowed (20% of 3 rounds up to 1, as a PDB's percentage rounds). */
    @Test
    void oneOfThreeIsRepaired() {
        LifecycleWorld w = pool(3);
        w.cluster.putNode(with(w.cluster.node("node-n2"), c("Ready", "False", T0.minus(Duration.ofMinutes(30)))));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-n2");
    }
}
