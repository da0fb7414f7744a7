package dev.gantry.simulator.world.health;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.health.InstanceHealth;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Carries out a scenario's node-health events on the simulated world: a condition set on the nodes of the chosen
 * instances (its transition time now; {@code Ready} also flips the node's readiness, as the node controller's mark
 * does), or EC2's status checks changed for them ({@link SimulatedStatusChecks}).
 */
public final class HealthActions {
    private final InMemoryCluster cluster;
    private final SimulatedStatusChecks checks;

    public HealthActions(InMemoryCluster cluster, SimulatedStatusChecks checks) {
        this.cluster = cluster;
        this.checks = checks;
    }

    /** Sets {@code type=status} on the nodes of {@code targets}; returns how many nodes changed. */
    public int condition(String type, String status, List<SimulatedInstance> targets, Instant now) {
        int changed = 0;
        for (SimulatedInstance i : targets) {
            Node n = cluster.nodes().stream().filter(x -> i.providerId().equals(x.providerId())).findFirst().orElse(null);
            if (n == null) {
                continue;
            }
            List<NodeCondition> conditions = new ArrayList<>(n.conditions().stream().filter(c -> !c.type().equals(type)).toList());
            conditions.add(new NodeCondition(type, status, now));
            boolean ready = type.equals(NodeCondition.READY) ? status.equals(NodeCondition.TRUE) : n.ready();
            cluster.putNode(new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(),
                    ready, n.unschedulable(), n.deleting(), n.createdAt(), n.finalizers(), n.deletionTimestamp(), conditions));
            changed++;
        }
        return changed;
    }

    /** A check fails now ({@code instance}/{@code system}), clears ({@code ok}), or {@code event} is scheduled. */
    public int statusCheck(String check, String event, long inSeconds, List<SimulatedInstance> targets, Instant now) {
        for (SimulatedInstance i : targets) {
            InstanceHealth h = checks.get(i.id());
            List<InstanceHealth.FailedCheck> failed = new ArrayList<>(h.failed());
            List<InstanceHealth.ScheduledEvent> events = new ArrayList<>(h.events());
            if ("ok".equals(check)) {
                failed.clear();
            } else if (check != null) {
                failed.add(new InstanceHealth.FailedCheck(check, "reachability", now));
            } else {
                events.add(new InstanceHealth.ScheduledEvent(event, "instance-event-" + i.id().substring(2),
                        now.plusSeconds(inSeconds), "The instance is scheduled for " + event.replace('-', ' ')));
            }
            checks.set(new InstanceHealth(i.id(), failed, events));
        }
        return targets.size();
    }
}
