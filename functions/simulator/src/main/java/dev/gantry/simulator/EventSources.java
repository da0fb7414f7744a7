package dev.gantry.simulator;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
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
import java.util.function.BiFunction;

/**
 * Lambda's event sources, invoking the real handlers ({@link Handlers}) with the events Lambda delivers. An SQS event
 * source polls its queue and hands a batch over as an {@link SQSEvent}; the records the {@link SQSBatchResponse} names
 * come back after their visibility timeout (or sooner, when the handler changed it), the others are deleted; a handler
 * that throws fails the whole batch. The provisioning queue is batched as the deployed FIFO event source sees it: the
 * queue's delivery delay (plus the batching window, none for FIFO) after the first message, everything that arrived
 * by then, at most the batch size ({@link DeploymentSettings}); one batch of the cluster's group at a time, since the
 * queue holds the group while a batch is in flight. The interruption and termination queues are delivered as their
 * messages become visible. EventBridge's schedule invokes the sweep at the deployed rate with a Scheduled Event. What
 * the handlers log goes to the timeline where it is a decision ({@link FunctionLogs}).
 */
final class EventSources {
    static final String ACCOUNT = "111122223333";
    private static final DeploymentSettings DEPLOYED = Simulation.DEPLOYED;
    static final Duration BATCH_IDLE = DEPLOYED.provisioningQueue().deliveryDelay()
            .plus(DEPLOYED.provisioningQueue().eventSource().maxBatchingWindow());
    static final Duration BATCH_MAX = BATCH_IDLE;

    private final EventLoop loop;
    private final String region;
    private final SimQueue provisioning;
    private final SimQueue interruption;
    private final SimQueue termination;
    private final Handlers handlers;
    private final Recorder recorder;
    private final Observers observers;
    private final Runnable newInvocation;
    private Instant windowOpened;
    private Instant lastArrival;
    private long invocations;
    int provisioningRuns;
    int failedRuns;

    EventSources(EventLoop loop, String region, SimQueue provisioning, SimQueue interruption, SimQueue termination,
                 Handlers handlers, Recorder recorder, Observers observers, Runnable newInvocation) {
        this.loop = loop;
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

    void startSweeps(Instant first) {
        loop.every(first, DEPLOYED.sweepRate(), "sweep", this::sweep);
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
        List<SimQueue.Message> batch = provisioning.receive(q.eventSource().batchSize());
        if (batch.isEmpty()) {
            return;
        }
        provisioningRuns++;
        newInvocation.run();
        observers.failedScheduling.clear();
        FunctionLogs.Captured<SQSBatchResponse> run = invoke(q, provisioning, batch, handlers.provisioner()::handleRequest);
        if (run.error() != null || !run.result().getBatchItemFailures().isEmpty()) {
            failedRuns++;
        }
        if (!observers.failedScheduling.isEmpty()) {
            String first = observers.failedScheduling.firstEntry().getValue();
            recorder.log(loop.now(), "unschedulable", observers.failedScheduling.size() + " pods cannot be placed: " + first);
        }
        for (String line : run.out()) {
            // The handler's own line for a claim whose launch failed: "provisioner: nodeclaim/NAME failed: CODE".
            if (line.startsWith("provisioner: nodeclaim/") && line.contains(" failed: ")) {
                recorder.log(loop.now(), "launch-failed", line.substring("provisioner: ".length()).replace(" failed: ", ": "));
            }
        }
        if (provisioning.hasVisible()) {
            arrival();
        }
    }

    private void deliverInterruptions() {
        QueueSettings q = DEPLOYED.interruptionQueue();
        List<SimQueue.Message> batch = interruption.receive(q.eventSource().batchSize());
        if (!batch.isEmpty()) {
            invoke(q, interruption, batch, handlers.interruption()::handleRequest);
        }
    }

    private void deliverTerminations() {
        QueueSettings q = DEPLOYED.terminationQueue();
        List<SimQueue.Message> batch = termination.receive(q.eventSource().batchSize());
        if (!batch.isEmpty()) {
            invoke(q, termination, batch, handlers.termination()::handleRequest);
        }
    }

    /** One invocation of the queue's consumer with the batch; then deletes what succeeded and releases the rest. */
    private FunctionLogs.Captured<SQSBatchResponse> invoke(QueueSettings q, SimQueue queue, List<SimQueue.Message> batch,
                                                           BiFunction<SQSEvent, LambdaContext, SQSBatchResponse> handler) {
        SQSEvent event = sqsEvent(q, queue, batch);
        LambdaContext context = context(q.consumer());
        FunctionLogs.Captured<SQSBatchResponse> run = FunctionLogs.capture(() -> handler.apply(event, context));
        Set<String> failed = new HashSet<>();
        if (run.error() != null) {
            batch.forEach(m -> failed.add(Long.toString(m.id())));
            recorder.log(loop.now(), "error", q.consumer() + " invocation failed, batch of " + batch.size()
                    + " redelivered: " + run.error());
        } else if (run.result() != null && run.result().getBatchItemFailures() != null) {
            run.result().getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
        }
        for (SimQueue.Message m : batch) {
            if (failed.contains(Long.toString(m.id()))) {
                queue.release(m);
            } else {
                queue.delete(m);
            }
        }
        run.err().forEach(line -> recorder.log(loop.now(), "error", line));
        return run;
    }

    /** The batch as the SQS event source delivers it to the function. */
    private SQSEvent sqsEvent(QueueSettings q, SimQueue queue, List<SimQueue.Message> batch) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (SimQueue.Message m : batch) {
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
            r.setEventSourceArn("arn:aws:sqs:" + region + ":" + ACCOUNT + ":" + queue.name());
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

    private void sweep() {
        Map<String, Object> scheduled = new LinkedHashMap<>();
        scheduled.put("version", "0");
        scheduled.put("id", "sim-sweep-" + (invocations + 1));
        scheduled.put("detail-type", "Scheduled Event");
        scheduled.put("source", "aws.events");
        scheduled.put("account", ACCOUNT);
        scheduled.put("time", loop.now().toString());
        scheduled.put("region", region);
        scheduled.put("resources", List.of("arn:aws:events:" + region + ":" + ACCOUNT + ":rule/gantry-sweep"));
        scheduled.put("detail", Map.of());
        LambdaContext context = context("sweep");
        FunctionLogs.Captured<Map<String, Object>> run = FunctionLogs.capture(() -> handlers.sweep().handleRequest(scheduled, context));
        run.err().forEach(line -> recorder.log(loop.now(), "error", line));
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
}
