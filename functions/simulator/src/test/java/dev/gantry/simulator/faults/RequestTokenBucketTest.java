package dev.gantry.simulator.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RequestTokenBucketTest {
    private static final Instant T0 = Instant.parse("2025-06-01T00:10:00Z");
    private static final RequestTokenBucket.Limits MUTATING = RequestTokenBucket.Limits.MUTATING;

    @Test
    void aFullBucketServesItsCapacityAtOnceThenOnlyEachSecondsRefill() {
        RequestTokenBucket b = new RequestTokenBucket(MUTATING, MUTATING.capacity(), T0, 1);
        int served = 0;
        for (int i = 0; i < 60; i++) {
            served += b.take(T0.plusMillis(i)) ? 1 : 0;
        }
        assertThat(served).isEqualTo(50);
        int next = 0;
        for (int i = 0; i < 10; i++) {
            next += b.take(T0.plusSeconds(1)) ? 1 : 0;
        }
        assertThat(next).as("one refill a second (at the bucket's own phase)").isEqualTo(5);
        assertThat(b.tokens(T0.plusSeconds(60))).as("back to its capacity, never above").isEqualTo(50);
    }

    @Test
    void underANeighbourAskingFourTimesTheRefillAboutOneRequestInFourFindsAToken() {
        RequestTokenBucket b = new RequestTokenBucket(MUTATING, 0, T0, 7);
        b.neighbour(4, T0, T0.plusSeconds(600));
        int served = 0;
        int asked = 0;
        for (long ms = 0; ms < 600_000; ms += 1_370) { // about one request of ours a second, never aligned to the refill
            asked++;
            served += b.take(T0.plusMillis(ms)) ? 1 : 0;
        }
        double share = served / (double) asked;
        assertThat(share).isBetween(0.15, 0.35);
        assertThat(b.neighbourServed() + served).as("never more than the refill: nothing is served from an empty bucket")
                .isLessThanOrEqualTo(600L * MUTATING.refillPerSecond());
    }

    @Test
    void aNeighbourFarAboveTheRefillLeavesAlmostNothingAndTheBucketRefillsOnceItStops() {
        RequestTokenBucket b = new RequestTokenBucket(MUTATING, 0, T0, 3);
        b.neighbour(50, T0, T0.plusSeconds(60));
        int served = 0;
        for (long ms = 0; ms < 60_000; ms += 500) {
            served += b.take(T0.plusMillis(ms)) ? 1 : 0;
        }
        assertThat(served).isLessThanOrEqualTo(6);
        assertThat(b.tokens(T0.plusSeconds(62))).as("two refills after the neighbour stopped").isBetween(10, 15);
        assertThat(b.tokens(T0.plusSeconds(70).plus(Duration.ofMinutes(1)))).isEqualTo(50);
    }

    @Test
    void describeCallsHaveTheLargerNonMutatingBucket() {
        assertThat(RequestTokenBucket.Limits.forAction("DescribeInstances")).isEqualTo(RequestTokenBucket.Limits.NON_MUTATING);
        assertThat(RequestTokenBucket.Limits.forAction("CreateFleet")).isEqualTo(MUTATING);
        assertThat(RequestTokenBucket.Limits.NON_MUTATING.refillPerSecond()).isEqualTo(20);
    }
}
