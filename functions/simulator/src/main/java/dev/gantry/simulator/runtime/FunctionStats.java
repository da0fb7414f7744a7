package dev.gantry.simulator.runtime;

import java.time.Duration;

/** One function's invocations so far, as {@link LambdaRuntime#stats()} counts them. */
public final class FunctionStats {
    public long invocations;
    public long killedByTimeout;
    public long crashed;
    /** Invocations that finished (were not killed) having used more than 70% of their timeout. */
    public long over70Percent;
    public Duration longest = Duration.ZERO;
    public double longestShare;
    public int peakConcurrent;
}
