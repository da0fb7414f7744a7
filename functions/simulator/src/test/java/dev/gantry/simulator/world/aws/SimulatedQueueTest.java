package dev.gantry.simulator.world.aws;

import dev.gantry.simulator.runtime.VirtualClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SimulatedQueueTest {
    private final VirtualClock clock = new VirtualClock(Instant.parse("2025-06-01T00:00:00Z"));

    @Test
    void fifoDropsADuplicateDeduplicationIdWithinFiveMinutes() {
        SimulatedQueue q = new SimulatedQueue("q.fifo", true, Duration.ofSeconds(30), 5, clock);
        q.send("a", "g", "d1", Duration.ZERO);
        q.send("a again", "g", "d1", Duration.ZERO);
        clock.advance(Duration.ofMinutes(6));
        q.send("a later", "g", "d1", Duration.ZERO);
        assertThat(q.receive(10)).extracting(SimulatedQueue.Message::body).containsExactly("a", "a later");
        assertThat(q.duplicateCount()).isEqualTo(1);
    }

    @Test
    void changingTheVisibilityBringsAMessageBackEarlyButOnlyThroughItsLatestReceiptHandle() {
        SimulatedQueue q = new SimulatedQueue("q.fifo", true, Duration.ofMinutes(6), 5, clock);
        q.send("1", "g", "d1", Duration.ZERO);
        SimulatedQueue.Message first = q.receive(1).getFirst();
        q.redeliverAfter(first.receiptHandle(), Duration.ofSeconds(10));
        q.release(first);
        clock.advance(Duration.ofSeconds(9));
        assertThat(q.receive(10)).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        SimulatedQueue.Message second = q.receive(10).getFirst();
        assertThat(second.receiveCount()).isEqualTo(2);
        assertThatThrownBy(() -> q.redeliverAfter(first.receiptHandle(), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
        q.delete(second);
        assertThatThrownBy(() -> q.redeliverAfter(second.receiptHandle(), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void fifoHoldsAGroupWhileOneOfItsMessagesIsInFlight() {
        SimulatedQueue q = new SimulatedQueue("q.fifo", true, Duration.ofSeconds(30), 5, clock);
        q.send("1", "g", "d1", Duration.ZERO);
        SimulatedQueue.Message first = q.receive(1).getFirst();
        q.send("2", "g", "d2", Duration.ZERO);
        assertThat(q.receive(10)).isEmpty();
        q.delete(first);
        assertThat(q.receive(10)).extracting(SimulatedQueue.Message::body).containsExactly("2");
    }

    @Test
    void standardQueueDelaysAMessageAndRedeliversAfterTheVisibilityTimeoutThenDeadLetters() {
        SimulatedQueue q = new SimulatedQueue("q", false, Duration.ofSeconds(30), 2, clock);
        q.send("later", null, null, Duration.ofSeconds(15));
        assertThat(q.receive(10)).isEmpty();
        clock.advance(Duration.ofSeconds(15));
        assertThat(q.receive(10)).hasSize(1);
        assertThat(q.receive(10)).isEmpty();
        clock.advance(Duration.ofSeconds(30));
        assertThat(q.receive(10)).singleElement().extracting(SimulatedQueue.Message::receiveCount).isEqualTo(2);
        clock.advance(Duration.ofSeconds(30));
        assertThat(q.receive(10)).isEmpty();
        assertThat(q.deadLetters()).containsExactly("later");
    }

    @Test
    void aMessageOlderThanTheRetentionIsDeletedAndCountedAsLost() {
        SimulatedQueue q = new SimulatedQueue("q", false, Duration.ofMinutes(3), 5, clock);
        q.retention(Duration.ofMinutes(5));
        q.send("spot warning", null, null, null);
        SimulatedQueue.Message m = q.receive(1).getFirst();
        q.release(m); // the consumer failed it
        clock.advance(Duration.ofMinutes(3));
        assertThat(q.receive(1)).singleElement().extracting(SimulatedQueue.Message::receiveCount).isEqualTo(2);
        clock.advance(Duration.ofMinutes(3));
        assertThat(q.receive(1)).isEmpty();
        assertThat(q.expiredCount()).isEqualTo(1);
        assertThat(q.deadLetters()).isEmpty();
    }

    @Test
    void aStandardQueueDeliversSomeMessagesTwiceAtTheDuplicateRate() {
        SimulatedQueue q = new SimulatedQueue("q", false, Duration.ofMinutes(3), 5, clock);
        q.runtime(null, new dev.gantry.simulator.faults.Faults(dev.gantry.simulator.faults.FaultPlan.NONE
                .withSqs(new dev.gantry.simulator.faults.FaultPlan.Sqs(1)), 1));
        q.send("drain node-1", null, null, null);
        SimulatedQueue.Message first = q.receive(1).getFirst();
        SimulatedQueue.Message copy = q.receive(1).getFirst();
        assertThat(copy.body()).isEqualTo(first.body());
        assertThat(q.duplicateDeliveries()).isEqualTo(2); // the copy was duplicated as well
    }
}
