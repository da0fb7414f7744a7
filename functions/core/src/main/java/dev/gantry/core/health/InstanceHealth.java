package dev.gantry.core.health;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What EC2's status checks say of one instance (DescribeInstanceStatus): the checks that failed and the maintenance
 * events scheduled for it. Only instances with something to say are reported.
 *
 * @param failed checks whose status is {@code failed} (instance or system)
 * @param events scheduled events (retirement, reboot, stop, maintenance), completed and canceled ones included
 */
public record InstanceHealth(String instanceId, List<FailedCheck> failed, List<ScheduledEvent> events) {
    public InstanceHealth {
        Objects.requireNonNull(instanceId, "instanceId");
        failed = List.copyOf(failed == null ? List.of() : failed);
        events = List.copyOf(events == null ? List.of() : events);
    }

    /**
     * A failed status check.
     *
     * @param scope         {@code instance} (the instance's own reachability: its OS, network, kernel) or {@code system}
     *                      (the host's: power, network, hardware)
     * @param name          the check, {@code reachability}
     * @param impairedSince when it started failing, or null when EC2 did not say
     */
    public record FailedCheck(String scope, String name, Instant impairedSince) {
    }

    /**
     * A scheduled event.
     *
     * @param code        {@code instance-retirement}, {@code instance-reboot}, {@code system-reboot},
     *                    {@code system-maintenance} or {@code instance-stop}
     * @param notBefore   its earliest start, or null
     * @param description EC2's description; {@code [Completed]} or {@code [Canceled]} in front once it is over
     */
    public record ScheduledEvent(String code, String eventId, Instant notBefore, String description) {
        /** Over: EC2 keeps a completed or canceled event listed for a while, its description prefixed so. */
        public boolean over() {
            return description != null && (description.startsWith("[Completed]") || description.startsWith("[Canceled]"));
        }
    }
}
