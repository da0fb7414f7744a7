package dev.gantry.simulator.scenario;

/**
 * A scenario's node-health events ({@link HealthEventsReader}): a node agent or the node lifecycle controller setting a
 * condition, and EC2's status checks failing or scheduling an event. Each picks up to {@code count} live instances
 * of {@code nodePool} in {@code zone} (either may be null: any), in launch order.
 */
public sealed interface HealthEvent {
    String nodePool();

    String zone();

    int count();

    /** How the report's timeline names it. */
    default String label() {
        String where = (nodePool() == null ? "" : " of " + nodePool()) + (zone() == null ? "" : " in " + zone());
        return switch (this) {
            case Condition c -> c.type() + "=" + c.status() + " on " + c.count() + " node" + (c.count() == 1 ? "" : "s") + where;
            case StatusCheck s -> (s.check() != null ? s.check() + " status check" : s.event() + " scheduled") + " for "
                    + s.count() + " instance" + (s.count() == 1 ? "" : "s") + where;
        };
    }

    /**
     * A node condition changes, with its transition time now: {@code KernelReady False} (a kernel deadlock, as the
     * EKS node monitoring agent reports it), {@code AcceleratedHardwareReady False} (a GPU failure), {@code Ready
     * Unknown} (the kubelet stopped posting: the node controller's mark; the node is not Ready), {@code Ready True}
     * again, and so on.
     */
    record Condition(String type, String status, String nodePool, String zone, int count) implements HealthEvent {
    }

    /**
     * EC2's status checks: {@code check} {@code instance} or {@code system} fails now, or {@code event} (an event code,
     * e.g. {@code instance-retirement}) is scheduled {@code in} seconds from now; {@code ok} clears both checks.
     */
    record StatusCheck(String check, String event, long inSeconds, String nodePool, String zone, int count)
            implements HealthEvent {
    }
}
