package dev.gantry.simulator.world.kube;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The webhook's Function URL as the API server meets it under load: at most {@code reservedConcurrency} execution
 * environments (the deployed value, {@code DeploymentSettings}: 10), each serving one request at a time. A request
 * finds a free warm environment (it takes {@link #WARM}), or starts a new one while fewer than the reserved
 * concurrency exist (a SnapStart restore, {@link #COLD_START}, then the request), or is throttled: a Function URL over
 * its function's concurrency answers 429 (TooManyRequestsException) at once, without running the function. The API
 * server, with the webhook's {@code failurePolicy: Ignore}, treats the 429 as a call error and admits the request, so
 * the pod is neither refused nor held; only its hint is lost (the next answered request's hint, deduplicated per reason
 * per second anyway, or the sweep's backstop, covers it). A request answered after the webhook's
 * {@code timeoutSeconds} (2 s) is a timeout to the API server, which admits after waiting the 2 s: such a pod is
 * "slowed". Each environment has its own handler instance ({@code newHandler}), as each real one has its own memory.
 * <p>
 * Requests the simulated cluster makes at one virtual instant (a Deployment scaled by hundreds of pods creates them
 * all at that instant) arrive together: the worst case, since the ReplicaSet controller issues creates in concurrent
 * slow-start batches of up to 500. That is harsher than a real API server, which spreads them over the time each
 * create takes.
 * <p>
 * Not modelled: the Lambda service's burst limit on new environments (1,000 per 10 s per function, far above 10);
 * environments reclaimed while idle (they stay warm for the whole run, which understates cold starts after a quiet
 * spell: each costs {@link #COLD_START}, still under the timeout); the Function URL's own network time and TLS; the
 * API server's retries (it makes none for a webhook call); the account's unreserved-concurrency pool (reserved
 * concurrency both guarantees and caps); the handler runs at the request's arrival instant, so a hint from a cold
 * environment is stamped up to {@link #COLD_START} early; the self-cost bills every answered request at {@link #WARM}
 * (a SnapStart restore is billed too: understated), and a 429 at nothing (Lambda bills no throttled request, and a
 * Function URL has no charge of its own). {@link #WARM} is the billed estimate the self-cost uses and {@link #COLD_START}
 * an assumption (a SnapStart restore of a primed Java function, about 0.4-0.7 s, plus a first request), not measured.
 */
public final class WebhookEndpoint {
    /** A warm request: parse one AdmissionReview, send at most one SQS message. */
    public static final Duration WARM = Duration.ofMillis(25);
    /** A new environment: SnapStart restore and the first, slower request (an assumption, see the class comment). */
    public static final Duration COLD_START = Duration.ofMillis(1000);
    /** The webhook configuration's {@code timeoutSeconds} for pods and nodes ({@code ClusterManifests}). */
    public static final Duration API_SERVER_TIMEOUT = Duration.ofSeconds(2);

    /** What happened to one request: which environment served it (-1: throttled) and how long the API server waited. */
    public record Call(int environment, Duration latency, boolean cold) {
        public boolean throttled() {
            return environment < 0;
        }
    }

    private final int reservedConcurrency;
    private final List<Instant> busyUntil = new ArrayList<>();
    private final List<Object> handlers = new ArrayList<>();
    private final IntFunction<Object> newHandler;
    private long answered;
    private long throttled;
    private long coldStarts;
    private long slowed;
    private final long[] latencyMillis = new long[(int) API_SERVER_TIMEOUT.toMillis() + 2];

    /** {@code newHandler} builds environment {@code i}'s handler when it first starts. */
    public WebhookEndpoint(int reservedConcurrency, IntFunction<Object> newHandler) {
        if (reservedConcurrency < 1) {
            throw new IllegalArgumentException("reserved concurrency must be at least 1: " + reservedConcurrency);
        }
        this.reservedConcurrency = reservedConcurrency;
        this.newHandler = newHandler;
    }

    /** Routes a request arriving at {@code now}: a free warm environment, a new one, or a 429. */
    public Call call(Instant now) {
        for (int i = 0; i < busyUntil.size(); i++) {
            if (!busyUntil.get(i).isAfter(now)) {
                return serve(i, now, WARM, false);
            }
        }
        if (busyUntil.size() < reservedConcurrency) {
            busyUntil.add(now);
            handlers.add(newHandler.apply(handlers.size()));
            coldStarts++;
            return serve(busyUntil.size() - 1, now, COLD_START.plus(WARM), true);
        }
        throttled++;
        record(Duration.ZERO);
        return new Call(-1, Duration.ZERO, false);
    }

    private Call serve(int env, Instant now, Duration took, boolean cold) {
        busyUntil.set(env, now.plus(took));
        answered++;
        Duration seen = took.compareTo(API_SERVER_TIMEOUT) > 0 ? API_SERVER_TIMEOUT : took;
        if (took.compareTo(API_SERVER_TIMEOUT) > 0) {
            slowed++;
        }
        record(seen);
        return new Call(env, seen, cold);
    }

    private void record(Duration d) {
        latencyMillis[(int) Math.min(d.toMillis(), latencyMillis.length - 1)]++;
    }

    /** Environment {@code env}'s handler (one per environment, as each real one has its own memory). */
    @SuppressWarnings("unchecked")
    public <T> T handler(int env) {
        return (T) handlers.get(env);
    }

    /**
     * The figures of the run: requests answered and throttled (429), cold starts, requests the API server waited the
     * whole timeout for, and the p50/p99/max of what the API server waited per request (429s included, at 0 ms).
     */
    public record Stats(long answered, long throttled, long coldStarts, long slowed, long p50Millis, long p99Millis,
                        long maxMillis) {
    }

    public Stats stats() {
        long total = Arrays.stream(latencyMillis).sum();
        return new Stats(answered, throttled, coldStarts, slowed, percentile(total, 0.50), percentile(total, 0.99),
                percentile(total, 1.0));
    }

    private long percentile(long total, double q) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int ms = 0; ms < latencyMillis.length; ms++) {
            seen += latencyMillis[ms];
            if (seen >= rank) {
                return ms;
            }
        }
        return latencyMillis.length - 1;
    }
}
