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

    @Test
    void sqsBillsEverySixtyFourKilobyteChunkADroppedFifoDuplicateAndOneDeletePerTenMessages() {
        dev.gantry.simulator.bill.SelfUsage usage = new dev.gantry.simulator.bill.SelfUsage();
        SimulatedQueue q = new SimulatedQueue("q.fifo", true, Duration.ofSeconds(30), 5, clock);
        q.meter(usage, 64 * 1024);
        q.send("x".repeat(200 * 1024), "g", "big", Duration.ZERO);
        q.send("small", "g", "d1", Duration.ZERO);
        q.send("small", "g", "d1", Duration.ZERO); // dropped as a duplicate, billed all the same
        for (int i = 0; i < 9; i++) {
            q.send("m" + i, "g", "n" + i, Duration.ZERO);
        }
        assertThat(usage.sqsRequests("q.fifo", "SendMessage")).isEqualTo(4 + 1 + 1 + 9);
        var batch = q.receive(10);
        assertThat(batch).hasSize(10);
        assertThat(usage.sqsRequests("q.fifo", "ReceiveMessage")).as("one receive, its 200 KB answer in four chunks")
                .isEqualTo(4);
        q.deleteAll(batch);
        var rest = q.receive(10);
        q.deleteAll(rest);
        assertThat(usage.sqsRequests("q.fifo", "DeleteMessageBatch")).isEqualTo(2);
        assertThat(q.depth()).isZero();
        assertThat(q.receive(10)).isEmpty();
        assertThat(usage.sqsRequests("q.fifo", "ReceiveMessage")).as("empty polls are the bill's to add").isEqualTo(5);
    }
}
