package dev.gantry.simulator.runtime;

import dev.gantry.config.deployment.CallTimeouts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Lambda's runtime on the virtual clock. Each invocation runs on its own (virtual) thread, plus one per lane while it
 * fans out ({@link #fanOut}: the provisioner's launches, 8 at a time), and a strict baton passes between the
 * {@link EventLoop} and those threads, so exactly one thread runs at a time and every interleaving is decided by the
 * loop's order, not the JVM's scheduler: a run depends only on its seed.
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
 * effect, before its answer), leave an attempt of a call unanswered (a {@code hang}: the client gives up on it at its
 * {@link CallTimeouts} attempt timeout and retries, as the production clients are built to; see {@link UnansweredAttempts}),
 * or freeze the whole invocation at a call until Lambda kills it at its deadline (a {@code freeze}: a runtime that
 * stopped making progress, which no client timeout ends).
 *
 * <p>A {@link #beat heartbeat} is one more thread of the invocation: its calls cost their latency and draw their
 * faults like any other (a crash at one kills the invocation), and stopping it waits for a beat under way.
 *
 * <p>Not modelled here: service-side rate limits shared by concurrent calls (EC2's request-rate buckets are the
 * simulated EC2's own; the API server's priority-and-fairness queues are not modelled at all); CPU time (only port
 * calls take time, so a handler that loops without calling a port is instant), cold starts and SnapStart restores, and
 * the runtime's freeze between invocations.
 */
public final class LambdaRuntime {


    private static final Object PARKED = new Object();
    static final Object DONE = new Object();

    final EventLoop loop;
    private final Latency latency;
    private CallFaults faults = CallFaults.NONE;
    private final UnansweredAttempts unanswered = new UnansweredAttempts(CallTimeouts.DEFAULT);
    private final Map<String, Long> numbers = new LinkedHashMap<>();
    private final Map<String, FunctionStats> stats = new LinkedHashMap<>();
    private final List<Invocation> live = new ArrayList<>();
    private final ReadTally reads = new ReadTally(this::current);
    Strand running;
    private int detached;
    boolean shuttingDown;

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
        Strand main = new Strand(inv);
        inv.main = main;
        main.thread = Thread.ofVirtual().name("sim-" + function + "-" + n).unstarted(() -> {
            try {
                Baton.take(main.wake);
                result[0] = body.apply(inv);
            } catch (Throwable t) {
                error[0] = t;
            } finally {
                inv.done = true;
                main.done = true;
                Baton.put(main.back, DONE);
            }
        });
        live.add(inv);
        FunctionStats fs = stats.computeIfAbsent(function, k -> new FunctionStats());
        fs.peakConcurrent = Math.max(fs.peakConcurrent, inFlight(function));
        main.thread.start();
        loop.at(inv.deadline(), "timeout of " + main.thread.getName(), () -> {
            if (!inv.done) {
                inv.dead = true;
                inv.timedOut = true;
                inv.cause = function + " invocation " + n + " timed out after " + timeout.toSeconds() + " s";
                killAll(inv);
            }
        });
        main.onDone = () -> {
            live.remove(inv);
            FunctionStats s = stats.computeIfAbsent(function, k -> new FunctionStats());
            s.invocations++;
            Duration took = Duration.between(inv.started, loop.now());
            s.billedMillis += Math.max(1, (took.toNanos() + 999_999) / 1_000_000);
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
                loop.at(loop.now(), "end of " + main.thread.getName(), () -> onEnd.accept(inv, o));
            }
        };
        resume(main, true);
        return inv;
    }

    /** The whole lists each function read, as the simulated API server and store tell them. */
    public ReadTally reads() {
        return reads;
    }

    /** The invocation making the current call, or null when the caller is not an invocation. */
    public Invocation current() {
        return running != null && detached == 0 && Thread.currentThread() == running.thread ? running.inv : null;
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
        Strand strand = running;
        if (inv.dead) {
            throw new Killed(inv.cause);
        }
        inv.calls++;
        CallFaults.Decision d = faults.decide(inv, kind);
        Instant callStarted = loop.now();
        for (int attempt = 1; d == CallFaults.Decision.HANG || d == CallFaults.Decision.FREEZE; attempt++) {
            if (d == CallFaults.Decision.FREEZE) {
                inv.cause = inv.function + " invocation " + inv.number + " froze at call " + inv.calls + " (" + kind.yamlName() + ")";
                inv.frozen = true;
                park(strand); // nothing resumes it but the deadline
            }
            unanswered.attempt(kind, body, callStarted, attempt, faults, loop::now, this::sleep);
            inv.calls++; // the client's retry is another request
            d = faults.decide(inv, kind);
        }
        T result = null;
        RuntimeException error = null;
        try {
            result = body.get();
        } catch (RuntimeException e) {
            error = e;
        }
        if (d == CallFaults.Decision.CRASH) {
            inv.dead = true;
            inv.cause = inv.function + " invocation " + inv.number + " crashed at call " + inv.calls + " (" + kind.yamlName() + ")";
            throw new Killed(inv.cause);
        }
        sleep(latency.draw(kind, error == null && result != null ? items.applyAsInt(result) : 0));
        if (error != null) {
            throw error;
        }
        return result;
    }

    /**
     * {@code task} applied to every item on {@code lanes} lanes of the current invocation at once, as the functions'
     * own fan-out ({@code Fanout.THREADS}: virtual threads, at most {@code lanes} at a time) runs them: each lane is a
     * thread of the invocation that takes the next item when it is done with one, every port call on it costs its
     * full latency, and lanes interleave at their calls with each other and with everything else on the loop. Results
     * keep the input order; every task runs to the end even when one fails, then the first failure is rethrown. A
     * crash on one lane kills the invocation (all its lanes), as does its deadline: calls under way on other lanes
     * keep their effect and get no answer. Outside an invocation, the tasks run one after another.
     */
    public <T, R> List<R> fanOut(List<T> items, int lanes, Function<T, R> task) {
        return FanOut.run(this, items, lanes, task);
    }

    /** Unwinds every thread of a dead invocation: its lanes first, then its handler's. */
    void killAll(Invocation inv) {
        for (Strand lane : List.copyOf(inv.lanes)) {
            if (!lane.done) {
                resume(lane, false);
            }
        }
        if (!inv.main.done) {
            resume(inv.main, false);
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
        Strand strand = running;
        long token = ++strand.token;
        loop.at(loop.now().plus(d), "resume " + strand.thread.getName(), () -> {
            if (!strand.done && !inv.dead && strand.token == token) {
                resume(strand, true);
            }
        });
        park(strand);
    }

    /**
     * Runs {@code task} every {@code every} beside the current invocation, on a thread of the invocation of its own, as
     * {@code Heartbeat.THREAD} does: beats start at a fixed rate from now ({@code every}, {@code 2 x every}…; one that
     * overran its slot is followed by the next at once), their port calls cost their latency and draw their faults,
     * and a failed beat does not stop the next. Beats end when the returned stop is run (it waits for a beat under way,
     * as the real one's lock does), or when the invocation ends, dies or freezes. Outside an invocation, nothing runs.
     */
    public Runnable beat(Duration every, Runnable task) {
        return InvocationBeat.start(this, every, task);
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
                killAll(inv);
            }
        }
    }

    /** Per function, in the order they first ran. */
    public Map<String, FunctionStats> stats() {
        return stats;
    }

    /**
     * Hands the baton to {@code strand} until it waits again or ends: from the loop, or from a strand starting its
     * fan-out's lanes (which gets the baton back after each lane's first wait).
     */
    void resume(Strand strand, boolean go) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        Strand before = running;
        running = strand;
        System.setOut(strand.inv.outStream);
        System.setErr(strand.inv.errStream);
        Object r;
        try {
            Baton.put(strand.wake, go);
            r = awaitBaton(strand);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
            running = before;
        }
        if (r == DONE) {
            strand.onDone.run();
        }
    }

    /** On the strand: gives the baton back and waits for it; a kill signal throws {@link Killed}. */
    void park(Strand strand) {
        Baton.put(strand.back, PARKED);
        boolean go = Baton.take(strand.wake);
        if (!go || strand.inv.dead) {
            throw new Killed(strand.inv.cause);
        }
    }

    /** Waits for the strand to wait again or end (see {@link Baton#poll}). */
    private Object awaitBaton(Strand inv) {
        return Baton.poll(inv.back, inv.thread.getName());
    }

    private static List<String> lines(ByteArrayOutputStream s) {
        String text = s.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : text.lines().toList();
    }
}
