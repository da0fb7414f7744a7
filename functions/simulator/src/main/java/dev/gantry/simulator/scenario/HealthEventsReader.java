package dev.gantry.simulator.scenario;

import dev.gantry.core.health.InstanceStatusChecks;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * Reads the node-health events of a scenario ({@link HealthEvent}):
 * <pre>
 *   - {at: 10m, nodeCondition: {type: AcceleratedHardwareReady, status: "False", nodePool: gpu, count: 1}}
 *   - {at: 20m, nodeCondition: {type: Ready, status: Unknown, zone: us-east-1a, count: 100}}
 *   - {at: 30m, statusCheck: {check: system, nodePool: web, count: 1}}
 *   - {at: 40m, statusCheck: {event: instance-retirement, in: 48h, nodePool: web}}
 * </pre>
 * with a {@code file:line:column} error for a status that is not True, False or Unknown, a check that is not
 * instance, system or ok, or an event code EC2 does not schedule.
 */
final class HealthEventsReader {
    static final List<String> ACTIONS = List.of("nodeCondition", "statusCheck");
    private static final List<String> STATUSES = List.of("True", "False", "Unknown");
    private static final List<String> CHECKS = List.of("instance", "system", "ok");

    private final ScenarioNodes yaml;

    HealthEventsReader(ScenarioNodes yaml) {
        this.yaml = yaml;
    }

    Scenario.Action read(String kind, Node v) {
        return new Scenario.Health(kind.equals("nodeCondition") ? condition(v) : statusCheck(v));
    }

    private HealthEvent condition(Node v) {
        Map<String, NodeTuple> m = yaml.map(v, Set.of("type", "status", "nodePool", "zone", "count"), "nodeCondition.");
        String type = yaml.string(yaml.require(m, "type", v));
        Node statusNode = yaml.require(m, "status", v);
        String status = yaml.string(statusNode);
        if (!STATUSES.contains(status)) {
            throw yaml.error(statusNode, "status must be one of " + STATUSES + " (quote \"False\" and \"True\"), not '" + status + "'");
        }
        return new HealthEvent.Condition(type, status, yaml.optString(m, "nodePool"), yaml.optString(m, "zone"), count(m));
    }

    private HealthEvent statusCheck(Node v) {
        Map<String, NodeTuple> m = yaml.map(v, Set.of("check", "event", "in", "nodePool", "zone", "count"), "statusCheck.");
        if (m.containsKey("check") == m.containsKey("event")) {
            throw yaml.error(v, "a statusCheck has one of check (instance, system or ok) or event (a scheduled event code)");
        }
        String check = yaml.optString(m, "check");
        if (check != null && !CHECKS.contains(check)) {
            throw yaml.error(m.get("check").getValueNode(), "check must be one of " + CHECKS + ", not '" + check + "'");
        }
        String event = yaml.optString(m, "event");
        if (event != null && !InstanceStatusChecks.EVENT_CODES.contains(event)) {
            throw yaml.error(m.get("event").getValueNode(), "event must be one of " + InstanceStatusChecks.EVENT_CODES
                    + ", not '" + event + "'");
        }
        long in = m.containsKey("in") ? yaml.duration(m.get("in").getValueNode()).toSeconds() : 0;
        return new HealthEvent.StatusCheck(check, event, in, yaml.optString(m, "nodePool"), yaml.optString(m, "zone"), count(m));
    }

    private int count(Map<String, NodeTuple> m) {
        long count = yaml.optInt(m, "count", 1);
        if (count < 1) {
            throw yaml.error(m.get("count").getValueNode(), "count must be at least 1");
        }
        return (int) count;
    }
}
