package dev.gantry.simulator.faults;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The faults a run injects, from the scenario's {@code faults:} section, by where they strike: rates (each call, or
 * each attempt of a call, draws from its own seeded stream) and targeted faults at a chosen port call. All rates are
 * probabilities per call. Build one from {@link #NONE} and the sections' withers, naming what is set:
 * {@code FaultPlan.NONE.withEc2(Ec2.NONE.withDescribeLag(lag))}.
 *
 * @param invocations the functions' own faults ({@code crash}, {@code hang}, {@code functions})
 * @param ec2         EC2's faults ({@code ec2Throttle}, {@code ec2Error}, {@code ice}, {@code describeLag})
 * @param kubeApi     the API server's faults ({@code apiThrottle}, {@code apiError}, {@code partialList},
 *                    {@code apiOutages}, {@code apiOutageFor})
 * @param dynamo      DynamoDB's faults ({@code dynamoThrottle}, {@code dynamoConflict}, {@code indexLag})
 * @param sqs         SQS's faults ({@code duplicates})
 * @param at          faults at a chosen call of a chosen invocation ({@code at:})
 */
public record FaultPlan(Invocations invocations, Ec2 ec2, KubeApi kubeApi, Dynamo dynamo, Sqs sqs, List<Target> at) {
    public static final FaultPlan NONE = new FaultPlan(Invocations.NONE, Ec2.NONE, KubeApi.NONE, Dynamo.NONE, Sqs.NONE,
            List.of());

    public FaultPlan {
        at = List.copyOf(at);
    }

    /**
     * Faults of the functions' invocations.
     *
     * @param crash     an invocation dies at a call, after the call took effect and before its answer
     * @param hang      a call attempt gets no answer: the client gives up on it at its attempt timeout and retries
     *                  ({@code CallTimeouts}; the call fails once its attempts or its budget are spent)
     * @param functions the functions crash and hang apply to (empty: all)
     */
    public record Invocations(double crash, double hang, List<String> functions) {
        public static final Invocations NONE = new Invocations(0, 0, List.of());

        public Invocations {
            functions = List.copyOf(functions);
        }

        public Invocations withCrash(double p) {
            return new Invocations(p, hang, functions);
        }

        public Invocations withHang(double p) {
            return new Invocations(crash, p, functions);
        }

        public Invocations withFunctions(List<String> names) {
            return new Invocations(crash, hang, names);
        }

        Invocations times(double k) {
            return new Invocations(cap(crash * k), cap(hang * k), functions);
        }

        Invocations plus(Invocations o) {
            return new Invocations(crash + o.crash, hang + o.hang, functions.isEmpty() ? o.functions : functions);
        }
    }

    /**
     * EC2's faults.
     *
     * @param throttle    a call attempt fails with RequestLimitExceeded (the SDK retries it)
     * @param error       a call attempt fails with a 5xx (InternalError or Unavailable; the SDK retries it)
     * @param ice         a CreateFleet finds no capacity in any offering it was given
     * @param describeLag a just-launched instance is missing from DescribeInstances for this long
     */
    public record Ec2(double throttle, double error, double ice, Duration describeLag) {
        public static final Ec2 NONE = new Ec2(0, 0, 0, Duration.ZERO);

        public Ec2 withThrottle(double p) {
            return new Ec2(p, error, ice, describeLag);
        }

        public Ec2 withError(double p) {
            return new Ec2(throttle, p, ice, describeLag);
        }

        public Ec2 withIce(double p) {
            return new Ec2(throttle, error, p, describeLag);
        }

        public Ec2 withDescribeLag(Duration lag) {
            return new Ec2(throttle, error, ice, lag);
        }

        Ec2 times(double k) {
            return new Ec2(cap(throttle * k), cap(error * k), cap(ice * k), describeLag);
        }

        Ec2 plus(Ec2 o) {
            return new Ec2(throttle + o.throttle, error + o.error, ice + o.ice, max(describeLag, o.describeLag));
        }
    }

    /**
     * The Kubernetes API server's faults.
     *
     * @param throttle    a request gets 429 with Retry-After (the client retries once)
     * @param error       a request gets a 500 or 503 (the client retries once)
     * @param partialList a list of more than one page fails on a later page with 410 Gone (expired continue token)
     * @param outages     outages a run has, at seeded instants
     * @param outageFor   how long each outage lasts
     */
    public record KubeApi(double throttle, double error, double partialList, int outages, Duration outageFor) {
        public static final KubeApi NONE = new KubeApi(0, 0, 0, 0, Duration.ZERO);

        public KubeApi withThrottle(double p) {
            return new KubeApi(p, error, partialList, outages, outageFor);
        }

        public KubeApi withError(double p) {
            return new KubeApi(throttle, p, partialList, outages, outageFor);
        }

        public KubeApi withPartialList(double p) {
            return new KubeApi(throttle, error, p, outages, outageFor);
        }

        public KubeApi withOutages(int count, Duration lasting) {
            return new KubeApi(throttle, error, partialList, count, lasting);
        }

        KubeApi times(double k) {
            return new KubeApi(cap(throttle * k), cap(error * k), cap(partialList * k), outages, outageFor);
        }

        KubeApi plus(KubeApi o) {
            return new KubeApi(throttle + o.throttle, error + o.error, partialList + o.partialList, outages + o.outages,
                    max(outageFor, o.outageFor));
        }
    }

    /**
     * DynamoDB's faults.
     *
     * @param throttle a call attempt fails with ProvisionedThroughputExceeded (the SDK retries it)
     * @param conflict a conditional write takes effect, its answer is lost, and the SDK's retry fails its condition
     * @param indexLag the instance-id index shows writes this much later than the table
     */
    public record Dynamo(double throttle, double conflict, Duration indexLag) {
        public static final Dynamo NONE = new Dynamo(0, 0, Duration.ZERO);

        public Dynamo withThrottle(double p) {
            return new Dynamo(p, conflict, indexLag);
        }

        public Dynamo withConflict(double p) {
            return new Dynamo(throttle, p, indexLag);
        }

        public Dynamo withIndexLag(Duration lag) {
            return new Dynamo(throttle, conflict, lag);
        }

        Dynamo times(double k) {
            return new Dynamo(cap(throttle * k), cap(conflict * k), indexLag);
        }

        Dynamo plus(Dynamo o) {
            return new Dynamo(throttle + o.throttle, conflict + o.conflict, max(indexLag, o.indexLag));
        }
    }

    /**
     * SQS's faults.
     *
     * @param duplicates a receive hands out a message that another consumer also holds (at-least-once)
     */
    public record Sqs(double duplicates) {
        public static final Sqs NONE = new Sqs(0);

        Sqs times(double k) {
            return new Sqs(cap(duplicates * k));
        }

        Sqs plus(Sqs o) {
            return new Sqs(duplicates + o.duplicates);
        }
    }

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

    public FaultPlan withInvocations(Invocations i) {
        return new FaultPlan(i, ec2, kubeApi, dynamo, sqs, at);
    }

    public FaultPlan withEc2(Ec2 e) {
        return new FaultPlan(invocations, e, kubeApi, dynamo, sqs, at);
    }

    public FaultPlan withKubeApi(KubeApi k) {
        return new FaultPlan(invocations, ec2, k, dynamo, sqs, at);
    }

    public FaultPlan withDynamo(Dynamo d) {
        return new FaultPlan(invocations, ec2, kubeApi, d, sqs, at);
    }

    public FaultPlan withSqs(Sqs s) {
        return new FaultPlan(invocations, ec2, kubeApi, dynamo, s, at);
    }

    public FaultPlan withAt(List<Target> targets) {
        return new FaultPlan(invocations, ec2, kubeApi, dynamo, sqs, targets);
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
        // The draws are taken in this order (the sections' as written): a seed's mix must not change.
        SplittableRandom r = new SplittableRandom(seed ^ 0xc4a05L);
        Invocations invocations = new Invocations(around(r, 0.001), around(r, 0.0003), List.of());
        Ec2 ec2 = new Ec2(around(r, 0.03), around(r, 0.01), around(r, 0.05), Duration.ofSeconds(2 + r.nextInt(7)));
        KubeApi kubeApi = new KubeApi(around(r, 0.01), around(r, 0.005), around(r, 0.05), 1,
                Duration.ofSeconds(60 + r.nextInt(121)));
        Dynamo dynamo = new Dynamo(around(r, 0.01), around(r, 0.005), Duration.ofSeconds(1 + r.nextInt(3)));
        Sqs sqs = new Sqs(around(r, 0.02));
        return new FaultPlan(invocations, ec2, kubeApi, dynamo, sqs, List.of());
    }

    private static double around(SplittableRandom r, double base) {
        return base * (0.5 + r.nextDouble());
    }

    /** Every rate times {@code k} (capped at 1); lags, outages and targets unchanged. */
    public FaultPlan times(double k) {
        return new FaultPlan(invocations.times(k), ec2.times(k), kubeApi.times(k), dynamo.times(k), sqs.times(k), at);
    }

    private static double cap(double p) {
        return Math.min(1, p);
    }

    /**
     * This plan with another's added ({@code chaos: true} beside explicit figures): rates and outage counts add up,
     * lags take the longer, targets are both lists, and {@code functions} is this plan's unless it has none.
     */
    public FaultPlan plus(FaultPlan o) {
        return new FaultPlan(invocations.plus(o.invocations), ec2.plus(o.ec2), kubeApi.plus(o.kubeApi),
                dynamo.plus(o.dynamo), sqs.plus(o.sqs), Stream.concat(at.stream(), o.at.stream()).toList());
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
