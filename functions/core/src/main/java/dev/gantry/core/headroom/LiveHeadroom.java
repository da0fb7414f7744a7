package dev.gantry.core.headroom;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The {@link Headroom} a deployed Gantry (and the simulator) runs with: buffers and the objects they refer to read
 * from their {@link Source} on every call (the config bundle's, with the cluster's laid over), the demand history
 * read only when a predicted buffer needs it, and the boot lead computed only when a scheduled buffer needs it.
 * Errors: whatever the source or the store throws propagates, as the port's contract allows; the callers absorb it.
 */
public final class LiveHeadroom implements Headroom {
    /** The buffers and their targets, as read now. */
    public record Buffers(List<CapacityBuffer> buffers, BufferTargets targets) {
        public static final Buffers NONE = new Buffers(List.of(), BufferTargets.NONE);

        public Buffers {
            buffers = List.copyOf(buffers);
            targets = targets == null ? BufferTargets.NONE : targets;
        }
    }

    /** Where buffers come from. Implementations say which failures they absorb (a missing CRD: no buffers). */
    @FunctionalInterface
    public interface Source {
        Buffers read();
    }

    private final Source source;
    private final DemandHistoryStore history;
    private final Function<Instant, Duration> bootLead;

    /** @param bootLead how early scheduled buffers open, as of an instant (see {@link BootLead}) */
    public LiveHeadroom(Source source, DemandHistoryStore history, Function<Instant, Duration> bootLead) {
        this.source = Objects.requireNonNull(source, "source");
        this.history = Objects.requireNonNull(history, "history");
        this.bootLead = Objects.requireNonNull(bootLead, "bootLead");
    }

    @Override
    public HeadroomPlan at(Instant now) {
        Buffers b = source.read();
        if (b.buffers().isEmpty()) {
            return HeadroomPlan.NONE;
        }
        boolean predicted = b.buffers().stream().anyMatch(x -> x.prediction() != null);
        boolean scheduled = b.buffers().stream().anyMatch(x -> x.schedule() != null || x.prediction() != null);
        DemandHistory h = predicted ? history.read(now) : DemandHistory.EMPTY;
        Duration lead = scheduled ? bootLead.apply(now) : Duration.ZERO;
        return HeadroomPlan.of(b.buffers(), b.targets(), h, now, lead);
    }
}
