package dev.gantry.simulator.deployed;

import dev.gantry.simulator.bill.SelfUsage;
import dev.gantry.simulator.observe.Observers;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.simulator.runtime.LambdaContext;
import dev.gantry.simulator.runtime.Invocation;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.simulator.runtime.FunctionLogs;
import dev.gantry.simulator.runtime.Outcome;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.core.provisioning.ProvisioningOutcome;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.config.deployment.FunctionSettings;
import dev.gantry.config.deployment.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * Lambda's event sources, invoking the real handlers ({@link Handlers}) with the events Lambda delivers, through the
 * {@link LambdaRuntime}: invocations take the time their port calls cost, run concurrently, and are killed at their
 * function's timeout. An SQS event source polls its queue and hands a batch over as an {@link SQSEvent}; the records
 * the {@link SQSBatchResponse} names come back after their visibility timeout (or sooner, when the handler changed
 * it), the others are deleted; a handler that throws fails the whole batch; a killed invocation answers nothing, so
 * its whole batch comes back after the visibility timeout (or what the handler set before it died). The provisioning
 * queue is batched as the deployed FIFO event source sees it: the queue's delivery delay (plus the batching window,
 * none for FIFO) after the first message, everything that arrived by then, at most the batch size
 * ({@link DeploymentSettings}); one batch of the cluster's group at a time, since the queue holds the group while a
 * batch is in flight. The interruption and termination queues are delivered as their messages become visible, in as
 * many concurrent invocations as the event source's maximum concurrency and the function's reserved concurrency
 * allow (the lower of the two; none set: {@value #ACCOUNT_CONCURRENCY}, the account's default). EventBridge's
 * schedule invokes the sweep at the deployed rate with a Scheduled Event; while a sweep still runs, the reserved
 * concurrency of 1 throttles the next, and Lambda retries that asynchronous event once the running one is done. What
 * the handlers log goes to the timeline where it is a decision
 * ({@link dev.gantry.simulator.runtime.FunctionLogs}); the provisioner's failed
 * launches come from its runs' outcomes ({@link ProvisioningRuns}).
 *
 * <p>Not modelled: the SQS poller's gradual scale-up (Lambda adds concurrency by up to 300 a minute; here the limit
 * applies at once), throttling when reserved concurrency is below the event source's maximum (the deployment keeps
 * reserved concurrency at or above it, see {@code EventSourceSettings}), asynchronous retries of a failed sweep
 * (EventBridge's next scheduled run is the retry), and Lambda's own at-least-once invocation of one batch.
 */
public final class EventSources {
    static final int ACCOUNT_CONCURRENCY = 1000;
    /** The deployed settings the simulation runs: the queues, event sources and functions as the CDK app deploys them. */
    public static final DeploymentSettings DEPLOYED = DeploymentSettings.DEFAULT;
    public static final Duration BATCH_IDLE = DEPLOYED.provisioningQueue().deliveryDelay()
            .plus(DEPLOYED.provisioningQueue().eventSource().maxBatchingWindow());
    static final Duration BATCH_MAX = BATCH_IDLE;

    private final EventLoop loop;
    private final LambdaRuntime runtime;
    private final String region;
    private final SimulatedQueue provisioning;
    private final SimulatedQueue interruption;
    private final SimulatedQueue termination;
    private final Handlers handlers;
    private final Recorder recorder;
    private final Observers observers;
    private final Runnable newInvocation;
    private Instant windowOpened;
    private Instant lastArrival;
    private long invocations;
    private int pendingSweeps;
    int provisioningRuns;
    int failedRuns;
    long killedInvocations;
    long sweepsThrottled;
    private SelfUsage usage = new SelfUsage();

    public EventSources(EventLoop loop, LambdaRuntime runtime, String region, SimulatedQueue provisioning, SimulatedQueue interruption,
                 SimulatedQueue termination, Handlers handlers, Recorder recorder, Observers observers, Runnable newInvocation) {
        this.loop = loop;
        this.runtime = runtime;
        this.region = region;
        this.provisioning = provisioning;
        this.interruption = interruption;
        this.termination = termination;
        this.handlers = handlers;
        this.recorder = recorder;
        this.observers = observers;
        this.newInvocation = newInvocation;
        provisioning.onVisible(t -> loop.at(t, "provisioning message visible", this::arrival));
        interruption.onVisible(t -> loop.at(t, "interruption message visible", this::deliverInterruptions));
        termination.onVisible(t -> loop.at(t, "termination message visible", this::deliverTerminations));
    }

    /** Counts the schedule's events (AWS service events: free) into {@code u}. */
    public void meter(SelfUsage u) {
        this.usage = u;
    }

    public void startSweeps(Instant first) {
        loop.every(first, DEPLOYED.sweepRate(), "sweep", this::scheduledSweep);
    }

    /** How many invocations of the queue's consumer may run at once. */
    static int concurrency(QueueSettings q) {
        FunctionSettings f = DEPLOYED.function(q.consumer());
        int esm = q.eventSource().maxConcurrency() == null ? ACCOUNT_CONCURRENCY : q.eventSource().maxConcurrency();
        int reserved = f.reservedConcurrency() == null ? ACCOUNT_CONCURRENCY : f.reservedConcurrency();
        return Math.min(esm, reserved);
    }

    private void arrival() {
        Instant now = loop.now();
        lastArrival = now;
        if (windowOpened == null) {
            windowOpened = now;
        }
        loop.at(now.plus(BATCH_IDLE), "provisioning batch window", this::check);
    }

    private void check() {
        if (windowOpened == null) {
            return;
        }
        Instant due = lastArrival.plus(BATCH_IDLE);
        Instant cap = windowOpened.plus(BATCH_MAX);
        due = due.isBefore(cap) ? due : cap;
        if (loop.now().isBefore(due)) {
            loop.at(due, "provisioning batch window", this::check);
            return;
        }
        windowOpened = null;
        deliverProvisioning();
    }

    private void deliverProvisioning() {
        QueueSettings q = DEPLOYED.provisioningQueue();
        if (runtime.inFlight(q.consumer()) >= concurrency(q)) {
            return; // the end of the running invocation polls again
        }
        List<SimulatedQueue.Message> batch = provisioning.receive(q.eventSource().batchSize());
        if (batch.isEmpty()) {
            return;
        }
        provisioningRuns++;
        newInvocation.run();
        observers.provisioningRunStarts();
        invoke(q, provisioning, batch, handlers.provisioner()::handleRequest, (inv, run) -> {
            if (run.error() != null || run.result() == null || !run.result().getBatchItemFailures().isEmpty()) {
                failedRuns++;
            }
            if (!observers.failedScheduling().isEmpty()) {
                String first = observers.failedScheduling().firstEntry().getValue();
                recorder.log(loop.now(), "unschedulable", observers.failedScheduling().size() + " pods cannot be placed: " + first);
            }
            for (ProvisioningOutcome outcome : handlers.provisionerRuns().take(inv)) {
                outcome.failed().forEach(f -> recorder.log(loop.now(), "launch-failed", "nodeclaim/" + f.claim() + ": " + f.message()));
            }
            if (provisioning.hasVisible()) {
                arrival();
            }
        });
    }

    private void deliverInterruptions() {
        deliverStandard(DEPLOYED.interruptionQueue(), interruption, handlers.interruption()::handleRequest, this::deliverInterruptions);
    }

    private void deliverTerminations() {
        deliverStandard(DEPLOYED.terminationQueue(), termination, handlers.termination()::handleRequest, this::deliverTerminations);
    }

    /** Starts invocations while messages are visible and concurrency allows; each one's end polls again. */
    private void deliverStandard(QueueSettings q, SimulatedQueue queue, BiFunction<SQSEvent, LambdaContext, SQSBatchResponse> handler,
                                 Runnable again) {
        while (runtime.inFlight(q.consumer()) < concurrency(q)) {
            List<SimulatedQueue.Message> batch = queue.receive(q.eventSource().batchSize());
            if (batch.isEmpty()) {
                return;
            }
            invoke(q, queue, batch, handler, (inv, run) -> {
                if (queue.hasVisible()) {
                    again.run();
                }
            });
        }
    }

    /** One invocation of the queue's consumer with the batch; at its end, deletes what succeeded and releases the rest. */
    private void invoke(QueueSettings q, SimulatedQueue queue, List<SimulatedQueue.Message> batch,
                        BiFunction<SQSEvent, LambdaContext, SQSBatchResponse> handler,
                        BiConsumer<Invocation, Outcome<SQSBatchResponse>> after) {
        SQSEvent event = sqsEvent(q, queue, batch);
        FunctionSettings f = DEPLOYED.function(q.consumer());
        LambdaContext context = context(q.consumer());
        runtime.start(q.consumer(), f.timeout(), inv -> handler.apply(event, context), (inv, run) -> {
            Set<String> failed = new HashSet<>();
            String why;
            if (run.killed()) {
                killedInvocations++;
                batch.forEach(m -> failed.add(Long.toString(m.id())));
                why = "killed: " + run.error().getMessage();
                recorder.log(loop.now(), "error", run.error().getMessage() + "; its batch of " + batch.size()
                        + " comes back after the visibility timeout");
            } else if (run.error() != null) {
                batch.forEach(m -> failed.add(Long.toString(m.id())));
                why = "threw: " + run.error();
                recorder.log(loop.now(), "error", q.consumer() + " invocation failed, batch of " + batch.size()
                        + " redelivered: " + run.error());
            } else {
                if (run.result() != null && run.result().getBatchItemFailures() != null) {
                    run.result().getBatchItemFailures().forEach(x -> failed.add(x.getItemIdentifier()));
                }
                why = "reported failed: " + String.join(" | ", FunctionLogs.problems(run.err()).stream().limit(3).toList());
            }
            List<SimulatedQueue.Message> done = new ArrayList<>();
            for (SimulatedQueue.Message m : batch) {
                if (failed.contains(Long.toString(m.id()))) {
                    queue.release(m, why);
                } else {
                    done.add(m);
                }
            }
            queue.deleteAll(done);
            FunctionLogs.problems(run.err()).forEach(line -> recorder.log(loop.now(), "error", line));
            after.accept(inv, run);
        });
    }

    /** The batch as the SQS event source delivers it to the function. */
    private SQSEvent sqsEvent(QueueSettings q, SimulatedQueue queue, List<SimulatedQueue.Message> batch) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (SimulatedQueue.Message m : batch) {
            SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
            r.setMessageId(Long.toString(m.id()));
            r.setReceiptHandle(m.receiptHandle());
            r.setBody(m.body());
            Map<String, String> attributes = new LinkedHashMap<>();
            attributes.put("ApproximateReceiveCount", Integer.toString(m.receiveCount()));
            if (q.fifo()) {
                attributes.put("MessageGroupId", m.groupId());
            }
            r.setAttributes(attributes);
            r.setMessageAttributes(Map.of());
            r.setEventSource("aws:sqs");
            r.setEventSourceArn("arn:aws:sqs:" + region + ":" + LambdaContext.ACCOUNT + ":" + queue.name());
            r.setAwsRegion(region);
            records.add(r);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }

    private LambdaContext context(String function) {
        FunctionSettings f = DEPLOYED.function(function);
        return new LambdaContext(f, region, loop.clock(), ++invocations);
    }

    private void scheduledSweep() {
        usage.awsEvent("Scheduled Event");
        if (runtime.inFlight("sweep") >= DEPLOYED.function("sweep").reservedConcurrency()) {
            sweepsThrottled++;
            pendingSweeps++;
            return;
        }
        sweep();
    }

    private void sweep() {
        Map<String, Object> scheduled = new LinkedHashMap<>();
        scheduled.put("version", "0");
        scheduled.put("id", "sim-sweep-" + (invocations + 1));
        scheduled.put("detail-type", "Scheduled Event");
        scheduled.put("source", "aws.events");
        scheduled.put("account", LambdaContext.ACCOUNT);
        scheduled.put("time", loop.now().toString());
        scheduled.put("region", region);
        scheduled.put("resources", List.of("arn:aws:events:" + region + ":" + LambdaContext.ACCOUNT + ":rule/gantry-sweep"));
        scheduled.put("detail", Map.of());
        LambdaContext context = context("sweep");
        runtime.start("sweep", DEPLOYED.function("sweep").timeout(), inv -> handlers.sweep().handleRequest(scheduled, context),
                (inv, run) -> {
                    sweepEnded(run);
                    if (pendingSweeps > 0) {
                        pendingSweeps--;
                        sweep(); // Lambda retries the throttled asynchronous event
                    }
                });
    }

    private void sweepEnded(Outcome<Map<String, Object>> run) {
        FunctionLogs.problems(run.err()).forEach(line -> recorder.log(loop.now(), "error", line));
        if (run.killed()) {
            killedInvocations++;
            recorder.log(loop.now(), "error", run.error().getMessage());
            return;
        }
        if (run.error() != null) {
            // EventBridge's next scheduled run is the retry.
            recorder.log(loop.now(), "error", "sweep failed: " + run.error().getMessage());
            return;
        }
        Map<String, Object> r = run.result();
        long disrupted = number(r, "disrupted");
        long leaked = number(r, "leakedTerminated");
        long finished = number(r, "claimsFinished");
        boolean backstop = Boolean.TRUE.equals(r.get("backstopHint"));
        if (disrupted > 0 || leaked > 0 || finished > 0 || backstop) {
            recorder.log(loop.now(), "sweep", "disrupted " + disrupted + ", leaked instances terminated " + leaked
                    + ", claims finished " + finished + (backstop ? ", backstop hint" : ""));
        }
    }

    private static long number(Map<String, Object> m, String key) {
        return m.get(key) instanceof Number n ? n.longValue() : 0;
    }




    public int provisioningRuns() {
        return provisioningRuns;
    }

    public int failedRuns() {
        return failedRuns;
    }

    public long killedInvocations() {
        return killedInvocations;
    }

    public long sweepsThrottled() {
        return sweepsThrottled;
    }
}
