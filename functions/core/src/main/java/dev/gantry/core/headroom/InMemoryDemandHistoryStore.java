package dev.gantry.core.headroom;

import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/** A {@link DemandHistoryStore} in memory, for tests and the simulator. Thread-safe. */
public final class InMemoryDemandHistoryStore implements DemandHistoryStore {
    private final AtomicReference<DemandHistory> history = new AtomicReference<>(DemandHistory.EMPTY);

    @Override
    public void record(String nodePool, Instant at, Resources pending) {
        history.updateAndGet(h -> h.record(nodePool, at, pending));
    }

    @Override
    public DemandHistory read(Instant now) {
        return history.get().prune(now);
    }
}
