package dev.gantry.simulator.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * A deterministic discrete-event loop: timed actions run in time order, ties in the order they were scheduled. After
 * all actions at one instant have run, the step listener sees the new state (invariants, sampling). Nothing here reads
 * the wall clock, so a run depends only on what was scheduled.
 */
public final class EventLoop {
    private record Action(Instant at, long seq, String label, Runnable body) {
    }

    private final VirtualClock clock;
    private final PriorityQueue<Action> queue = new PriorityQueue<>((a, b) -> {
        int c = a.at().compareTo(b.at());
        return c != 0 ? c : Long.compare(a.seq(), b.seq());
    });
    private long seq;
    private long steps;

    public EventLoop(VirtualClock clock) {
        this.clock = clock;
    }

    public VirtualClock clock() {
        return clock;
    }

    public Instant now() {
        return clock.instant();
    }

    /** Runs {@code body} at {@code at} (or now, if {@code at} is past). */
    public void at(Instant at, String label, Runnable body) {
        Instant when = at.isBefore(clock.instant()) ? clock.instant() : at;
        queue.add(new Action(when, seq++, label, body));
    }

    public void after(Duration delay, String label, Runnable body) {
        at(clock.instant().plus(delay), label, body);
    }

    /** Runs {@code body} every {@code period}, first at {@code first}, until the loop ends. */
    public void every(Instant first, Duration period, String label, Runnable body) {
        at(first, label, () -> {
            body.run();
            every(clock.instant().plus(period), period, label, body);
        });
    }

    /** How many distinct instants have been processed. */
    public long steps() {
        return steps;
    }

    /**
     * Runs actions until none is due at or before {@code end}; then the clock stands at {@code end}.
     *
     * @param afterStep called once per instant after its actions ran, with the step number
     */
    public void runUntil(Instant end, Consumer<Long> afterStep) {
        while (!queue.isEmpty() && !queue.peek().at().isAfter(end)) {
            Instant t = queue.peek().at();
            clock.set(t);
            while (!queue.isEmpty() && queue.peek().at().equals(t)) {
                queue.poll().body().run();
            }
            steps++;
            afterStep.accept(steps);
        }
        clock.set(end);
    }
}
