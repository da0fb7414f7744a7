package dev.gantry.simulator.runtime;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * Whole-list reads (pods, nodes, claims) per function, as the simulated API server and store answer them, and how many
 * were repeats: a list an invocation made again with no write of its own finished since its previous one of the same
 * list (for the claims, at a time not before that one's: a list of the claims live at an earlier instant is another
 * read). A sweep in its read scope ({@code InvocationScope}) makes none but after a failed read; without the scope,
 * every step that lists reads again. Only calls made from an invocation count.
 */
public final class ReadTally {
    /** One list's count in one function: {@code lists} made, {@code repeats} among them. */
    public record Count(long lists, long repeats) {
    }

    private final Supplier<Invocation> current;
    private final Map<String, Map<String, long[]>> counts = new LinkedHashMap<>();
    /** Each live invocation's lists since its last write, with the instant each was read at (weak: ended ones go). */
    private final Map<Invocation, Map<String, Instant>> sinceWrite = new WeakHashMap<>();

    ReadTally(Supplier<Invocation> current) {
        this.current = current;
    }

    /** The current invocation lists {@code what} whole (pods, nodes: they have no instant of their own). */
    public void listed(String what) {
        listed(what, Instant.MIN);
    }

    /** The current invocation lists {@code what} whole, as live at {@code at}. */
    public synchronized void listed(String what, Instant at) {
        Invocation inv = current.get();
        if (inv == null) {
            return;
        }
        long[] c = counts.computeIfAbsent(inv.function(), f -> new LinkedHashMap<>()).computeIfAbsent(what, w -> new long[2]);
        c[0]++;
        Instant before = sinceWrite.computeIfAbsent(inv, i -> new HashMap<>()).put(what, at);
        if (before != null && !at.isBefore(before)) {
            c[1]++;
        }
    }

    /** A write of the current invocation finished (whether or not it took), which may have changed {@code lists}. */
    public synchronized void written(String... lists) {
        Invocation inv = current.get();
        Map<String, Instant> listed = inv == null ? null : sinceWrite.get(inv);
        if (listed != null) {
            for (String l : lists) {
                listed.remove(l);
            }
        }
    }

    /** {@code function}'s lists of {@code what} so far. */
    public synchronized Count count(String function, String what) {
        long[] c = counts.getOrDefault(function, Map.of()).get(what);
        return c == null ? new Count(0, 0) : new Count(c[0], c[1]);
    }
}
