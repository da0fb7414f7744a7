package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.deployment.CallTimeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeartbeatTest {
    /** Beats on a virtual clock that only sleeps and slow beats move: the starts of the first {@code n} beats. */
    private static List<Duration> starts(Duration every, int n, java.util.function.IntFunction<Duration> beatTakes)
            throws InterruptedException {
        AtomicLong now = new AtomicLong();
        List<Duration> starts = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(n);
        Heartbeat.Beat beat = Heartbeat.onThread(now::get, d -> now.addAndGet(d.toNanos())).start(every, () -> {
            if (starts.size() < n) {
                starts.add(Duration.ofNanos(now.get()));
                now.addAndGet(beatTakes.apply(starts.size()).toNanos());
                done.countDown();
            }
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        beat.close();
        return new ArrayList<>(starts.subList(0, n));
    }

    @Test
    void beatsStartAtAFixedRateSoASlowBeatDoesNotPushTheNextOnesBack() throws InterruptedException {
        assertThat(starts(Duration.ofSeconds(7), 4, k -> Duration.ofSeconds(6)))
                .containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(14), Duration.ofSeconds(21), Duration.ofSeconds(28));
    }

    @Test
    void aBeatThatOverranItsSlotIsFollowedByTheNextAtOnce() throws InterruptedException {
        assertThat(starts(Duration.ofSeconds(7), 3, k -> k == 1 ? Duration.ofSeconds(9) : Duration.ZERO))
                .containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(16), Duration.ofSeconds(21));
    }

    /**
     * Regression (#21): renewals came {@code RENEW_EVERY} (10 s) after the previous one ended, and one may hang for
     * the SQS call's whole budget (6 s), so two slow renewals in a row let the 30 s lease lapse and the batch come
     * back while the run lived. Now: a renewal that lands at once, two that each hang for the whole budget and fail,
     * and the third after it, landing at the end of its budget, still lands inside the lease.
     */
    @Test
    void twoRenewalsFailingInARowAfterHangingForTheirWholeBudgetStillLeaveTheLeaseHeld() throws InterruptedException {
        Duration budget = CallTimeouts.DEFAULT.sqs().call();
        List<Duration> s = starts(ProvisioningQueueHandler.RENEW_EVERY, 4, k -> k == 1 ? Duration.ZERO : budget);
        Duration leaseEnds = s.get(0).plus(ProvisioningQueueHandler.LEASE);
        Duration thirdLandsBy = s.get(3).plus(budget);
        assertThat(thirdLandsBy).isLessThan(leaseEnds);
    }

    @Test
    void theThreadBeatsUntilClosedAndNotOnceAfter() throws InterruptedException {
        AtomicInteger beats = new AtomicInteger();
        Heartbeat.Beat beat = Heartbeat.THREAD.start(Duration.ofMillis(10), beats::incrementAndGet);
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (beats.get() < 3 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        beat.close();
        int atClose = beats.get();
        Thread.sleep(100);
        assertThat(atClose).isGreaterThanOrEqualTo(3);
        assertThat(beats.get()).isEqualTo(atClose);
    }

    @Test
    void aFailingBeatDoesNotStopTheNext() throws InterruptedException {
        AtomicInteger beats = new AtomicInteger();
        Heartbeat.Beat beat = Heartbeat.THREAD.start(Duration.ofMillis(10), () -> {
            beats.incrementAndGet();
            throw new IllegalStateException("the queue said no");
        });
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (beats.get() < 2 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        beat.close();
        assertThat(beats.get()).isGreaterThanOrEqualTo(2);
    }
}
