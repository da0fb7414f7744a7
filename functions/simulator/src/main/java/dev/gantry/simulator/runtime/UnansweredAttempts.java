package dev.gantry.simulator.runtime;

import dev.gantry.config.deployment.CallTimeouts;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a client does with an attempt that gets no answer ({@link CallFaults.Decision#HANG}), as the production clients
 * are built ({@link CallTimeouts}): the request may have reached the service (a seeded even draw: a slow answer, a
 * connection reset after the work was done) or not (a black-holed connection), so its effect happens or not; the
 * client gives up on it at its attempt timeout (the socket timeout and the SDK's {@code apiCallAttemptTimeout},
 * fabric8's request timeout) and retries after its backoff, unless that was its last attempt or the call's budget is
 * spent, when the call fails with {@link CallTimedOut}.
 *
 * <p>Not modelled: the SDK counts a hung attempt and a throttled one against the same attempts and retry quota; here
 * the hung attempts of a call are counted on their own (the simulated services count their throttles and 5xx).
 */
final class UnansweredAttempts {
    private final CallTimeouts timeouts;

    UnansweredAttempts(CallTimeouts timeouts) {
        this.timeouts = timeouts;
    }

    /** One unanswered attempt, {@code attempt} of the call that started at {@code callStarted}, and the backoff after it. */
    <T> void attempt(CallKind kind, Supplier<T> body, Instant callStarted, int attempt, CallFaults faults,
                     Supplier<Instant> now, Consumer<Duration> sleep) {
        CallTimeouts.Budget b = budget(kind);
        if (faults.stream("hangReachedService").nextBoolean()) {
            try {
                body.get();
            } catch (RuntimeException ignored) {
                // its answer is lost with the rest
            }
        }
        Duration spent = Duration.between(callStarted, now.get());
        sleep.accept(min(b.attempt(), b.call().minus(spent)));
        spent = Duration.between(callStarted, now.get());
        if (attempt >= b.attempts() || spent.compareTo(b.call()) >= 0) {
            throw new CallTimedOut(kind.yamlName() + " got no answer: " + attempt + " attempts, " + spent.toMillis() + " ms");
        }
        // The SDK's standard mode: full jitter up to 100 ms x 2^attempt; fabric8: 200 ms, doubling.
        long backoffMs = kind.service().equals("kube") ? 200L << (attempt - 1)
                : faults.stream("hangBackoff").nextLong((100L << attempt) + 1);
        sleep.accept(min(Duration.ofMillis(backoffMs), b.call().minus(spent)));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    CallTimeouts.Budget budget(CallKind kind) {
        return switch (kind.service()) {
            case "ec2" -> timeouts.ec2();
            case "kube" -> timeouts.kube();
            case "dynamodb" -> timeouts.dynamodb();
            case "sqs" -> timeouts.sqs();
            default -> throw new IllegalStateException("no call budget for " + kind.service());
        };
    }
}
