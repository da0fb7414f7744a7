package dev.gantry.simulator.observe;

import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Each pod's time to schedule: from its creation to its first binding (a pod bound again after an eviction is a new
 * pod), for the whole run, for the pods created from an instant on, and for the morning ramp's window.
 */
final class SchedulingTimes {
    private final ToLongFunction<Instant> secondsSinceStart;
    private final Map<String, Instant> createdAt = new HashMap<>();
    private final Set<String> everBound = new HashSet<>();
    private final List<Double> all = new ArrayList<>();
    /** Each scheduled pod's creation (seconds from the start) and time to schedule, for a window's figures. */
    private final List<double[]> scheduledAt = new ArrayList<>();
    private final List<Double> ramp = new ArrayList<>();
    private Instant rampFrom;
    private Instant rampUntil;

    SchedulingTimes(ToLongFunction<Instant> secondsSinceStart) {
        this.secondsSinceStart = secondsSinceStart;
    }

    /** Pods created in {@code [from, until)} also count in {@link #ramp()}. */
    void ramp(Instant from, Instant until) {
        this.rampFrom = from;
        this.rampUntil = until;
    }

    void created(Pod p) {
        createdAt.put(p.uid(), p.status().createdAt());
    }

    /** The pod was bound at {@code now}: its time to schedule, the first time only. */
    void bound(Pod p, Instant now) {
        if (!everBound.add(p.uid())) {
            return;
        }
        Instant c = createdAt.get(p.uid());
        if (c == null) {
            return;
        }
        double seconds = Duration.between(c, now).toMillis() / 1000.0;
        all.add(seconds);
        scheduledAt.add(new double[] {secondsSinceStart.applyAsLong(c), seconds});
        if (rampFrom != null && !c.isBefore(rampFrom) && c.isBefore(rampUntil)) {
            ramp.add(seconds);
        }
    }

    /** How many pods were ever bound. */
    int scheduled() {
        return everBound.size();
    }

    List<Double> all() {
        return all;
    }

    List<Double> ramp() {
        return ramp;
    }

    /** The time to schedule of the pods created at or after {@code t} seconds from the start. */
    List<Double> from(long t) {
        return scheduledAt.stream().filter(a -> a[0] >= t).map(a -> a[1]).toList();
    }
}
