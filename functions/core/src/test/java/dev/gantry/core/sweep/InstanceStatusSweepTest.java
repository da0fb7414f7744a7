package dev.gantry.core.sweep;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.health.InstanceHealth;
import dev.gantry.core.health.InstanceHealth.FailedCheck;
import dev.gantry.core.health.InstanceHealth.ScheduledEvent;
import dev.gantry.core.health.InstanceStatusDecision;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Pod;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sweep's instance status step (aws pkg/controllers/interruption/instancestatus_controller.go and utils.go,
 * v1.12+): a failed check is a forceful termination, a scheduled event a cordon and drain.
 */
class InstanceStatusSweepTest {
    private final List<InstanceHealth> sick = new ArrayList<>();
    private RuntimeException failure;

    private LifecycleWorld world(int nodes) {
        LifecycleWorld w = new LifecycleWorld(SweepServiceTest.quiet());
        for (int i = 0; i < nodes; i++) {
            w.addNode("n" + i, "default");
        }
        w.sweep.withInstanceStatus(new InstanceStatusStep(() -> {
            if (failure != null) {
                throw failure;
            }
            return List.copyOf(sick);
        }, w.termination, w.interruption::handle));
        return w;
    }

    /** aws instancestatus provider: UnhealthyThreshold 120 s; utils.go: instance/system status → ForcefulTermination. */
    @Test
    void aCheckFailedForTwoMinutesTerminatesTheNodeWithoutWaitingForItsPods() {
        LifecycleWorld w = world(3);
        w.cluster.putPod(pod("keep", "node-n1").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build());
        sick.add(new InstanceHealth("i-n1", List.of(new FailedCheck("system", "reachability", T0.minusSeconds(119))), List.of()));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).as("under the threshold").isEmpty();

        w.clock.advance(Duration.ofSeconds(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-n1");
        assertThat(w.claim("n1").deletionReason()).isEqualTo(InstanceStatusDecision.FAILED_REASON);
    }

    /** utils.go: EventStatusKind → CordonAndDrain, as a scheduled change from AWS Health (the same path here). */
    @Test
    void aScheduledRetirementCordonsAndDrainsTheNodeAsAHealthScheduledChange() {
        LifecycleWorld w = world(3);
        sick.add(new InstanceHealth("i-n2", List.of(), List.of(new ScheduledEvent("instance-retirement", "e-1",
                T0.plus(Duration.ofDays(2)), "The instance is running on degraded hardware"))));
        w.sweep.sweep();
        assertThat(w.claim("n2").state().isDeleting()).isTrue();
        assertThat(w.claim("n2").deletionReason()).isEqualTo("scheduled-change");
        assertThat(w.cluster.node("node-n2") == null || w.cluster.node("node-n2").unschedulable()
                || w.cluster.node("node-n2").deleting()).isTrue();
        assertThat(w.cluster.events()).anyMatch(e -> e.contains("ScheduledChange") && e.contains("instance-retirement"));
    }

    /** Gantry's own: an event EC2 lists as completed (or canceled) vacates nothing. */
    @Test
    void aCompletedEventIsLeftAlone() {
        LifecycleWorld w = world(2);
        sick.add(new InstanceHealth("i-n0", List.of(), List.of(new ScheduledEvent("system-reboot", "e-2", T0.minusSeconds(3600),
                "[Completed] The instance is scheduled for a reboot"))));
        w.sweep.sweep();
        assertThat(w.claim("n0").state()).isEqualTo(NodeClaimState.Initialized);
    }

    /** An instance that is not Gantry's (DescribeInstanceStatus lists the whole account) is never touched. */
    @Test
    void anotherInstanceOfTheAccountIsIgnored() {
        LifecycleWorld w = world(1);
        sick.add(new InstanceHealth("i-someone-elses", List.of(new FailedCheck("instance", "reachability", null)), List.of()));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).isEmpty();
    }

    /** A failed listing (throttled, denied) skips the step; the rest of the sweep runs and the next sweep reads again. */
    @Test
    void aThrottledListingSkipsTheStepOnly() {
        LifecycleWorld w = world(1);
        failure = new CloudException("RequestLimitExceeded", "Request limit exceeded.", true);
        w.sweep.sweep();
        failure = null;
        sick.add(new InstanceHealth("i-n0", List.of(new FailedCheck("instance", "reachability", T0.minusSeconds(600))), List.of()));
        w.clock.advance(Duration.ofMinutes(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-n0");
    }
}
