package dev.gantry.simulator.observe;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The latest Events Gantry recorded through the API server, as a cluster's event TTL keeps only recent ones. */
public final class EventLog {
    static final int KEPT = 1_000;

    /** An Event as the API server stored it, with its time. */
    public record Event(Instant at, String kind, String namespace, String name, String type, String reason, String message) {
    }

    private final Deque<Event> events = new ArrayDeque<>();

    void add(Event e) {
        events.addLast(e);
        if (events.size() > KEPT) {
            events.removeFirst();
        }
    }

    public List<Event> list() {
        return List.copyOf(events);
    }
}
