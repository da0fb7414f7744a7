package dev.gantry.aws.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Stale-while-revalidate: expired prices are served while the next ones are fetched, off the caller's path. */
class RefreshingTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    private final AtomicInteger fetches = new AtomicInteger();
    /** Refresh tasks wait here until the test runs them, as a background thread would later. */
    private final Deque<Runnable> background = new ArrayDeque<>();
    private final Refreshing<Integer> prices = new Refreshing<>("prices", fetches::incrementAndGet, clock, Duration.ofHours(12),
            Duration.ofMinutes(1), background::add);

    @Test
    void theFirstValueIsFetchedByTheCallerBecauseThereIsNothingToServeYet() {
        assertThat(prices.get()).hasValue(1);
        assertThat(background).isEmpty();
    }

    @Test
    void anExpiredValueIsServedWhileTheNextIsFetchedInTheBackground() {
        prices.get();
        clock.advance(Duration.ofHours(13));

        assertThat(prices.get()).hasValue(1); // no wait for the fetch
        assertThat(prices.get()).hasValue(1);
        assertThat(background).hasSize(1); // one refresh at a time, however many callers

        background.poll().run();
        assertThat(prices.get()).hasValue(2);
        assertThat(fetches).hasValue(2);
    }

    @Test
    void refreshIfStaleDoesNothingWhileTheValueIsFreshAndRefreshesOnceItExpired() {
        prices.get();
        prices.refreshIfStale();
        assertThat(background).isEmpty();

        clock.advance(Duration.ofHours(12));
        prices.refreshIfStale();
        background.poll().run();
        assertThat(prices.get()).hasValue(2);
    }
}
