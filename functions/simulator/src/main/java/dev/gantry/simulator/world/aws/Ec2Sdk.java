package dev.gantry.simulator.world.aws;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.simulator.faults.CloudFaults;
import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.simulator.runtime.LambdaRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * EC2's API as the SDK's client calls it. EC2 answers an attempt at once when it is out (Unavailable) or when the
 * API's request bucket has no token (RequestLimitExceeded); otherwise the fault plan may throttle it, fail it with a
 * 5xx, or fail every attempt of a targeted call. The SDK's standard retry mode makes up to {@value #SDK_ATTEMPTS}
 * attempts of a throttled or 5xx call, with full-jitter exponential backoff, before the error surfaces as a retryable
 * {@link CloudException}. Each attempt made from an invocation costs its latency ({@link CallKind}).
 */
final class Ec2Sdk {
    /** The SDK's standard retry mode: three attempts in all. */
    static final int SDK_ATTEMPTS = 3;
    private static final Set<String> SDK_RETRIES = Set.of("RequestLimitExceeded", "InternalError", "Unavailable");

    /** A fault that fails every attempt of one call, retries included (a targeted {@code error}). */
    private static final class Targeted extends CloudException {
        Targeted(String action) {
            super("RequestLimitExceeded", action + ": request limit exceeded (injected at this call)", true);
        }
    }

    private final EventLoop loop;
    private final CloudFaults faults;
    private LambdaRuntime runtime;
    private Faults injected = new Faults(FaultPlan.NONE, 0);
    private SplittableRandom backoff = new SplittableRandom(0);

    Ec2Sdk(EventLoop loop, CloudFaults faults) {
        this.loop = loop;
        this.faults = faults;
    }

    /** Calls from invocations cost time on {@code r}; {@code f} injects the fault plan's EC2 faults. */
    void runtime(LambdaRuntime r, Faults f) {
        this.runtime = r;
        this.injected = f;
        this.backoff = f.stream("ec2Backoff");
    }

    /** One SDK call: attempts (each a port call with its latency and faults) until success or the SDK gives up. */
    <T> T call(CallKind kind, String action, Supplier<T> body, ToIntFunction<T> items) {
        for (int attempt = 1; ; attempt++) {
            try {
                CloudException refused = refusal(action);
                if (refused != null) {
                    // Answered at once, as EC2 does: an empty bucket or an outage costs no fleet launch's latency.
                    if (runtime == null) {
                        throw refused;
                    }
                    runtime.call(CallKind.EC2_REFUSED, () -> {
                        throw refused;
                    }, x -> 0);
                }
                Supplier<T> once = () -> {
                    throttle(action);
                    if (injected.targetedError()) {
                        throw new Targeted(action);
                    }
                    if (injected.draw("ec2Error", injected.plan().ec2().error())) {
                        boolean internal = injected.stream("ec2ErrorCode").nextBoolean();
                        throw new CloudException(internal ? "InternalError" : "Unavailable", action
                                + (internal ? ": an internal error has occurred" : ": the service is unavailable"), true);
                    }
                    return body.get();
                };
                return runtime == null ? once.get() : runtime.call(kind, once, items);
            } catch (Targeted t) {
                throw t;
            } catch (CloudException e) {
                if (e instanceof InsufficientCapacity || !SDK_RETRIES.contains(e.code()) || attempt >= SDK_ATTEMPTS) {
                    throw e;
                }
                // Full jitter: up to base x 2^attempt; throttling has the SDK's longer base.
                long base = e.code().equals("RequestLimitExceeded") ? 500 : 100;
                long ceiling = Math.min(20_000, base << attempt);
                if (runtime != null) {
                    runtime.sleep(Duration.ofMillis(backoff.nextLong(ceiling + 1)));
                }
            }
        }
    }

    /** What EC2 answers this attempt before doing anything, or null: an outage's Unavailable, an empty bucket's throttle. */
    private CloudException refusal(String action) {
        Instant now = loop.now();
        if (faults.outage(now)) {
            return new CloudException("Unavailable", action + ": the service is unavailable (outage)", true);
        }
        if (faults.noToken(action, now)) {
            return new CloudException("RequestLimitExceeded", action + ": request limit exceeded (token bucket empty)", true);
        }
        return null;
    }

    private void throttle(String action) {
        if (faults.throttle(loop.now()) || injected.draw("ec2Throttle", injected.plan().ec2().throttle())) {
            throw new CloudException("RequestLimitExceeded", action + ": request limit exceeded", true);
        }
    }
}
