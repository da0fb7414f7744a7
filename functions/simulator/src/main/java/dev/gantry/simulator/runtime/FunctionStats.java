package dev.gantry.simulator.runtime;

import java.time.Duration;

/** One function's invocations so far, as {@link LambdaRuntime#stats()} counts them. */
public final class FunctionStats {
    public long invocations;
    /** The duration Lambda bills: each invocation's, rounded up to the millisecond (killed ones to their end). */
    public long billedMillis;
    public long killedByTimeout;
    public long crashed;
    /** Invocations that finished (were not killed) having used more than 70% of their timeout. */
    public long over70Percent;
    public Duration longest = Duration.ZERO;
    public double longestShare;
    public int peakConcurrent;
}
