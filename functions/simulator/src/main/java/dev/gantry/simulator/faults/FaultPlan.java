package dev.gantry.simulator.faults;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The faults a run injects, from the scenario's {@code faults:} section: rates (each call, or each attempt of a call,
 * draws from its own seeded stream) and targeted faults at a chosen port call. All rates are probabilities per call.
 *
 * @param crash          an invocation dies at a call, after the call took effect and before its answer
 * @param hang           a call attempt gets no answer: the client gives up on it at its attempt timeout and retries
 *                       ({@code CallTimeouts}; the call fails once its attempts or its budget are spent)
 * @param functions      the functions crash and hang apply to (empty: all)
 * @param ec2Throttle    an EC2 call attempt fails with RequestLimitExceeded (the SDK retries it)
 * @param ec2Error       an EC2 call attempt fails with a 5xx (InternalError or Unavailable; the SDK retries it)
 * @param ice            a CreateFleet finds no capacity in any offering it was given
 * @param describeLag    a just-launched instance is missing from DescribeInstances for this long
 * @param apiThrottle    an API-server request gets 429 with Retry-After (the client retries once)
 * @param apiError       an API-server request gets a 500 or 503 (the client retries once)
 * @param partialList    a list of more than one page fails on a later page with 410 Gone (expired continue token)
 * @param apiOutages     API-server outages a run has, at seeded instants
 * @param apiOutageFor   how long each outage lasts
 * @param dynamoThrottle a DynamoDB call attempt fails with ProvisionedThroughputExceeded (the SDK retries it)
 * @param dynamoConflict a conditional write takes effect, its answer is lost, and the SDK's retry fails its condition
 * @param indexLag       the instance-id index shows writes this much later than the table
 * @param duplicates     an SQS receive hands out a message that another consumer also holds (at-least-once)
 * @param at             faults at a chosen call of a chosen invocation
 */
public record FaultPlan(double crash, double hang, List<String> functions, double ec2Throttle, double ec2Error, double ice,
                        Duration describeLag, double apiThrottle, double apiError, double partialList, int apiOutages,
                        Duration apiOutageFor, double dynamoThrottle, double dynamoConflict, Duration indexLag,
                        double duplicates, List<Target> at) {
    public static final FaultPlan NONE = new FaultPlan(0, 0, List.of(), 0, 0, 0, Duration.ZERO, 0, 0, 0, 0, Duration.ZERO,
            0, 0, Duration.ZERO, 0, List.of());

    /**
     * A fault at call {@code call} (1-based) of the {@code invocation}-th (1-based) invocation of {@code function}.
     * {@code what}: {@code crash}, {@code hang} (that attempt gets no answer; the client retries), {@code freeze} (the
     * invocation stops there until its deadline kills it: a runtime that stopped making progress), or {@code error}
     * (the call fails with its service's retryable error, every retry included: throttling for EC2 and DynamoDB, 503
     * for the API server, a send error for SQS).
     *
     * <p>A freeze is a targeted fault only, not a rate of the chaos mix: with every client's wait bounded
     * ({@code CallTimeouts}), an invocation that stops making progress until Lambda kills it is a defect of our own
     * (a loop, a deadlock) to find and fix, not a fault of the services to survive; a runtime that dies (out of
     * memory, a crash of the process) is the {@code crash} fault, which the mix has.
     */
    public record Target(String function, long invocation, int call, String what) {
        public static final List<String> KINDS = List.of("crash", "hang", "freeze", "error");
    }

    public FaultPlan {
        functions = List.copyOf(functions);
        at = List.copyOf(at);
    }

    public boolean any() {
        return !equals(NONE);
    }

    /**
     * A modest mix of every fault, its rates drawn from {@code seed} (each between half and one and a half times its
     * base), for chaos sweeps: crashes and hangs in every handler, EC2 throttling, 5xx and ICE, Describe lag, API 429,
     * 5xx, partial lists and one outage, DynamoDB throttling, lost conditional answers and index lag, and duplicates.
     */
    public static FaultPlan chaos(long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0xc4a05L);
        return new FaultPlan(around(r, 0.001), around(r, 0.0003), List.of(), around(r, 0.03), around(r, 0.01),
                around(r, 0.05), Duration.ofSeconds(2 + r.nextInt(7)), around(r, 0.01), around(r, 0.005),
                around(r, 0.05), 1, Duration.ofSeconds(60 + r.nextInt(121)), around(r, 0.01), around(r, 0.005),
                Duration.ofSeconds(1 + r.nextInt(3)), around(r, 0.02), List.of());
    }

    private static double around(SplittableRandom r, double base) {
        return base * (0.5 + r.nextDouble());
    }

    /** Every rate times {@code k} (capped at 1); lags, outages and targets unchanged. */
    public FaultPlan times(double k) {
        return new FaultPlan(cap(crash * k), cap(hang * k), functions, cap(ec2Throttle * k), cap(ec2Error * k), cap(ice * k),
                describeLag, cap(apiThrottle * k), cap(apiError * k), cap(partialList * k), apiOutages, apiOutageFor,
                cap(dynamoThrottle * k), cap(dynamoConflict * k), indexLag, cap(duplicates * k), at);
    }

    private static double cap(double p) {
        return Math.min(1, p);
    }

    /** This plan with another's rates added ({@code chaos: true} beside explicit figures). */
    public FaultPlan plus(FaultPlan o) {
        return new FaultPlan(crash + o.crash, hang + o.hang, functions.isEmpty() ? o.functions : functions,
                ec2Throttle + o.ec2Throttle, ec2Error + o.ec2Error, ice + o.ice, max(describeLag, o.describeLag),
                apiThrottle + o.apiThrottle, apiError + o.apiError, partialList + o.partialList, apiOutages + o.apiOutages,
                max(apiOutageFor, o.apiOutageFor), dynamoThrottle + o.dynamoThrottle, dynamoConflict + o.dynamoConflict,
                max(indexLag, o.indexLag), duplicates + o.duplicates,
                java.util.stream.Stream.concat(at.stream(), o.at.stream()).toList());
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
