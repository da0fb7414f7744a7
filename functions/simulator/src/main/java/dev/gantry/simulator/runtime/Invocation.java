package dev.gantry.simulator.runtime;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One invocation in flight in the {@link LambdaRuntime}. */
public final class Invocation {
    final String function;
    final long number;
    final Instant started;
    final Duration timeout;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
    final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    Strand main;
    final List<Strand> lanes = new ArrayList<>();
    int calls;
    boolean dead;
    boolean timedOut;
    boolean frozen;
    boolean done;
    String cause;

    Invocation(String function, long number, Instant started, Duration timeout) {
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
