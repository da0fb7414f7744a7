package dev.gantry.simulator;

import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.provisioning.ProvisioningOutcome;
import dev.gantry.core.sweep.SweepReport;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationRequest;
import dev.gantry.core.termination.TerminationService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lambda functions as their triggers invoke them, calling the same application services the real handlers call.
 * The provisioning queue is batched as the deployed FIFO event source sees it: the queue's delivery delay (plus the
 * batching window, none for FIFO) after the first message, everything that arrived by then, at most the batch size
 * ({@link DeploymentSettings}). A failed run fails the whole batch, which comes back after the visibility timeout (the
 * handler's partial-batch response). Interruption and termination messages are handled one by one and only the
 * failed ones come back. The sweep runs at the deployed rate.
 */
final class Functions {
    private static final DeploymentSettings DEPLOYED = Simulation.DEPLOYED;
    static final Duration BATCH_IDLE = DEPLOYED.provisioningQueue().deliveryDelay()
            .plus(DEPLOYED.provisioningQueue().eventSource().maxBatchingWindow());
    static final Duration BATCH_MAX = BATCH_IDLE;
    static final int BATCH_SIZE = DEPLOYED.provisioningQueue().eventSource().batchSize();
    static final int INTERRUPTION_BATCH_SIZE = DEPLOYED.interruptionQueue().eventSource().batchSize();
    static final int TERMINATION_BATCH_SIZE = DEPLOYED.terminationQueue().eventSource().batchSize();
    private static final Pattern TERMINATION = Pattern.compile("\\{\"claim\":\"([^\"]+)\",\"step\":(\\d+)}");

    private final EventLoop loop;
    private final SimQueue provisioning;
    private final SimQueue interruption;
    private final SimQueue termination;
    private final HintBatchService hintBatches;
    private final InterruptionService interruptions;
    private final TerminationService terminations;
    private final SweepService sweep;
    private final NodeClaimStore store;
    private final Recorder recorder;
    private final Runnable newInvocation;
    private Instant windowOpened;
    private Instant lastArrival;
    int provisioningRuns;
    int failedRuns;

    Functions(EventLoop loop, SimQueue provisioning, SimQueue interruption, SimQueue termination, HintBatchService hintBatches,
              InterruptionService interruptions, TerminationService terminations, SweepService sweep, NodeClaimStore store,
              Recorder recorder, Runnable newInvocation) {
        this.loop = loop;
        this.provisioning = provisioning;
        this.interruption = interruption;
        this.termination = termination;
        this.hintBatches = hintBatches;
        this.interruptions = interruptions;
        this.terminations = terminations;
        this.sweep = sweep;
        this.store = store;
        this.recorder = recorder;
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
        List<SimQueue.Message> batch = provisioning.receive(BATCH_SIZE);
        if (batch.isEmpty()) {
            return;
        }
        List<ProvisioningHint> hints = new ArrayList<>();
        List<SimQueue.Message> good = new ArrayList<>();
        for (SimQueue.Message m : batch) {
            try {
                hints.add(HintMessages.decode(m.body()));
                good.add(m);
            } catch (RuntimeException malformed) {
                provisioning.release(m);
            }
        }
        provisioningRuns++;
        newInvocation.run();
        try {
            ProvisioningOutcome o = hintBatches.handle(hints);
            good.forEach(provisioning::delete);
            if (!o.unschedulable().isEmpty()) {
                String first = new java.util.TreeMap<>(o.unschedulable()).firstEntry().getValue();
                recorder.log(loop.now(), "unschedulable", o.unschedulable().size() + " pods cannot be placed: " + first);
            }
            o.failed().forEach(f -> recorder.log(loop.now(), "launch-failed", "nodeclaim/" + f.claim() + ": " + f.code()));
        } catch (RuntimeException e) {
            failedRuns++;
            good.forEach(provisioning::release);
            recorder.log(loop.now(), "error", "provisioner run failed, batch of " + good.size() + " redelivered: " + e.getMessage());
        }
        if (provisioning.hasVisible()) {
            arrival();
        }
    }

    private void deliverInterruptions() {
        for (SimQueue.Message m : interruption.receive(INTERRUPTION_BATCH_SIZE)) {
            try {
                interruptions.handle(EventBridge.envelope(m.body())).forEach(o -> {
                    if (!o.metricKinds().isEmpty()) {
                        recorder.log(loop.now(), "interruption", o.event().kind() + " for " + o.event().instanceId()
                                + o.slice().map(s -> " → draining nodeclaim/" + s.claim()).orElse(""));
                    }
                });
                interruption.delete(m);
            } catch (RuntimeException e) {
                interruption.release(m);
                recorder.log(loop.now(), "error", "interruption message failed (receive " + m.receiveCount() + "): " + e.getMessage());
            }
        }
    }

    private void deliverTerminations() {
        for (SimQueue.Message m : termination.receive(TERMINATION_BATCH_SIZE)) {
            Matcher t = TERMINATION.matcher(m.body());
            if (!t.matches()) {
                termination.release(m);
                continue;
            }
            try {
                terminations.slice(new TerminationRequest(t.group(1), Integer.parseInt(t.group(2))));
                termination.delete(m);
            } catch (RuntimeException e) {
                termination.release(m);
                recorder.log(loop.now(), "error", "termination slice failed (receive " + m.receiveCount() + "): " + e.getMessage());
            }
        }
    }

    private void sweep() {
        try {
            SweepReport r = sweep.sweep();
            if (r.disrupted() > 0 || r.leakedTerminated() > 0 || r.claimsFinished() > 0 || r.backstopHint()) {
                recorder.log(loop.now(), "sweep", "disrupted " + r.disrupted() + ", leaked instances terminated "
                        + r.leakedTerminated() + ", claims finished " + r.claimsFinished() + (r.backstopHint() ? ", backstop hint" : ""));
            }
        } catch (RuntimeException e) {
            recorder.log(loop.now(), "error", "sweep failed: " + e.getMessage());
        }
    }
}
