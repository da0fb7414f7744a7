package dev.gantry.core.interruption;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.initialized;
import static dev.gantry.core.lifecycle.LifecycleFixtures.launched;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.interruption.InterruptionCommand.EmitMetric;
import dev.gantry.core.interruption.InterruptionCommand.HintReplacement;
import dev.gantry.core.interruption.InterruptionCommand.Ignore;
import dev.gantry.core.interruption.InterruptionCommand.MarkUnavailable;
import dev.gantry.core.interruption.InterruptionCommand.RecordEvent;
import dev.gantry.core.interruption.InterruptionCommand.StartTermination;
import dev.gantry.core.interruption.InterruptionEvent.CapacityReservationInterruption;
import dev.gantry.core.interruption.InterruptionEvent.RebalanceRecommendation;
import dev.gantry.core.interruption.InterruptionEvent.ScheduledChange;
import dev.gantry.core.interruption.InterruptionEvent.SpotInterruption;
import dev.gantry.core.interruption.InterruptionEvent.StateChange;
import dev.gantry.core.interruption.InterruptionEvent.Unsupported;
import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InterruptionDecisionTest {
    final NodeClaim claim = initialized("a", "default");
    final String id = claim.instanceId();
    final Instant now = T0.plusSeconds(1);

    List<InterruptionCommand> decide(InterruptionEvent e) {
        return InterruptionDecision.decide(e, Optional.of(claim), Map.of(), now);
    }

    @Test
    void spotWarningMarksTheOfferingHintsFirstThenTerminatesWithTwoMinuteDeadline() {
        List<InterruptionCommand> c = decide(new SpotInterruption(id, T0));
        assertThat(c).contains(new MarkUnavailable(new OfferingKey("m5.large", "us-east-1a", "spot"), now.plus(Duration.ofMinutes(3))));
        assertThat(c).contains(new EmitMetric("SpotInterruption"));
        assertThat(c).anyMatch(x -> x instanceof RecordEvent r && r.type().equals("Warning"));
        int hint = indexOf(c, HintReplacement.class);
        int start = indexOf(c, StartTermination.class);
        assertThat(hint).isLessThan(start);
        assertThat(c.get(start)).isEqualTo(new StartTermination("a", "interruption", T0.plus(Duration.ofMinutes(2))));
    }

    @Test
    void capacityReservationWarningActsLikeSpotWithItsOwnTerminationTime() {
        Instant end = T0.plusSeconds(100);
        List<InterruptionCommand> c = decide(new CapacityReservationInterruption(id, T0, end));
        assertThat(c).contains(new StartTermination("a", "interruption", end));
        assertThat(c).anyMatch(x -> x instanceof MarkUnavailable);
        assertThat(decide(new CapacityReservationInterruption(id, T0, null)))
                .contains(new StartTermination("a", "interruption", T0.plus(Duration.ofMinutes(2))));
    }

    @Test
    void rebalanceOnlyRecordsWithoutTheAnnotation() {
        List<InterruptionCommand> c = decide(new RebalanceRecommendation(id, T0));
        assertThat(c).containsExactly(new EmitMetric("RebalanceRecommendation"),
                new RecordEvent("a", "Normal", "RebalanceRecommendation", "instance " + id + " is at elevated risk of interruption"));
    }

    @Test
    void rebalanceOnAnOptedInPoolAvoidsTheOfferingAndFlagsTheNodeForTheSweepsCommand() {
        // Gantry's own (aws/karpenter-provider-aws#2813: Karpenter only records an Event). No drain here: the sweep's
        // REBALANCE command launches the replacement first, then drains within budgets.
        for (String v : List.of("true", "replace")) {
            List<InterruptionCommand> c = InterruptionDecision.decide(new RebalanceRecommendation(id, T0), Optional.of(claim),
                    Map.of("gantry.dev/rebalance", v), now);
            assertThat(c).contains(new MarkUnavailable(new OfferingKey("m5.large", "us-east-1a", "spot"), now.plus(Duration.ofMinutes(10))),
                    new InterruptionCommand.FlagRebalance("a"));
            assertThat(c).noneMatch(x -> x instanceof StartTermination || x instanceof HintReplacement);
        }
        assertThat(InterruptionDecision.decide(new RebalanceRecommendation(id, T0), Optional.of(claim),
                Map.of("gantry.dev/rebalance", "false"), now)).noneMatch(x -> x instanceof InterruptionCommand.FlagRebalance);
    }

    @Test
    void rebalanceForAnOnDemandNodeOfAnOptedInPoolOnlyRecords() {
        // Gantry's own: only spot nodes are replaced (EC2 sends the recommendation for spot instances).
        NodeClaim onDemand = claim.launched(claim.instanceId(), "m5.large", "us-east-1a", "on-demand", 0.096, T0);
        assertThat(InterruptionDecision.decide(new RebalanceRecommendation(id, T0), Optional.of(onDemand),
                Map.of("gantry.dev/rebalance", "true"), now)).noneMatch(x -> x instanceof InterruptionCommand.FlagRebalance
                || x instanceof MarkUnavailable);
    }

    @Test
    void stoppingStartsAGracefulTermination() {
        assertThat(decide(new StateChange(id, T0, "stopping"))).contains(new HintReplacement("a", "interruption"),
                new StartTermination("a", "instance-stopping", null));
        assertThat(decide(new StateChange(id, T0, "stopped"))).contains(new StartTermination("a", "instance-stopped", null));
    }

    @Test
    void terminatedCleansUpAtOnceWithADeadlineOfNow() {
        assertThat(decide(new StateChange(id, T0, "terminated"))).contains(new StartTermination("a", "instance-terminated", now));
        assertThat(decide(new StateChange(id, T0, "shutting-down"))).contains(new StartTermination("a", "instance-shutting-down", now));
    }

    @Test
    void runningAndPendingStatesAreIgnored() {
        assertThat(decide(new StateChange(id, T0, "running"))).singleElement().isInstanceOf(Ignore.class);
        assertThat(decide(new StateChange(id, T0, "pending"))).singleElement().isInstanceOf(Ignore.class);
    }

    @Test
    void healthScheduledChangeReplacesThenTerminates() {
        List<InterruptionCommand> c = decide(new ScheduledChange(id, T0, "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED"));
        assertThat(indexOf(c, HintReplacement.class)).isLessThan(indexOf(c, StartTermination.class));
        assertThat(c).contains(new StartTermination("a", "scheduled-change", null), new EmitMetric("ScheduledChange"));
    }

    /**
     * Gantry's own (Karpenter's scheduled change, aws pkg/controllers/interruption/utils.go actionForMessage, is a
     * CordonAndDrain with no deadline): with the event's date known, the drain turns forceful 5 minutes before it, so a
     * PDB cannot hold the node until EC2 stops it; a date already that close or past means now.
     */
    @Test
    void aScheduledChangeWithADateIsDrainedByFiveMinutesBeforeIt() {
        Instant at = now.plus(Duration.ofHours(1));
        assertThat(decide(new ScheduledChange(id, T0, "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED", at)))
                .contains(new StartTermination("a", "scheduled-change", at.minus(InterruptionDecision.SCHEDULED_MARGIN)));
        assertThat(decide(new ScheduledChange(id, T0, "instance-retirement", now.plusSeconds(60))))
                .contains(new StartTermination("a", "scheduled-change", now));
    }

    @Test
    void eventsForInstancesWithoutAClaimAreIgnoredWithAReason() {
        List<InterruptionCommand> c = InterruptionDecision.decide(new SpotInterruption("i-other", T0), Optional.empty(), Map.of(), now);
        assertThat(c).singleElement().isEqualTo(new Ignore("instance i-other is not owned by Gantry"));
    }

    @Test
    void unsupportedEventsAreIgnored() {
        assertThat(decide(new Unsupported(null, T0, "aws.s3"))).singleElement().isInstanceOf(Ignore.class);
    }

    @Test
    void everyKindIsIgnoredOnceTheClaimIsDeletingWithADeadlineNoLaterThanTheEvents() {
        for (NodeClaim deleting : List.of(claim.draining("x", T0), claim.terminating(T0), claim.terminated(T0, Duration.ofHours(1)))) {
            Optional<Instant> deadline = deleting.state() == dev.gantry.core.lifecycle.NodeClaimState.Terminated
                    ? Optional.empty() : Optional.of(T0);
            for (InterruptionEvent e : List.of(new SpotInterruption(id, T0), new RebalanceRecommendation(id, T0),
                    new StateChange(id, T0, "terminated"), new ScheduledChange(id, T0, "x"),
                    new CapacityReservationInterruption(id, T0, null))) {
                assertThat(InterruptionDecision.decide(e, Optional.of(deleting), Map.of("gantry.dev/rebalance", "replace"),
                        deadline, now)).as(deleting.state() + " " + e).singleElement().isInstanceOf(Ignore.class);
            }
        }
    }

    @Test
    void aSpotWarningForADrainingNodeCapsItsDeadlineAndMarksTheOffering() {
        NodeClaim draining = claim.draining("emptiness", T0);

        List<InterruptionCommand> c = InterruptionDecision.decide(new SpotInterruption(id, T0), Optional.of(draining), Map.of(),
                Optional.empty(), now);

        assertThat(c).contains(new MarkUnavailable(new OfferingKey("m5.large", "us-east-1a", "spot"),
                        now.plus(InterruptionDecision.UNAVAILABLE_FOR)),
                new StartTermination("a", "interruption", T0.plus(InterruptionDecision.SPOT_NOTICE)));
        assertThat(InterruptionDecision.decide(new RebalanceRecommendation(id, T0), Optional.of(draining), Map.of(),
                Optional.empty(), now)).singleElement().isInstanceOf(Ignore.class);
    }

    @Test
    void terminatedBeforeTheSpotWarningLeavesNothingForTheWarning() {
        NodeClaim afterTerminated = claim.draining("instance-terminated", now);
        // The state change gave the drain the deadline "now": the warning's two minutes are later.
        assertThat(InterruptionDecision.decide(new SpotInterruption(id, T0), Optional.of(afterTerminated), Map.of(),
                Optional.of(now), now))
                .singleElement().isInstanceOf(Ignore.class);
    }

    @Test
    void aClaimNotYetRegisteredIsStillTerminatedOnInterruption() {
        NodeClaim young = launched("b", "default");
        assertThat(InterruptionDecision.decide(new SpotInterruption(young.instanceId(), T0), Optional.of(young), Map.of(), now))
                .anyMatch(c -> c instanceof StartTermination);
    }

    @Test
    void noOfferingIsMarkedWhenTheClaimDoesNotKnowItsOffering() {
        NodeClaim unknown = NodeClaim.launching("c", "default", "h", List.of(), List.of(), List.of(), null, null, null, 0, T0);
        assertThat(InterruptionDecision.decide(new SpotInterruption("i-c", T0), Optional.of(unknown), Map.of(), now))
                .noneMatch(c -> c instanceof MarkUnavailable).anyMatch(c -> c instanceof StartTermination);
    }

    private static int indexOf(List<InterruptionCommand> c, Class<?> type) {
        for (int i = 0; i < c.size(); i++) {
            if (type.isInstance(c.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
