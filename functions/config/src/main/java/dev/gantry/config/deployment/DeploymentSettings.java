package dev.gantry.config.deployment;

import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Every setting of a Gantry deployment that changes how it behaves at run time, in one value: the CDK app builds the
 * stack from it, and the simulator runs its queues and functions with it, so what is simulated is what is deployed.
 *
 * <p>The figures of {@link #DEFAULT}, and why:
 * <ul>
 *   <li><b>provisioning</b> (FIFO, one message group per cluster, consumer {@code provisioner}): visibility 6 min
 *       (6 x the provisioner's 60 s); retention 1 h: a hint older than that is stale, the sweep recomputes from the
 *       cluster; delivery delay 1 s lets a burst of pending pods land in one batch (FIFO event sources support no
 *       batching window), and it is also the webhook's deduplication bucket ({@link #hintDeduplicationBucket()}).
 *       8 receives, not 5: a failed run's hint comes back after 5 to 20 s (the provisioner's capped, jittered backoff),
 *       so 8 receives outlast an EC2 throttling blip or an API-server outage of about 2 minutes (the chaos sweep
 *       measured 1 min 50 s to 2 min 05 s) before the hint is dead-lettered and the alarm fires; a longer outage is
 *       covered by the sweep's backstop hint every minute; 8 x 6 min + 5 min still fits the 1 h retention.</li>
 *   <li><b>interruption</b> (standard, consumer {@code interruption}): visibility 3 min (6 x 30 s); retention 1 h.
 *       A spot warning is worthless after its 2 minutes, but an AWS Health scheduled change comes days ahead: a
 *       message that keeps failing must live through its 5 receives (15 min at most; the handler brings a failed
 *       record back after 10 s, doubling per receive, so it is usually dead-lettered within 5 min) and reach the
 *       dead-letter queue, where the alarm fires, instead of expiring unseen (retention was 5 min, so it expired
 *       after 2 receives).</li>
 *   <li><b>termination</b> (standard, consumer {@code termination}): visibility 6 min (6 x 60 s); retention 1 day;
 *       each drain step re-enqueues itself with a per-message delay, so a message lives one step. At most 5 drains
 *       at once (event-source cap, which does not throttle) bounds eviction pressure on the API server.</li>
 *   <li>The other queues dead-letter after 5 receives; every queue keeps dead letters 14 days (SQS's maximum).</li>
 *   <li><b>webhook</b>: 512 MB keeps JSON parsing well under the API server's 2 s webhook timeout; 3 s because the
 *       API server has given up after 2 s anyway; reserved concurrency 10 caps the cost of a flood.</li>
 *   <li><b>provisioner</b>: the scheduling solve is CPU-bound and 2048 MB buys more than one vCPU; 60 s covers a
 *       solve plus CreateFleet. Reserved concurrency 1: one provisioner at a time by construction (two would launch
 *       for the same pending pods). The FIFO group already serialises the event source, so the cap never throttles
 *       it (a throttled SQS invocation would burn a receive); it stops a second group or a direct invoke from
 *       running a second solve. The event source's MaximumConcurrency cannot express 1 (its minimum is 2).</li>
 *   <li><b>interruption</b>: a lookup and a few API calls per event; 30 s leaves room for a cordon under throttling.</li>
 *   <li><b>termination</b>: one drain step (evictions, then terminate) per message; waiting happens in the queue.</li>
 *   <li><b>sweep</b>: lists cluster and EC2 state and decides disruption; 50 s so a run ends before the next tick,
 *       reserved concurrency 1 so two sweeps never act on the same state at once; every minute.</li>
 *   <li><b>attach</b>: applies the in-cluster objects; on delete it also waits for the final sweep (which may first
 *       have to wait out a running sweep, since the sweep runs one at a time), hence 5 minutes.</li>
 *   <li><b>consolidation</b>: spot-to-spot replacement off (Karpenter's {@code SpotToSpotConsolidation} feature gate
 *       is off by default too), Gantry's engine. The sweep decides and the termination function re-validates with
 *       it ({@link ConsolidationVariables} carries it to them).</li>
 * </ul>
 *
 * @param queues        the work queues
 * @param functions     the functions
 * @param sweepRate     how often the sweep runs (EventBridge's finest rate is 1 minute)
 * @param consolidation the operator's consolidation settings (spot-to-spot, strategy)
 */
public record DeploymentSettings(List<QueueSettings> queues, List<FunctionSettings> functions, Duration sweepRate,
                                 ConsolidationSettings consolidation) {
    /** Lambda's SQS guidance: visibility at least 6x the function timeout (plus the batching window). */
    public static final int VISIBILITY_PER_TIMEOUT = 6;
    /** Slack between a failing message's last receive and its expiry (late first receive, clock skew). */
    public static final Duration DEAD_LETTER_MARGIN = Duration.ofMinutes(5);
    private static final Duration DLQ_RETENTION = Duration.ofDays(14);
    private static final int RECEIVES = 5;
    /** A failed run's hint comes back after 5 to 20 s: 8 receives outlast a fault of about 2 minutes. */
    private static final int PROVISIONING_RECEIVES = 8;
    private static final EventSourceSettings BATCH_OF_TEN = new EventSourceSettings(10, Duration.ZERO, null);

    public static final DeploymentSettings DEFAULT = new DeploymentSettings(
            List.of(
                    new QueueSettings("provisioning", true, Duration.ofMinutes(6), Duration.ofHours(1),
                            Duration.ofSeconds(1), PROVISIONING_RECEIVES, DLQ_RETENTION, "provisioner", BATCH_OF_TEN),
                    new QueueSettings("interruption", false, Duration.ofMinutes(3), Duration.ofHours(1),
                            Duration.ZERO, RECEIVES, DLQ_RETENTION, "interruption", BATCH_OF_TEN),
                    new QueueSettings("termination", false, Duration.ofMinutes(6), Duration.ofDays(1),
                            Duration.ZERO, RECEIVES, DLQ_RETENTION, "termination",
                            new EventSourceSettings(10, Duration.ZERO, 5))),
            List.of(
                    new FunctionSettings("webhook", 512, Duration.ofSeconds(3), 10),
                    new FunctionSettings("provisioner", 2048, Duration.ofSeconds(60), 1),
                    new FunctionSettings("interruption", 512, Duration.ofSeconds(30), null),
                    new FunctionSettings("termination", 512, Duration.ofSeconds(60), null),
                    new FunctionSettings("sweep", 1024, Duration.ofSeconds(50), 1),
                    new FunctionSettings("attach", 512, Duration.ofMinutes(5), null)),
            Duration.ofMinutes(1), ConsolidationSettings.DEFAULT);

    public DeploymentSettings {
        queues = List.copyOf(queues);
        functions = List.copyOf(functions);
        Objects.requireNonNull(sweepRate, "sweepRate");
        Objects.requireNonNull(consolidation, "consolidation");
    }

    /** With the default consolidation settings. */
    public DeploymentSettings(List<QueueSettings> queues, List<FunctionSettings> functions, Duration sweepRate) {
        this(queues, functions, sweepRate, ConsolidationSettings.DEFAULT);
    }

    /** @throws IllegalArgumentException when there is no queue of that name */
    public QueueSettings queue(String name) {
        return queues.stream().filter(q -> q.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no queue named " + name));
    }

    /** @throws IllegalArgumentException when there is no function of that name */
    public FunctionSettings function(String name) {
        return functions.stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no function named " + name));
    }

    public QueueSettings provisioningQueue() {
        return queue("provisioning");
    }

    public QueueSettings interruptionQueue() {
        return queue("interruption");
    }

    public QueueSettings terminationQueue() {
        return queue("termination");
    }

    /**
     * The webhook's deduplication bucket: hints of one reason within it collapse into one message. It equals the
     * provisioning queue's delivery delay, which makes the collapse lossless: the first message of a bucket becomes
     * visible no earlier than the bucket's end, so the provisioner run it triggers reads the cluster after every
     * event the bucket swallowed.
     */
    public Duration hintDeduplicationBucket() {
        return provisioningQueue().deliveryDelay();
    }

    public DeploymentSettings withSweepRate(Duration rate) {
        return new DeploymentSettings(queues, functions, rate, consolidation);
    }

    public DeploymentSettings withConsolidation(ConsolidationSettings c) {
        return new DeploymentSettings(queues, functions, sweepRate, c);
    }

    /** The same settings with {@code function} replacing the one of its name. */
    public DeploymentSettings with(FunctionSettings function) {
        function(function.name());
        return new DeploymentSettings(queues, functions.stream()
                .map(f -> f.name().equals(function.name()) ? function : f).toList(), sweepRate, consolidation);
    }

    /**
     * What is wrong with these settings, one line each (empty when nothing is): a queue whose retention does not
     * outlast its retries, a visibility shorter than 6x its consumer's timeout, a consumer that does not exist, a
     * dead-letter queue that keeps messages for less time than its source, a FIFO source with a batching window,
     * a hint bucket that is not a whole number of seconds, or a sweep rate under a minute.
     */
    public List<String> violations() {
        List<String> out = new ArrayList<>();
        for (QueueSettings q : queues) {
            Duration needed = q.timeToDeadLetter().plus(DEAD_LETTER_MARGIN);
            if (q.retention().compareTo(needed) < 0) {
                out.add(q.name() + ": retention " + q.retention() + " is shorter than delay + maxReceiveCount x "
                        + "visibility + " + DEAD_LETTER_MARGIN + " = " + needed + ", so a failing message expires "
                        + "before it is dead-lettered");
            }
            if (q.deadLetterRetention().compareTo(q.retention()) < 0) {
                out.add(q.name() + ": dead letters are kept for less than the queue keeps messages");
            }
            if (q.fifo() && !q.eventSource().maxBatchingWindow().isZero()) {
                out.add(q.name() + ": FIFO event sources support no batching window");
            }
            Optional<FunctionSettings> consumer = functions.stream().filter(f -> f.name().equals(q.consumer())).findFirst();
            if (consumer.isEmpty()) {
                out.add(q.name() + ": consumer " + q.consumer() + " is not a function");
                continue;
            }
            Duration timeout = consumer.get().timeout();
            Duration minimum = timeout.multipliedBy(VISIBILITY_PER_TIMEOUT).plus(q.eventSource().maxBatchingWindow());
            if (q.visibility().compareTo(minimum) < 0) {
                out.add(q.name() + ": visibility " + q.visibility() + " is under 6 x " + q.consumer() + "'s timeout "
                        + timeout + " (+ batching window) = " + minimum);
            }
        }
        Duration bucket = hintDeduplicationBucket();
        if (bucket.isZero() || bucket.isNegative() || bucket.toMillis() % 1000 != 0) {
            out.add("provisioning: the delivery delay (the hint bucket) must be a whole, positive number of seconds");
        }
        if (sweepRate.compareTo(Duration.ofMinutes(1)) < 0) {
            out.add("sweepRate must be at least 1 minute (EventBridge's finest rate)");
        }
        return out;
    }
}
