package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.MalformedMessage;
import dev.gantry.config.deployment.CallTimeouts;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.provisioning.ProvisioningOutcome;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.core.work.Redelivery;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import dev.gantry.core.config.ConfigBound;
import org.crac.Core;
import org.crac.Resource;

/**
 * The provisioner: one FIFO batch of hints (one cluster's group, so never two at once) becomes one provisioning run.
 * A record that is not a hint fails alone. Hints carry nothing but "look again", and one run plans the whole cluster,
 * so if the run fails (a transient error: throttling, an unreachable API server) only the batch's last hint is reported
 * failed, and it is made visible again after a short, backed-off delay ({@link #retryDelay}) rather than the queue's
 * six-minute visibility timeout, which would hold the cluster's whole FIFO group that long; the other hints are
 * acknowledged, since that one retry covers them (the run is idempotent, and claims it recorded are resumed). A run
 * that cannot report anything (the function times out, or its runtime crashes) would hold the group for the whole
 * visibility timeout just the same, so before it starts the run shortens every record's visibility to a short
 * {@link #LEASE} and renews it while the run lives ({@link Heartbeat}): a dead invocation's batch comes back within
 * seconds of its death, not at the queue's timeout nor at the invocation's deadline.
 * A run does not wait for that: it uses at most 70% of the invocation ({@link InvocationBudget}), so it starts no
 * launch once one taking {@link #SLOWEST_LAUNCH}, and the pod Events after it ({@link Provisioner#EVENTS_AFTER_STOP}),
 * could end past that share. When its last plan still found no capacity ({@link ProvisioningOutcome#capacityShort}:
 * the offerings it tried are out of plans for three minutes), it sends a {@link ProvisioningHint.Reason#CAPACITY_RETRY}
 * hint, so the pods it left are planned on the offerings not yet found out within seconds (a spot ICE reaches
 * on-demand), as Karpenter's provisioner re-plans at once; the chain ends when a run has no offering left to try (it
 * then launches nothing, so it finds no ICE). When it left claims for later (a burst of hundreds of
 * nodes), it sends a fresh continuation hint to its own queue ({@link ProvisioningHint.Reason#CONTINUE}, a deduplication id of its own) and
 * acknowledges the whole batch, so the next run carries on where this one stopped, on a message received once: a burst
 * that needs more runs than the queue's maxReceiveCount never dead-letters its hint. Only if that send fails is the
 * batch's last hint reported failed and made visible again at once ({@link #CONTINUE_AFTER}).
 * Emits PendingPods, PendingPodAgeSeconds and NodesLaunched as embedded metrics, and tells its
 * {@link ProvisioningListener} (none in production) what each run did.
 */
public final class ProvisioningQueueHandler implements RequestHandler<SQSEvent, SQSBatchResponse>, Resource {
    /**
     * The first retry after a failed run; each further receive doubles it, up to {@link #MAX_RETRY_DELAY}, and a retry
     * waits between half and all of that ({@link #jittered}). A run that failed on throttling or an outage gets its
     * answer from the SDK's own retries within seconds; what is left is waiting for the fault to end, and every retry
     * costs only a few calls (one solve, one CreateFleet per node), well under EC2's refill rates. The cap keeps the
     * first run after a fault within 20 s of its end (it was up to 40 s, and then one run's duration, with 10 s
     * doubling to 2 minutes); the doubling with jitter keeps to AWS's guidance (capped exponential backoff with
     * jitter) and stops the provisioners of many clusters in one account, whose runs failed together, from retrying in
     * step against the account's shared buckets. The queue's eight receives then cover a fault of about 2 minutes before
     * the hint is dead-lettered (the chaos sweep measured 1 min 50 s to 2 min 05 s); the sweep's backstop hint (every minute) covers a longer one.
     */
    public static final Duration RETRY_DELAY = Duration.ofSeconds(5);
    public static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(20);
    /** How long after the invocation's deadline its batch comes back if it could not answer (a timeout, a crash). */
    public static final Duration HOLD_MARGIN = SqsRecords.HOLD_MARGIN;
    /**
     * The longest one launch is expected to take: a CreateFleet takes 1-2 s, more with the SDK's throttling retries,
     * and its claim's two writes. No launch starts unless it, and the run's pod Events after it, end inside the
     * invocation's usable share: with the 60 s timeout, launches start during the first 27 s and the run ends by 42 s.
     */
    public static final Duration SLOWEST_LAUNCH = Duration.ofSeconds(5);
    /**
     * How long a run's batch is hidden at a time while the run lives ({@link #holdWhileRunning}): a dead run's batch
     * comes back at most this long after its last renewal. Two runs dying in a row then cost about a minute, inside a
     * pod's allowance (one boot plus one batch), where the hold to the deadline plus 15 s cost up to 2 x 75 s.
     */
    public static final Duration LEASE = Duration.ofSeconds(30);
    /**
     * How often the lease is renewed, at a fixed rate ({@link Heartbeat}): often enough that two renewals failing in a
     * row lose nothing. A renewal may land as early as its start, and the third after it may take the SQS call's whole
     * budget ({@link CallTimeouts#DEFAULT}, 6 s) to land, so three periods plus that budget must fit in the lease:
     * (30 s - 6 s) / 3 = 8 s, less a second of margin: 7 s. (Renewals 10 s apart after a beat that slept 10 s, each
     * possibly hanging 6 s, came 16 s apart, and two slow ones let the lease lapse.)
     */
    public static final Duration RENEW_EVERY = LEASE.minus(CallTimeouts.DEFAULT.sqs().call()).dividedBy(3)
            .minusSeconds(1);
    /** When the hint of a run that left claims for later comes back: at once. */
    public static final Duration CONTINUE_AFTER = Duration.ZERO;

    /** The run's service, over the cluster's configuration as it is when the run starts ({@link ConfigBound}). */
    private final Supplier<HintBatchService> services;
    private final HintCodec codec;
    private final EmbeddedMetrics metrics;
    private final Clock clock;
    private final SnapStartPrimer primer;
    private final Redelivery redelivery;
    private final Duration firstRetry;
    private final WorkQueue continuations;
    private final String cluster;
    private final Heartbeat heartbeat;
    private final ProvisioningListener listener;

    /** The Lambda entry point: builds every client now, so SnapStart captures them. */
    public ProvisioningQueueHandler() {
        this(Composition.fromSystem().withClients());
    }

    private ProvisioningQueueHandler(Composition c) {
        this(() -> c.services().get().hintBatches(), new HintCodec(c.json()), new EmbeddedMetrics(c.json(), c.clusterName(), System.out), c.clock(),
                ProvisionerPrimer.of(c), c.provisioningRedelivery(), RETRY_DELAY, c.provisioningQueue(), c.clusterName(),
                Heartbeat.THREAD);
        Core.getGlobalContext().register(this);
    }

    /** Without early redelivery: a failed hint waits out the queue's visibility timeout. */
    public ProvisioningQueueHandler(HintBatchService service, HintCodec codec, EmbeddedMetrics metrics, Clock clock,
                                    SnapStartPrimer primer) {
        this(service, codec, metrics, clock, primer, Redelivery.NONE, RETRY_DELAY);
    }

    /**
     * Without a continuation queue: a run that ran out of time has its batch's last hint redelivered at once (each
     * such run counts one more receive of that message).
     *
     * @param firstRetry the delay before the first retry of a failed run (doubling per receive)
     */
    public ProvisioningQueueHandler(HintBatchService service, HintCodec codec, EmbeddedMetrics metrics, Clock clock,
                                    SnapStartPrimer primer, Redelivery redelivery, Duration firstRetry) {
        this(service, codec, metrics, clock, primer, redelivery, firstRetry, null, null);
    }

    /**
     * @param firstRetry    the delay before the first retry of a failed run (doubling per receive)
     * @param continuations the provisioning queue itself, where a run that ran out of time (or short of capacity)
     *                      sends the hint for the next
     * @param cluster       the cluster's name: the FIFO message group of its hints
     */
    public ProvisioningQueueHandler(HintBatchService service, HintCodec codec, EmbeddedMetrics metrics, Clock clock,
                                    SnapStartPrimer primer, Redelivery redelivery, Duration firstRetry,
                                    WorkQueue continuations, String cluster) {
        this(service, codec, metrics, clock, primer, redelivery, firstRetry, continuations, cluster, null);
    }

    /** @param heartbeat renews the batch's short hold while the run lives ({@link #LEASE}); null: one hold to the deadline */
    public ProvisioningQueueHandler(HintBatchService service, HintCodec codec, EmbeddedMetrics metrics, Clock clock,
                                    SnapStartPrimer primer, Redelivery redelivery, Duration firstRetry,
                                    WorkQueue continuations, String cluster, Heartbeat heartbeat) {
        this(ConfigBound.fixed(service), codec, metrics, clock, primer, redelivery, firstRetry, continuations, cluster, heartbeat);
    }

    /**
     * @param services the service of each run, asked once per run: over the cluster's configuration at that run's start
     *                 ({@link ConfigBound}); when it throws ({@link dev.gantry.core.config.ConfigUnavailable}) the run
     *                 fails and is retried as any failed run is
     */
    public ProvisioningQueueHandler(Supplier<HintBatchService> services, HintCodec codec, EmbeddedMetrics metrics, Clock clock,
                                    SnapStartPrimer primer, Redelivery redelivery, Duration firstRetry,
                                    WorkQueue continuations, String cluster, Heartbeat heartbeat) {
        this(services, codec, metrics, clock, primer, redelivery, firstRetry, continuations, cluster, heartbeat,
                ProvisioningListener.NONE);
    }

    private ProvisioningQueueHandler(Supplier<HintBatchService> services, HintCodec codec, EmbeddedMetrics metrics, Clock clock,
                                     SnapStartPrimer primer, Redelivery redelivery, Duration firstRetry,
                                     WorkQueue continuations, String cluster, Heartbeat heartbeat,
                                     ProvisioningListener listener) {
        this.listener = listener;
        this.heartbeat = heartbeat;
        this.continuations = continuations;
        this.cluster = cluster;
        this.services = services;
        this.codec = codec;
        this.metrics = metrics;
        this.clock = clock;
        this.primer = primer;
        this.redelivery = redelivery;
        this.firstRetry = firstRetry;
    }

    /**
     * This handler with {@code listener} told of every completed run ({@link ProvisioningListener}); a new handler,
     * not registered for SnapStart's hooks (the Lambda entry point builds its own, with none).
     */
    public ProvisioningQueueHandler withListener(ProvisioningListener listener) {
        return new ProvisioningQueueHandler(services, codec, metrics, clock, primer, redelivery, firstRetry, continuations,
                cluster, heartbeat, listener);
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        InvocationBudget budget = InvocationBudget.of(context, clock);
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        List<ProvisioningHint> hints = new ArrayList<>();
        List<SQSEvent.SQSMessage> hintMessages = new ArrayList<>();
        for (SQSEvent.SQSMessage m : event.getRecords() == null ? List.<SQSEvent.SQSMessage>of() : event.getRecords()) {
            try {
                hints.add(codec.decode(m.getBody()));
                hintMessages.add(m);
            } catch (MalformedMessage e) {
                System.err.println("provisioner: message " + m.getMessageId() + " is not a hint (" + e.getMessage() + ")");
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            }
        }
        if (!hints.isEmpty()) {
            try {
                ProvisioningOutcome outcome;
                try (Heartbeat.Beat lease = holdWhileRunning(event, context)) {
                    outcome = services.get().handle(hints, budget.startBy(SLOWEST_LAUNCH.plus(Provisioner.EVENTS_AFTER_STOP)));
                }
                report(outcome);
                SQSEvent.SQSMessage last = hintMessages.getLast();
                if (outcome.deferred() > 0) {
                    if (!sendContinuation(last, ProvisioningHint.Reason.CONTINUE)) {
                        System.out.println("provisioner: out of time, " + outcome.deferred()
                                + " claims left for the next run (message " + last.getMessageId() + " again)");
                        continueWith(last);
                        failures.add(new SQSBatchResponse.BatchItemFailure(last.getMessageId()));
                    } else {
                        System.out.println("provisioner: out of time, " + outcome.deferred()
                                + " claims left for the next run (a continuation hint sent)");
                    }
                } else if (outcome.capacityShort() && sendContinuation(last, ProvisioningHint.Reason.CAPACITY_RETRY)) {
                    System.out.println("provisioner: the last plan found no capacity; the next run plans the pods left on "
                            + "the offerings not yet found out (a hint sent)");
                }
            } catch (RuntimeException e) {
                SQSEvent.SQSMessage retry = hintMessages.getLast();
                Duration after = jittered(retryDelay(firstRetry, receiveCount(retry)), retry.getMessageId(), receiveCount(retry));
                System.err.println("provisioner: run failed, retrying with message " + retry.getMessageId() + " in "
                        + after.toSeconds() + " s (" + (hints.size() - 1) + " other hints acknowledged): " + e);
                try {
                    redelivery.redeliverAfter(retry.getReceiptHandle(), after);
                } catch (RuntimeException visibility) {
                    System.err.println("provisioner: could not shorten the retry (the queue's visibility timeout applies): "
                            + visibility.getClass().getSimpleName());
                }
                failures.add(new SQSBatchResponse.BatchItemFailure(retry.getMessageId()));
            }
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }

    /**
     * Hides the batch while the run lives. With a {@link Heartbeat}: for {@link #LEASE} (never past the invocation's
     * deadline plus {@link #HOLD_MARGIN}), renewed every {@link #RENEW_EVERY}, so a run that dies (a crash, the
     * timeout) holds the cluster's FIFO group at most {@link #LEASE} longer. Without one: once, for the invocation's
     * remaining time plus {@link #HOLD_MARGIN}. One ChangeMessageVisibilityBatch request each time; a failed one is
     * logged and the next beat tries again. The returned beat is stopped before the run's answer is decided, so no
     * renewal can undo a retry's delay.
     */
    private Heartbeat.Beat holdWhileRunning(SQSEvent event, Context context) {
        if (heartbeat == null || context == null || redelivery == Redelivery.NONE || event.getRecords() == null) {
            SqsRecords.holdForThisInvocation("provisioner", event, context, redelivery);
            return () -> { };
        }
        List<String> handles = event.getRecords().stream().map(SQSEvent.SQSMessage::getReceiptHandle).toList();
        Runnable renew = () -> {
            long untilDeadline = Math.max(0, context.getRemainingTimeInMillis()) + HOLD_MARGIN.toMillis();
            Duration hold = Duration.ofSeconds((Math.min(LEASE.toMillis(), untilDeadline) + 999) / 1000);
            try {
                redelivery.redeliverAllAfter(handles, hold);
            } catch (RuntimeException e) {
                System.err.println("provisioner: could not renew the batch's hold: " + e.getClass().getSimpleName()
                        + ": " + e.getMessage());
            }
        };
        renew.run();
        return heartbeat.start(RENEW_EVERY, renew);
    }

    /**
     * Sends the next run's hint, a message of its own (its deduplication id derives from {@code last}'s message id, so
     * it is never collapsed into an earlier continuation); false if there is no queue or the send failed.
     */
    private boolean sendContinuation(SQSEvent.SQSMessage last, ProvisioningHint.Reason reason) {
        if (continuations == null) {
            return false;
        }
        ProvisioningHint next = new ProvisioningHint(reason, "", cluster, reason.wire() + "/" + last.getMessageId(),
                clock.instant());
        try {
            continuations.send(codec.encode(next), cluster, next.deduplicationId(), Duration.ZERO);
            return true;
        } catch (RuntimeException e) {
            System.err.println("provisioner: could not send the next run's hint, redelivering message "
                    + last.getMessageId() + " instead: " + e.getClass().getSimpleName());
            return false;
        }
    }

    /** Makes {@code m} visible again at once; if that fails, the queue's visibility timeout brings it back. */
    private void continueWith(SQSEvent.SQSMessage m) {
        try {
            redelivery.redeliverAfter(m.getReceiptHandle(), CONTINUE_AFTER);
        } catch (RuntimeException visibility) {
            System.err.println("provisioner: could not make the next run's hint visible (the queue's visibility timeout "
                    + "applies): " + visibility.getClass().getSimpleName());
        }
    }

    /** {@code first} doubled for every earlier receive, capped at {@link #MAX_RETRY_DELAY}. */
    static Duration retryDelay(Duration first, int receiveCount) {
        return SqsRecords.retryDelay(first, MAX_RETRY_DELAY, receiveCount);
    }

    /**
     * Equal jitter in SQS's unit, whole seconds: between half of {@code delay} (rounded up) and all of it, drawn from
     * the message id and the receive, so that a retry is reproducible and different hints (clusters) spread out.
     */
    static Duration jittered(Duration delay, String messageId, int receiveCount) {
        long full = Math.max(1, delay.toSeconds());
        long half = (full + 1) / 2;
        long h = (String.valueOf(messageId).hashCode() * 0x9e3779b97f4a7c15L) ^ (receiveCount * 0xbf58476d1ce4e5b9L);
        h ^= h >>> 31;
        return Duration.ofSeconds(half + Math.floorMod(h, full - half + 1));
    }

    private static int receiveCount(SQSEvent.SQSMessage m) {
        return SqsRecords.receiveCount(m);
    }

    private void report(ProvisioningOutcome o) {
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("PendingPods", (double) o.pendingPods());
        values.put("PendingPodAgeSeconds", (double) o.oldestPendingAge().toSeconds());
        values.put("NodesLaunched", (double) o.launched().size());
        metrics.emit(clock.instant(), Map.of(), values);
        o.launched().forEach(l -> System.out.println("provisioner: launched nodeclaim/" + l.claim() + " " + l.instanceId()
                + " " + l.instanceType() + " " + l.zone() + " " + l.capacityType()));
        o.failed().forEach(f -> System.out.println("provisioner: nodeclaim/" + f.claim() + " failed: " + f.message()));
        if (!o.unschedulable().isEmpty()) {
            System.out.println("provisioner: " + o.unschedulable().size() + " pods unschedulable");
        }
        listener.ran(o);
    }

    @Override
    public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
        primer.beforeCheckpoint();
    }

    @Override
    public void afterRestore(org.crac.Context<? extends Resource> context) {
        primer.afterRestore();
    }
}
