package dev.gantry.simulator;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Carries out a scenario's events against the simulated world. */
final class ScenarioActions {
    private final Simulation sim;
    private final Set<String> spotWarned = new HashSet<>();

    ScenarioActions(Simulation sim) {
        this.sim = sim;
    }

    void run(Scenario.Event e) {
        Instant now = sim.clock.instant();
        switch (e.action()) {
            case Scenario.Apply a -> apply(a.file(), e.line());
            case Scenario.Scale s -> {
                deployment(s.deployment(), e.line());
                sim.workloads.scale(s.deployment(), s.replicas());
                sim.recorder.log(now, "scenario", "scale " + s.deployment() + " to " + s.replicas());
            }
            case Scenario.Delete d -> {
                deployment(d.deployment(), e.line());
                sim.workloads.delete(d.deployment());
                sim.recorder.log(now, "scenario", "delete deployment " + d.deployment());
            }
            case Scenario.Interrupt i -> interrupt(i);
            case Scenario.AwsEvent a -> awsEvent(a, e.line());
            case Scenario.DeleteNode d -> deleteNode(d);
            case Scenario.TerminateAllNodes t -> {
                List<SimInstance> all = sim.liveInstances();
                sim.recorder.log(now, "scenario", "outage: all " + all.size() + " instances die");
                all.forEach(i -> sim.cloud.end(i, "outage"));
                sim.checks.outage(now);
            }
            case Scenario.Ice ice -> {
                sim.cloud.faults().addIce(Set.copyOf(ice.instanceTypes()), Set.copyOf(ice.zones()), Set.copyOf(ice.capacityTypes()),
                        now.plus(ice.lasting()));
                sim.recorder.log(now, "fault", "insufficient capacity for " + describe(ice.instanceTypes()) + " in "
                        + describe(ice.zones()) + " for " + ice.lasting().toSeconds() + " s");
            }
            case Scenario.Throttle t -> {
                sim.cloud.faults().addThrottle(t.probability(), now.plus(t.lasting()));
                sim.recorder.log(now, "fault", "EC2 throttles " + Math.round(t.probability() * 100) + "% of calls for "
                        + t.lasting().toSeconds() + " s");
            }
            case Scenario.NoisyNeighbour n -> {
                sim.cloud.faults().addNeighbour(n.demand(), now, now.plus(n.lasting()));
                sim.recorder.log(now, "fault", "a noisy neighbour asks EC2 for " + n.demand() + "x each API's refill rate for "
                        + n.lasting().toSeconds() + " s (our calls succeed when they find a token)");
            }
            case Scenario.Ec2Outage o -> {
                sim.cloud.faults().addOutage(now, now.plus(o.lasting()));
                sim.recorder.log(now, "fault", "EC2 outage: every call refused for " + o.lasting().toSeconds() + " s");
            }
            case Scenario.ApiServerDown d -> {
                sim.api.downUntil(now.plus(d.lasting()));
                sim.recorder.log(now, "fault", "API server down for " + d.lasting().toSeconds() + " s");
            }
            case Scenario.CrashAfterLaunch c -> {
                sim.crashing.arm(c.count());
                sim.recorder.log(now, "fault", "the provisioner will crash after its next " + c.count() + " CreateFleet calls");
            }
        }
    }

    private static String describe(List<String> l) {
        return l.isEmpty() ? "any" : String.join(",", l);
    }

    private void deployment(String key, int line) {
        if (sim.workloads.deployment(key) == null) {
            throw new ScenarioException(sim.scenario.file().toString(), line, "no deployment " + key
                    + " has been applied (known: " + sim.workloads.deployments().keySet() + ")");
        }
    }

    /** Applies a manifest file: workloads, DaemonSets, static nodes and PDBs. */
    void apply(Path file, int line) {
        LoadResult r = ConfigLoader.load(List.of(file), LoadOptions.DEFAULT);
        if (!r.ok()) {
            throw new ScenarioException(sim.scenario.file().toString(), line, "apply: " + r.errors().getFirst());
        }
        r.pdbs().forEach(sim.cluster::putPdb);
        r.daemonSets().forEach(sim.cluster::putDaemonSet);
        for (Node n : r.nodes()) {
            sim.cluster.putNode(n);
        }
        sim.workloads.apply(r.pods());
        sim.recorder.log(sim.clock.instant(), "scenario", "apply " + file.getFileName() + " (" + r.pods().size() + " pods)");
    }

    private List<SimInstance> matching(String capacityType, String zone, String nodePool) {
        return sim.liveInstances().stream()
                .filter(i -> capacityType == null || capacityType.equals(i.capacityType()))
                .filter(i -> zone == null || zone.equals(i.zone()))
                .filter(i -> nodePool == null || nodePool.equals(i.tags().get(dev.gantry.core.cloud.CloudInstance.TAG_NODEPOOL)))
                .toList();
    }

    private void interrupt(Scenario.Interrupt in) {
        Instant now = sim.clock.instant();
        List<SimInstance> targets = matching(in.capacityType(), in.zone(), in.nodePool());
        if (in.kind().equals("spot")) {
            // EC2 warns an instance once: a second wave picks instances whose two minutes are not already running.
            targets = targets.stream().filter(i -> !spotWarned.contains(i.id())).toList();
        }
        targets = targets.subList(0, Math.min(in.count(), targets.size()));
        sim.recorder.log(now, "scenario", in.kind() + " warnings for " + targets.size() + " instances"
                + (in.zone() == null ? "" : " in " + in.zone()));
        for (SimInstance i : targets) {
            switch (in.kind()) {
                case "spot" -> spotWarning(i, sim.eventBridge.spotWarning(i, now));
                case "rebalance" -> send(sim.eventBridge.rebalance(i, now));
                case "health" -> send(sim.eventBridge.healthRetirement(i, now));
                default -> sim.cloud.stop(i, "failure");
            }
        }
    }

    private void send(String json) {
        sim.recorder.interruptionsReceived++;
        sim.interruptionQueue.send(json, null, null, null);
    }

    /**
     * The warning goes out now; EC2 reclaims the instance two minutes later, drained or not. At that deadline the node
     * counts as drained when none of its pods is left on it, and as replaced when, besides, no pod of the workloads it
     * ran is pending that was created by the time it was drained (its pods' replacements, and any older backlog of
     * those workloads): the replacements of pods evicted later from other nodes do not count against it. Its drain's
     * end is looked for every {@link #DRAIN_POLL}.
     */
    private void spotWarning(SimInstance i, String json) {
        spotWarned.add(i.id());
        send(json);
        Set<String> owners = new HashSet<>();
        Node node = sim.cluster.node(i.dnsName());
        String nodeName = node == null ? null : node.name();
        if (nodeName != null) {
            for (Pod p : sim.cluster.podsOn(nodeName)) {
                if (!p.isDaemon() && p.ownerName() != null) {
                    owners.add(p.namespace() + "/" + p.ownerName());
                }
            }
        }
        Instant deadline = sim.clock.instant().plus(Duration.ofMinutes(2));
        Instant[] drainedAt = {null};
        Runnable[] poll = new Runnable[1];
        poll[0] = () -> {
            if (drainedAt[0] == null && drained(nodeName)) {
                drainedAt[0] = sim.clock.instant();
            } else if (drainedAt[0] == null && sim.clock.instant().plus(DRAIN_POLL).isBefore(deadline)) {
                sim.loop.after(DRAIN_POLL, "drain poll " + i.id(), poll[0]);
            }
        };
        poll[0].run();
        sim.loop.after(Duration.ofMinutes(2), "ec2 reclaims " + i.id(), () -> {
            boolean drained = drained(nodeName);
            if (drained && drainedAt[0] == null) {
                drainedAt[0] = sim.clock.instant();
            }
            sim.recorder.reclaimed++;
            if (drained) {
                sim.recorder.drainedBeforeDeadline++;
            } else {
                sim.recorder.log(sim.clock.instant(), "deadline", i.id() + " reclaimed with pods still on it");
            }
            Instant by = drainedAt[0] == null ? null : drainedAt[0].plus(DRAIN_POLL);
            boolean replaced = by != null && sim.cluster.pods().stream().noneMatch(p -> !p.isBound() && p.ownerName() != null
                    && !p.status().isTerminal() && owners.contains(p.namespace() + "/" + p.ownerName())
                    && (p.status().createdAt() == null || !p.status().createdAt().isAfter(by)));
            if (replaced) {
                sim.recorder.replacementReadyBeforeDeadline++;
            }
            sim.cloud.end(i, "spot-reclaim");
        });
    }

    /** How often a warned node is looked at for the end of its drain. */
    static final Duration DRAIN_POLL = Duration.ofSeconds(2);

    private boolean drained(String nodeName) {
        Node n = nodeName == null ? null : sim.cluster.node(nodeName);
        return n == null || sim.cluster.podsOn(n.name()).stream().noneMatch(p -> !p.isDaemon() && !p.isMirror()
                && !p.status().isTerminal());
    }

    private void awsEvent(Scenario.AwsEvent a, int line) {
        List<SimInstance> targets = matching(null, null, a.nodePool());
        if (a.index() >= targets.size()) {
            sim.recorder.log(sim.clock.instant(), "scenario", "awsEvent skipped: no live instance #" + a.index());
            return;
        }
        SimInstance i = targets.get(a.index());
        String json;
        try {
            json = sim.eventBridge.rewrite(Files.readString(a.file()), i, sim.clock.instant());
        } catch (IOException | IllegalArgumentException e) {
            throw new ScenarioException(sim.scenario.file().toString(), line, "awsEvent: " + a.file() + ": " + e.getMessage());
        }
        sim.recorder.log(sim.clock.instant(), "scenario", EventBridge.detailType(json) + " for " + i.id());
        if (EventBridge.detailType(json).equals("EC2 Spot Instance Interruption Warning")) {
            spotWarning(i, json);
        } else {
            send(json);
        }
    }

    private void deleteNode(Scenario.DeleteNode d) {
        List<SimInstance> targets = matching(null, null, d.nodePool());
        List<Node> nodes = targets.stream().map(i -> sim.cluster.node(i.dnsName())).filter(java.util.Objects::nonNull).toList();
        if (d.index() >= nodes.size()) {
            sim.recorder.log(sim.clock.instant(), "scenario", "deleteNode skipped: no node #" + d.index());
            return;
        }
        Node n = nodes.get(d.index());
        sim.recorder.log(sim.clock.instant(), "scenario", "kubectl delete node " + n.name());
        sim.cluster.deleteNodeAt(n.name(), sim.clock.instant());
        sim.webhook.nodeDeleted(n);
        sim.observers.clusterChanged();
    }
}
