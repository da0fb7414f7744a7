package dev.gantry.handlers;

import dev.gantry.core.provisioning.ProvisioningOutcome;

/**
 * Learns what each provisioning run did as a value, not as the run's log lines: the claims it launched (new and
 * resumed), those whose launch failed for good with the provider's error code, the pods it left unschedulable.
 * Production passes {@link #NONE}; the simulator's observers subscribe.
 *
 * <p>{@link #ran} is called once per run that completed, on the invocation's thread, after the run's metrics and log
 * lines are written and before the handler answers. A run that threw, or whose invocation died first, reports
 * nothing. It must return quickly and must not throw: an exception there fails the run's batch as a failed run does.
 */
@FunctionalInterface
public interface ProvisioningListener {
    /** Listens to nothing. */
    ProvisioningListener NONE = outcome -> { };

    void ran(ProvisioningOutcome outcome);
}
