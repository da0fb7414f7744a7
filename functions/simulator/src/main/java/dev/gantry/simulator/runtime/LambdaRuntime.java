package dev.gantry.simulator.runtime;

import dev.gantry.simulator.EventLoop;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.SynchronousQueue;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Lambda's runtime on the virtual clock. Each invocation runs on its own (virtual) thread, and a strict baton passes
 * between the {@link EventLoop} and the invocations, so exactly one thread runs at a time and every interleaving is
 * decided by the loop's order, not the JVM's scheduler: a run depends only on its seed.
 *
 * <p>A port call made from an invocation ({@link #call}) costs its {@link Latency}: the call takes effect when it is
 * made, then the invocation parks and the loop resumes it when the answer arrives, with other invocations, the cluster
 * and the scenario moving meanwhile. Calls made outside an invocation (the simulation's own controllers, the scenario)
 * cost nothing.
 *
 * <p>An invocation still running at its deadline (start plus the function's timeout) is killed where it stands: it is
 * resumed with {@link Killed}, which unwinds the handler, and every later call in it throws {@link Killed} too. What it
 * did stays done; what the event source does about its batch (nothing: the messages come back after their visibility
 * timeout) is the caller's {@code onEnd}. {@link CallFaults} may crash an invocation at a call (after the call's
 * effect, before its answer) or make a call hang until the deadline.
 *
 * <p>Not modelled: CPU time (only port calls take time, so a handler that loops without calling a port is instant),
 * cold starts and SnapStart restores, and the runtime's freeze between invocations.
 */
public final class LambdaRuntime {
    /** What a call should suffer, decided before it is made. */
    public enum Decision { NONE, CRASH, HANG }

    /** Decides, per call, whether an invocation crashes or hangs there. */
    @FunctionalInterface
    public interface CallFaults {
        CallFaults NONE = (inv, kind) -> Decision.NONE;

        Decision decide(Invocation invocation, CallKind kind);
    }

    /** How an invocation ended: its result, or what it threw; {@code killed} when it timed out or crashed. */
    public record Outcome<T>(T result, Throwable error, boolean killed, List<String> out, List<String> err) {
    }

    /** One function's invocations so far. */
    public static final class FunctionStats {
        public long invocations;
        public long killedByTimeout;
        public long crashed;
        /** Invocations that finished (were not killed) having used more than 70% of their timeout. */
        public long over70Percent;
        public Duration longest = Duration.ZERO;
        public double longestShare;
        public int peakConcurrent;
    }

    /** One invocation in flight. */
    public static final class Invocation {
        private final String function;
        private final long number;
        private final Instant started;
        private final Duration timeout;
        private final SynchronousQueue<Boolean> wake = new SynchronousQueue<>();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final ByteArrayOutputStream err = new ByteArrayOutputStream();
        private final PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        private Thread thread;
        private int calls;
        private int lanes = 1;
        private long token;
        private boolean dead;
        private boolean timedOut;
        private boolean done;
        private String cause;
        private Runnable onEnd;

        private Invocation(String function, long number, Instant started, Duration timeout) {
            this.function = function;
            this.number = number;
            this.started = started;
            this.timeout = timeout;
        }

        public String function() {
            return function;
        }

        /** 1 for the function's first invocation of the run. */
        public long number() {
            return number;
        }

        /** Port calls made so far (the one being decided included). */
        public int calls() {
            return calls;
        }

        public Instant started() {
            return started;
        }

        public Instant deadline() {
            return started.plus(timeout);
        }
    }

    private static final Object PARKED = new Object();
    private static final Object DONE = new Object();

    private final EventLoop loop;
    private final Latency latency;
    private CallFaults faults = CallFaults.NONE;
    private final SynchronousQueue<Object> back = new SynchronousQueue<>();
    private final Map<String, Long> numbers = new LinkedHashMap<>();
    private final Map<String, FunctionStats> stats = new LinkedHashMap<>();
    private final List<Invocation> live = new ArrayList<>();
    private Invocation running;
    private int detached;
    private boolean shuttingDown;

    public LambdaRuntime(EventLoop loop, Latency latency) {
        this.loop = loop;
        this.latency = latency;
    }

    public void faults(CallFaults f) {
        this.faults = f;
    }

    /**
     * Starts an invocation of {@code function} now and runs it until its first wait (or its end). {@code onEnd} runs
     * on the loop, at the instant the invocation ended, unless the simulation ended first.
     */
    public <T> Invocation start(String function, Duration timeout, Function<Invocation, T> body,
                                BiConsumer<Invocation, Outcome<T>> onEnd) {
        if (running != null) {
            throw new IllegalStateException("an invocation cannot start another directly");
        }
        long n = numbers.merge(function, 1L, Long::sum);
        Invocation inv = new Invocation(function, n, loop.now(), timeout);
        Object[] result = new Object[1];
        Throwable[] error = new Throwable[1];
        inv.thread = Thread.ofVirtual().name("sim-" + function + "-" + n).unstarted(() -> {
            try {
                take(inv.wake);
                result[0] = body.apply(inv);
            } catch (Throwable t) {
                error[0] = t;
            } finally {
                inv.done = true;
                put(back, DONE);
            }
        });
        live.add(inv);
        FunctionStats fs = stats.computeIfAbsent(function, k -> new FunctionStats());
        fs.peakConcurrent = Math.max(fs.peakConcurrent, inFlight(function));
        inv.thread.start();
        loop.at(inv.deadline(), "timeout of " + inv.thread.getName(), () -> {
            if (!inv.done) {
                inv.dead = true;
                inv.timedOut = true;
                inv.cause = function + " invocation " + n + " timed out after " + timeout.toSeconds() + " s";
                resume(inv, false);
            }
        });
        inv.onEnd = () -> {
            live.remove(inv);
            FunctionStats s = stats.computeIfAbsent(function, k -> new FunctionStats());
            s.invocations++;
            Duration took = Duration.between(inv.started, loop.now());
            double share = took.toNanos() / (double) timeout.toNanos();
            if (took.compareTo(s.longest) > 0) {
                s.longest = took;
                s.longestShare = share;
            }
            boolean killed = error[0] instanceof Killed;
            if (share > 0.7 && !killed) {
                s.over70Percent++;
            }
            if (inv.timedOut) {
                s.killedByTimeout++;
            } else if (killed) {
                s.crashed++;
            }
            if (!shuttingDown) {
                @SuppressWarnings("unchecked") T r = (T) result[0];
                Outcome<T> o = new Outcome<>(r, error[0], killed, lines(inv.out), lines(inv.err));
                loop.at(loop.now(), "end of " + inv.thread.getName(), () -> onEnd.accept(inv, o));
            }
        };
        resume(inv, true);
        return inv;
    }

    /** The invocation making the current call, or null when the caller is not an invocation. */
    public Invocation current() {
        return running != null && detached == 0 && Thread.currentThread() == running.thread ? running : null;
    }

    /**
     * Runs {@code body} as someone else's work, though an invocation's thread runs it: what the API server does
     * inside a request (calling an admission webhook, say) costs the invocation nothing beyond the request itself.
     */
    public void detached(Runnable body) {
        detached++;
        try {
            body.run();
        } finally {
            detached--;
        }
    }

    /** A port call returning {@code T}; {@code items} sizes the answer for its latency. */
    public <T> T call(CallKind kind, Supplier<T> body, ToIntFunction<T> items) {
        Invocation inv = current();
        if (inv == null) {
            return body.get();
        }
        if (inv.dead) {
            throw new Killed(inv.cause);
        }
        inv.calls++;
        Decision d = faults.decide(inv, kind);
        if (d == Decision.HANG) {
            inv.cause = inv.function + " invocation " + inv.number + " hung at call " + inv.calls + " (" + kind.yamlName() + ")";
            park(inv); // nothing resumes it but the deadline
        }
        T result = null;
        RuntimeException error = null;
        try {
            result = body.get();
        } catch (RuntimeException e) {
            error = e;
        }
        if (d == Decision.CRASH) {
            inv.dead = true;
            inv.cause = inv.function + " invocation " + inv.number + " crashed at call " + inv.calls + " (" + kind.yamlName() + ")";
            throw new Killed(inv.cause);
        }
        Duration cost = latency.draw(kind, error == null && result != null ? items.applyAsInt(result) : 0);
        sleep(inv.lanes == 1 ? cost : Duration.ofMillis(Math.round(cost.toMillis() / (double) inv.lanes)));
        if (error != null) {
            throw error;
        }
        return result;
    }

    /**
     * Runs {@code body}, whose port calls the current invocation makes on {@code lanes} lanes at once (a fan-out of
     * independent launches, say), though they run one after another on its thread, in order: each call costs
     * {@code 1/lanes} of its latency, so the fan-out takes what {@code lanes} lanes would take together, and its
     * effects land spread over that time in call order. Deterministic; a lane's own waits are not modelled (a call
     * that waits for another lane's call costs the same as any other). Outside an invocation, {@code body} just runs.
     */
    public <T> T sharing(int lanes, Supplier<T> body) {
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be at least 1, got " + lanes);
        }
        Invocation inv = current();
        if (inv == null) {
            return body.get();
        }
        int before = inv.lanes;
        inv.lanes = lanes;
        try {
            return body.get();
        } finally {
            inv.lanes = before;
        }
    }

    public void call(CallKind kind, Runnable body) {
        call(kind, () -> {
            body.run();
            return Boolean.TRUE;
        }, x -> 0);
    }

    /** The current invocation waits {@code d} (a client's retry backoff); nothing outside an invocation. */
    public void sleep(Duration d) {
        Invocation inv = current();
        if (inv == null || d.isZero() || d.isNegative()) {
            return;
        }
        long token = ++inv.token;
        loop.at(loop.now().plus(d), "resume " + inv.thread.getName(), () -> {
            if (!inv.done && !inv.dead && inv.token == token) {
                resume(inv, true);
            }
        });
        park(inv);
    }

    /** Kills the current invocation now (a crash); throws {@link Killed}. */
    public void crash(String why) {
        Invocation inv = current();
        if (inv == null) {
            throw new IllegalStateException("no invocation is running");
        }
        inv.dead = true;
        inv.cause = why;
        throw new Killed(why);
    }

    /** Invocations in flight for {@code function}. */
    public int inFlight(String function) {
        return (int) live.stream().filter(i -> i.function.equals(function)).count();
    }

    /** The run is over: every invocation still in flight is killed, and its {@code onEnd} is not run. */
    public void shutdown() {
        shuttingDown = true;
        for (Invocation inv : List.copyOf(live)) {
            if (!inv.done) {
                inv.dead = true;
                inv.cause = "the simulation ended";
                resume(inv, false);
            }
        }
    }

    /** Per function, in the order they first ran. */
    public Map<String, FunctionStats> stats() {
        return stats;
    }

    /** On the loop: hands the baton to {@code inv} until it waits again or ends. */
    private void resume(Invocation inv, boolean go) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        running = inv;
        System.setOut(inv.outStream);
        System.setErr(inv.errStream);
        Object r;
        try {
            put(inv.wake, go);
            r = awaitBaton(inv);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
            running = null;
        }
        if (r == DONE) {
            inv.onEnd.run();
        }
    }

    /** On the invocation: gives the baton back and waits for it; a kill signal throws {@link Killed}. */
    private void park(Invocation inv) {
        put(back, PARKED);
        boolean go = take(inv.wake);
        if (!go || inv.dead) {
            throw new Killed(inv.cause);
        }
    }

    /** Real time an invocation may run between two port calls before the simulation gives up on it. */
    private static final long STUCK_MINUTES = 10;

    /**
     * Waits for the invocation to wait again or end. An invocation that blocks outside a port call (on a lock another,
     * parked, invocation holds) would hang the simulation: fail loudly instead.
     */
    private Object awaitBaton(Invocation inv) {
        while (true) {
            try {
                Object r = back.poll(STUCK_MINUTES, java.util.concurrent.TimeUnit.MINUTES);
                if (r == null) {
                    throw new IllegalStateException(inv.thread.getName() + " ran " + STUCK_MINUTES
                            + " minutes of real time without a port call: blocked outside the simulation's control?");
                }
                return r;
            } catch (InterruptedException e) {
                // The baton must not be dropped: keep waiting.
            }
        }
    }

    private static <T> T take(SynchronousQueue<T> q) {
        while (true) {
            try {
                return q.take();
            } catch (InterruptedException e) {
                // The baton must not be dropped: keep waiting.
            }
        }
    }

    private static <T> void put(SynchronousQueue<T> q, T v) {
        while (true) {
            try {
                q.put(v);
                return;
            } catch (InterruptedException e) {
                // as above
            }
        }
    }

    private static List<String> lines(ByteArrayOutputStream s) {
        String text = s.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : text.lines().toList();
    }
}
