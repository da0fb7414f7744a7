package dev.gantry.core.interruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.interruption.InterruptionEvent.CapacityReservationInterruption;
import dev.gantry.core.interruption.InterruptionEvent.RebalanceRecommendation;
import dev.gantry.core.interruption.InterruptionEvent.ScheduledChange;
import dev.gantry.core.interruption.InterruptionEvent.SpotInterruption;
import dev.gantry.core.interruption.InterruptionEvent.StateChange;
import dev.gantry.core.interruption.InterruptionEvent.Unsupported;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterruptionEventTest {
    static final Instant T = Instant.parse("2025-06-01T12:00:00Z");
    static final String ID = "i-0abcd1234efgh5678";

    static EventEnvelope ec2(String detailType, Map<String, String> detail) {
        return new EventEnvelope("e1", "aws.ec2", detailType, T, detail, List.of(), List.of());
    }

    @Test
    void spotWarningNamesTheInstance() {
        assertThat(InterruptionEvent.from(ec2("EC2 Spot Instance Interruption Warning", Map.of("instance-id", ID, "instance-action", "terminate"))))
                .containsExactly(new SpotInterruption(ID, T));
    }

    @Test
    void rebalanceRecommendationNamesTheInstance() {
        assertThat(InterruptionEvent.from(ec2("EC2 Instance Rebalance Recommendation", Map.of("instance-id", ID))))
                .containsExactly(new RebalanceRecommendation(ID, T));
    }

    @Test
    void stateChangeCarriesTheState() {
        assertThat(InterruptionEvent.from(ec2("EC2 Instance State-change Notification", Map.of("instance-id", ID, "state", "stopping"))))
                .containsExactly(new StateChange(ID, T, "stopping"));
    }

    @Test
    void capacityReservationWarningCarriesItsTerminationTime() {
        assertThat(InterruptionEvent.from(ec2("EC2 Capacity Reservation Instance Interruption Warning",
                Map.of("instance-id", ID, "instance-termination-time", "2025-06-01T12:02:00Z"))))
                .containsExactly(new CapacityReservationInterruption(ID, T, Instant.parse("2025-06-01T12:02:00Z")));
    }

    @Test
    void healthScheduledChangeGivesOneEventPerAffectedInstance() {
        EventEnvelope e = new EventEnvelope("h", "aws.health", "AWS Health Event", T,
                Map.of("service", "EC2", "eventTypeCategory", "scheduledChange", "eventTypeCode", "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED"),
                List.of(), List.of(ID, "i-2", "vol-1"));
        List<InterruptionEvent> events = InterruptionEvent.from(e);
        assertThat(events).hasSize(3);
        assertThat(events.get(0)).isEqualTo(new ScheduledChange(ID, T, "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED"));
        assertThat(events.get(1)).isEqualTo(new ScheduledChange("i-2", T, "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED"));
        assertThat(events.get(2)).isInstanceOf(Unsupported.class);
    }

    /** Gantry's own: AWS Health's startTime (RFC 1123, as EventBridge delivers it) is the date the drain must beat. */
    @Test
    void healthScheduledChangeCarriesItsStartTime() {
        EventEnvelope e = new EventEnvelope("h", "aws.health", "AWS Health Event", T,
                Map.of("service", "EC2", "eventTypeCategory", "scheduledChange", "eventTypeCode", "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED",
                        "startTime", "Sun, 08 Jun 2025 09:00:00 GMT"), List.of(), List.of(ID));
        assertThat(InterruptionEvent.from(e)).containsExactly(
                new ScheduledChange(ID, T, "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED", Instant.parse("2025-06-08T09:00:00Z")));
        assertThat(InterruptionEvent.healthDate("next Tuesday")).isNull();
    }

    @Test
    void healthEventsForOtherServicesOrCategoriesAreUnsupported() {
        EventEnvelope rds = new EventEnvelope("h", "aws.health", "AWS Health Event", T,
                Map.of("service", "RDS", "eventTypeCategory", "scheduledChange"), List.of(), List.of("db-1"));
        EventEnvelope issue = new EventEnvelope("h", "aws.health", "AWS Health Event", T,
                Map.of("service", "EC2", "eventTypeCategory", "issue"), List.of(), List.of(ID));
        assertThat(InterruptionEvent.from(rds)).singleElement().isInstanceOf(Unsupported.class);
        assertThat(InterruptionEvent.from(issue)).singleElement().isInstanceOf(Unsupported.class);
    }

    @Test
    void unknownDetailTypesAndSourcesAreUnsupported() {
        assertThat(InterruptionEvent.from(ec2("EC2 AMI State Change", Map.of()))).singleElement().isInstanceOf(Unsupported.class);
        assertThat(InterruptionEvent.from(new EventEnvelope("x", "aws.s3", "Object Created", T, Map.of(), List.of(), List.of())))
                .singleElement().isInstanceOf(Unsupported.class);
    }

    @Test
    void rejectsSpotWarningWithoutInstanceId() {
        assertThatThrownBy(() -> InterruptionEvent.from(ec2("EC2 Spot Instance Interruption Warning", Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("instance-id");
    }

    @Test
    void rejectsStateChangeWithoutState() {
        assertThatThrownBy(() -> InterruptionEvent.from(ec2("EC2 Instance State-change Notification", Map.of("instance-id", ID))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("state");
    }

    @Test
    void rejectsInstanceIdThatIsNotOne() {
        assertThatThrownBy(() -> InterruptionEvent.from(ec2("EC2 Instance Rebalance Recommendation", Map.of("instance-id", "vol-1"))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsHealthEventWithoutEntities() {
        EventEnvelope e = new EventEnvelope("h", "aws.health", "AWS Health Event", T,
                Map.of("service", "EC2", "eventTypeCategory", "scheduledChange"), List.of(), List.of());
        assertThatThrownBy(() -> InterruptionEvent.from(e)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsEventWithoutTime() {
        EventEnvelope e = new EventEnvelope("x", "aws.ec2", "EC2 Instance Rebalance Recommendation", null, Map.of("instance-id", ID), List.of(), List.of());
        assertThatThrownBy(() -> InterruptionEvent.from(e)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void stateChangeKnowsWhichStatesMeanGoing() {
        for (String s : List.of("stopping", "stopped", "shutting-down", "terminated")) {
            assertThat(new StateChange(ID, T, s).isGoing()).as(s).isTrue();
        }
        for (String s : List.of("pending", "running")) {
            assertThat(new StateChange(ID, T, s).isGoing()).as(s).isFalse();
        }
        assertThat(new StateChange(ID, T, "terminated").isGone()).isTrue();
        assertThat(new StateChange(ID, T, "stopped").isGone()).isFalse();
    }
}
