package dev.gantry.core.sweep;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.health.InstanceHealth;
import dev.gantry.core.health.InstanceStatusChecks;
import dev.gantry.core.health.InstanceStatusDecision;
import dev.gantry.core.interruption.InterruptionEvent;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The sweep's instance status step (Karpenter v1.12's DescribeInstanceStatus polling, once a sweep instead of once a
 * minute): reads EC2's status checks ({@link InstanceStatusChecks}) and acts as {@link InstanceStatusDecision} says. A
 * failed check terminates the node through the termination flow with the deadline now (its pods are deleted, not
 * waited for, and provisioned again as any pending pod); a scheduled event goes to the interruption path as an AWS
 * Health scheduled change would (Event, replacement hint, cordon and drain), so both sources act alike. A failed
 * listing (throttled, denied) skips the step: the next sweep reads again.
 */
public final class InstanceStatusStep {
    private static final System.Logger LOG = System.getLogger(InstanceStatusStep.class.getName());

    /** What one run did: nodes terminated for a failed check, nodes handed over for a scheduled event, or why it skipped. */
    public record Done(int terminated, int drained, String skipped) {
        static final Done NONE = new Done(0, 0, null);
    }

    private final InstanceStatusChecks checks;
    private final TerminationService termination;
    private final Consumer<InterruptionEvent> scheduledChange;

    /**
     * @param scheduledChange the interruption path ({@code InterruptionService::handle}), for scheduled events
     */
    public InstanceStatusStep(InstanceStatusChecks checks, TerminationService termination,
                              Consumer<InterruptionEvent> scheduledChange) {
        this.checks = checks;
        this.termination = termination;
        this.scheduledChange = scheduledChange;
    }

    Done run(List<NodeClaim> claims, Instant now, Map<String, Integer> terminated, Supplier<FirstSlice> firstSlice) {
        List<InstanceHealth> statuses;
        try {
            statuses = checks.unhealthy();
        } catch (CloudException e) {
            String why = "UnauthorizedOperation".equals(e.code())
                    ? "ec2:DescribeInstanceStatus is denied: grant it to the sweep's role to act on status checks"
                    : "instance status checks not read, the next sweep retries: " + e.getMessage();
            LOG.log(System.Logger.Level.WARNING, "sweep: " + why);
            return new Done(0, 0, why);
        }
        if (statuses.isEmpty()) {
            return Done.NONE;
        }
        int killed = 0;
        int drained = 0;
        for (InstanceStatusDecision.Action a : InstanceStatusDecision.decide(claims, statuses, now)) {
            switch (a) {
                case InstanceStatusDecision.Terminate t -> {
                    var slice = termination.start(t.claim(), TerminationStart.because(InstanceStatusDecision.FAILED_REASON)
                            .by(now).with(firstSlice.get()));
                    if (slice.filter(s -> s.finished() && !s.commands().isEmpty()).isPresent()) {
                        terminated.merge(InstanceStatusDecision.FAILED_REASON, 1, Integer::sum);
                    }
                    killed++;
                }
                case InstanceStatusDecision.Drain d -> {
                    scheduledChange.accept(new InterruptionEvent.ScheduledChange(d.instanceId(), now, d.event().code(),
                            d.event().notBefore()));
                    drained++;
                }
            }
        }
        return new Done(killed, drained, null);
    }
}
