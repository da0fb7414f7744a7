package dev.gantry.simulator.scenario;

import dev.gantry.core.model.KubeDuration;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * Reads a scenario's {@code events:} list: each event has an {@code at} (no later than the scenario's end) and exactly
 * one action ({@link #ACTIONS}); {@code awsEvent} may name the {@code instance} it is about. {@code apply} takes a
 * manifest file, or one NodePool or EC2NodeClass written inline; {@code delete} a {@code deployment}, or a
 * {@code kind} and {@code name} of those ({@link ConfigEvents}). Each action becomes a
 * {@link Scenario.Action}; the event keeps its line, for errors met while it runs.
 */
final class EventsReader {
    static final List<String> ACTIONS = List.of("apply", "scale", "interrupt", "awsEvent", "deleteNode",
            "terminateAllNodes", "fault", "delete", "amiRelease", "reservationInterruption");
    private static final Set<String> FAULTS = Set.of("ice", "throttle", "outage", "apiServerDown", "crashAfterLaunch");

    private final ScenarioNodes yaml;

    EventsReader(ScenarioNodes yaml) {
        this.yaml = yaml;
    }

    /** @param total the scenario's duration: no event may come after it */
    Scenario.Event event(Node n, Duration total) {
        Set<String> allowed = new HashSet<>(ACTIONS);
        allowed.addAll(HealthEventsReader.ACTIONS);
        allowed.addAll(Set.of("at", "instance"));
        Map<String, NodeTuple> f = yaml.map(n, allowed, "events[].");
        Duration at = yaml.duration(yaml.require(f, "at", n));
        if (at.compareTo(total) > 0) {
            throw yaml.error(f.get("at").getValueNode(), "event at " + KubeDuration.format(at) + " is after the end ("
                    + KubeDuration.format(total) + ")");
        }
        List<String> every = java.util.stream.Stream.concat(ACTIONS.stream(), HealthEventsReader.ACTIONS.stream()).toList();
        List<String> present = every.stream().filter(f::containsKey).toList();
        if (present.size() != 1) {
            throw yaml.error(n, present.isEmpty() ? "an event needs one of " + every : "an event has one action, not " + present);
        }
        String kind = present.getFirst();
        Node v = f.get(kind).getValueNode();
        Scenario.Action action = switch (kind) {
            case "apply" -> v instanceof org.snakeyaml.engine.v2.nodes.MappingNode ? new ConfigEvents(yaml).apply(v)
                    : new Scenario.Apply(yaml.existing(v));
            case "scale" -> NodePoolScale.isFor(yaml, v) ? NodePoolScale.read(yaml, v) : scale(v);
            case "nodeCondition", "statusCheck" -> new HealthEventsReader(yaml).read(kind, v);
            case "delete" -> {
                Map<String, NodeTuple> d = yaml.map(v, Set.of("deployment", "kind", "name"), "delete.");
                yield ConfigEvents.isConfigDelete(d.keySet()) && !d.containsKey("deployment") ? new ConfigEvents(yaml).delete(v, d)
                        : new Scenario.Delete(deployment(yaml.require(d, "deployment", v)));
            }
            case "interrupt" -> interrupt(v);
            case "awsEvent" -> {
                Map<String, NodeTuple> inst = f.containsKey("instance")
                        ? yaml.map(f.get("instance").getValueNode(), Set.of("nodePool", "index"), "instance.") : Map.of();
                yield new Scenario.AwsEvent(yaml.existing(v), yaml.optString(inst, "nodePool"),
                        (int) yaml.optInt(inst, "index", 0));
            }
            case "deleteNode" -> {
                Map<String, NodeTuple> d = yaml.map(v, Set.of("nodePool", "index"), "deleteNode.");
                yield new Scenario.DeleteNode(yaml.optString(d, "nodePool"), (int) yaml.optInt(d, "index", 0));
            }
            case "amiRelease" -> {
                Map<String, NodeTuple> r = yaml.map(v, Set.of("family", "version", "bad", "crashLoop", "deregistered"), "amiRelease.");
                yield new Scenario.AmiRelease(yaml.string(yaml.require(r, "family", v)), yaml.string(yaml.require(r, "version", v)),
                        imageFault(r, v));
            }
            case "reservationInterruption" -> {
                Map<String, NodeTuple> r = yaml.map(v, Set.of("reservation", "count"), "reservationInterruption.");
                yield new Scenario.ReservationInterruption(yaml.string(yaml.require(r, "reservation", v)),
                        (int) yaml.optInt(r, "count", 1));
            }
            case "terminateAllNodes" -> {
                if (!yaml.bool(v)) {
                    throw yaml.error(v, "terminateAllNodes takes true");
                }
                yield new Scenario.TerminateAllNodes();
            }
            default -> fault(v);
        };
        return new Scenario.Event(at, action, ScenarioNodes.line(n));
    }

    private Scenario.Action scale(Node v) {
        Map<String, NodeTuple> s = yaml.map(v, Set.of("deployment", "replicas"), "scale.");
        long replicas = yaml.integer(yaml.require(s, "replicas", v));
        if (replicas < 0) {
            throw yaml.error(s.get("replicas").getValueNode(), "replicas must not be negative");
        }
        return new Scenario.Scale(deployment(yaml.require(s, "deployment", v)), (int) replicas);
    }

    private Scenario.Action interrupt(Node v) {
        Map<String, NodeTuple> m = yaml.map(v, Set.of("kind", "capacityType", "zone", "nodePool", "count", "warnAfter"), "interrupt.");
        String kind = m.containsKey("kind") ? yaml.string(m.get("kind").getValueNode()) : "spot";
        if (!List.of("spot", "rebalance", "health", "failure").contains(kind)) {
            throw yaml.error(m.get("kind").getValueNode(), "kind must be spot, rebalance, health or failure, not '" + kind + "'");
        }
        if (m.containsKey("warnAfter") && !kind.equals("rebalance")) {
            throw yaml.error(m.get("warnAfter").getKeyNode(), "warnAfter follows a rebalance recommendation only, not kind '" + kind + "'");
        }
        return new Scenario.Interrupt(kind, yaml.optString(m, "capacityType"), yaml.optString(m, "zone"),
                yaml.optString(m, "nodePool"), (int) yaml.optInt(m, "count", 1),
                m.containsKey("warnAfter") ? yaml.optDuration(m, "warnAfter") : null);
    }

    /** A timed fault: {@code ice}, {@code throttle}, {@code outage}, {@code apiServerDown} or {@code crashAfterLaunch}. */
    private Scenario.Action fault(Node v) {
        Map<String, NodeTuple> m = yaml.map(v, FAULTS, "fault.");
        if (m.size() != 1) {
            throw yaml.error(v, "a fault has one of ice, throttle, outage, apiServerDown, crashAfterLaunch");
        }
        Map.Entry<String, NodeTuple> e = m.entrySet().iterator().next();
        Node b = e.getValue().getValueNode();
        return switch (e.getKey()) {
            case "ice" -> {
                Map<String, NodeTuple> i = yaml.map(b, Set.of("instanceTypes", "zones", "capacityTypes", "for"), "ice.");
                yield new Scenario.Ice(yaml.optStrings(i, "instanceTypes"), yaml.optStrings(i, "zones"),
                        yaml.optStrings(i, "capacityTypes"), yaml.duration(yaml.require(i, "for", b)));
            }
            case "throttle" -> throttle(b);
            case "outage" -> new Scenario.Ec2Outage(yaml.duration(yaml.require(yaml.map(b, Set.of("for"), "outage."), "for", b)));
            case "apiServerDown" -> new Scenario.ApiServerDown(yaml.duration(yaml.require(
                    yaml.map(b, Set.of("for"), "apiServerDown."), "for", b)));
            default -> new Scenario.CrashAfterLaunch((int) yaml.optInt(yaml.map(b, Set.of("count"), "crashAfterLaunch."),
                    "count", 1));
        };
    }

    /** A share of EC2 calls refused ({@code probability}), or a noisy neighbour draining the token buckets. */
    private Scenario.Action throttle(Node b) {
        Map<String, NodeTuple> t = yaml.map(b, Set.of("probability", "neighbour", "for"), "throttle.");
        if (t.containsKey("probability") == t.containsKey("neighbour")) {
            throw yaml.error(b, "a throttle has one of probability (a share of calls refused) or neighbour (how many "
                    + "times each API's refill rate a noisy neighbour asks for)");
        }
        if (t.containsKey("neighbour")) {
            double demand = Double.parseDouble(yaml.string(t.get("neighbour").getValueNode()));
            if (demand < 0) {
                throw yaml.error(t.get("neighbour").getValueNode(), "neighbour must not be negative");
            }
            return new Scenario.NoisyNeighbour(demand, yaml.duration(yaml.require(t, "for", b)));
        }
        double p = Double.parseDouble(yaml.string(yaml.require(t, "probability", b)));
        if (p < 0 || p > 1) {
            throw yaml.error(t.get("probability").getValueNode(), "probability must be between 0 and 1");
        }
        return new Scenario.Throttle(p, yaml.duration(yaml.require(t, "for", b)));
    }

    /** {@code namespace/name}. */
    private String deployment(Node n) {
        String s = yaml.string(n);
        if (!s.matches("[a-z0-9][-a-z0-9.]*/[a-z0-9][-a-z0-9.]*")) {
            throw yaml.error(n, "a deployment is written namespace/name, got '" + s + "'");
        }
        return s;
    }

    /** At most one of {@code bad}, {@code crashLoop}, {@code deregistered}, each a boolean. */
    private dev.gantry.simulator.world.aws.SimulatedImages.Fault imageFault(Map<String, NodeTuple> r, Node v) {
        dev.gantry.simulator.world.aws.SimulatedImages.Fault fault = dev.gantry.simulator.world.aws.SimulatedImages.Fault.NONE;
        for (var e : Map.of("bad", dev.gantry.simulator.world.aws.SimulatedImages.Fault.NEVER_READY,
                "crashLoop", dev.gantry.simulator.world.aws.SimulatedImages.Fault.CRASH_LOOP,
                "deregistered", dev.gantry.simulator.world.aws.SimulatedImages.Fault.DEREGISTERED).entrySet()) {
            if (r.containsKey(e.getKey()) && yaml.bool(r.get(e.getKey()).getValueNode())) {
                if (fault != dev.gantry.simulator.world.aws.SimulatedImages.Fault.NONE) {
                    throw yaml.error(v, "amiRelease takes at most one of bad, crashLoop, deregistered");
                }
                fault = e.getValue();
            }
        }
        return fault;
    }
}
