package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HeartbeatTest {
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
