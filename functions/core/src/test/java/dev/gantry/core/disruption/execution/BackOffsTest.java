package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code gantry status} reads of the pools' back-offs: the markers still in force, by pool and kind. */
class BackOffsTest {
    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");

    @Test
    void theBackOffsInForceAreReadByPoolAndKindAndThoseOverAreNot() {
        InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
        Instant until = new PoolBackoff(store, PoolBackoff.CONSOLIDATION).failed("general", NOW);
        new PoolBackoff(store, PoolBackoff.DRIFT).failed("gpu", NOW.minus(Duration.ofMinutes(5))); // over a minute later

        assertThat(BackOffs.of(store, List.of("general", "gpu", "idle"), NOW))
                .containsExactly(new BackOffs.Held("general", "consolidation launches", until));
        assertThat(until).isEqualTo(NOW.plus(PoolBackoff.FIRST));
        assertThat(BackOffs.of(store, List.of("general"), until)).as("over at its end").isEmpty();
    }
}
