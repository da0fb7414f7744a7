package dev.gantry.core.provisioning;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a provisioning run did, for the handler to log and turn into metrics.
 *
 * @param pendingPods      pods waiting for capacity when the run began
 * @param oldestPendingAge how long the oldest of them has existed (zero when none, or when creation times are unknown)
 * @param launched         claims whose instance was launched in this run (new and resumed)
 * @param resumed          names of claims found in Launching and completed (a crash or timeout interrupted them)
 * @param nominations      pod key ({@code namespace/name}) to the claim it should land on (new or in flight)
 * @param unschedulable    pod key to the reason no capacity could be planned for it
 * @param failed           claims whose launch failed for good, with the provider's error code
 * @param rounds           how many plans were made (more than one after insufficient capacity)
 * @param deferred         claims left unlaunched because the run ran short of time (planned ones not recorded, and
 *                         resumable ones left Launching): a further run is needed at once
 * @param capacityShort    the run's last plan still found no capacity: its offerings are now out of plans, and other
 *                         offerings may hold the pods it left pending, so the next run is worth making at once (as
 *                         Karpenter's provisioner plans again within seconds of an insufficient-capacity error), not at
 *                         the next hint or the sweep's backstop
 */
public record ProvisioningOutcome(int pendingPods, Duration oldestPendingAge, List<LaunchedClaim> launched,
                                  List<String> resumed, Map<String, String> nominations, Map<String, String> unschedulable,
                                  List<FailedLaunch> failed, int rounds, int deferred, boolean capacityShort) {
    public ProvisioningOutcome {
        launched = List.copyOf(launched);
        resumed = List.copyOf(resumed);
        nominations = Map.copyOf(nominations);
        unschedulable = Map.copyOf(unschedulable);
        failed = List.copyOf(failed);
    }

    /** A claim and the instance launched for it. */
    public record LaunchedClaim(String claim, String nodePool, String instanceId, String instanceType, String zone,
                                String capacityType, double pricePerHour) {
    }

    /**
     * A claim given up: its record is Terminated with reason {@code launch-failed}. {@code message} is why, in the
     * provider's words where it gave some ({@code InvalidBlockDeviceMapping: CreateFleet launched no instance: Volume
     * of size 2GB is smaller than snapshot 'snap-…', expect size >= 4GB}), else the code.
     */
    public record FailedLaunch(String claim, String code, String message) {
        /** Longest message kept: an authorization failure's encoded message alone runs to kilobytes. */
        static final int MAX_MESSAGE = 1024;

        static String bounded(String message) {
            return message == null || message.length() <= MAX_MESSAGE ? message
                    : message.substring(0, MAX_MESSAGE - 1) + "…";
        }
    }

    /** The hourly price of everything launched in this run. */
    public double launchedPricePerHour() {
        return launched.stream().mapToDouble(LaunchedClaim::pricePerHour).sum();
    }
}
