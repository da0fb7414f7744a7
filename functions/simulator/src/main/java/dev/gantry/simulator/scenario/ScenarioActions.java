package dev.gantry.simulator.scenario;

import dev.gantry.simulator.faults.CrashAfterLaunch;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.simulator.world.aws.EventBridge;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import dev.gantry.simulator.world.kube.ApiServer;
import dev.gantry.simulator.world.kube.Webhook;
import dev.gantry.simulator.world.kube.Workloads;
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
import java.util.function.Consumer;
import java.util.function.Supplier;
import dev.gantry.core.cluster.InMemoryCluster;

/** Carries out a scenario's events against the simulated world. */
public final class ScenarioActions {
    /**
     * The parts of the simulated world a scenario's events act on: the loop, the cluster and its controllers, EC2, the
     * API server, the webhook, EventBridge and the interruption queue it feeds, the provisioner's crash switch, the
     * live instances, what to tell when the cluster changed, and where an outage starts the recovery clock.
     */
    public record World(EventLoop loop, InMemoryCluster cluster, Workloads workloads, SimulatedCloud cloud, ApiServer api,
                 Webhook webhook, EventBridge eventBridge, SimulatedQueue interruptionQueue, CrashAfterLaunch crashing,
                 Supplier<List<SimulatedInstance>> liveInstances, Runnable clusterChanged, Consumer<Instant> outage) {
    }

    private final Path scenarioFile;
    private final World world;
    private final Recorder recorder;
    private final Set<String> spotWarned = new HashSet<>();
    private dev.gantry.simulator.world.health.HealthActions health;

    public ScenarioActions(Path scenarioFile, World world, Recorder recorder) {
        this.scenarioFile = scenarioFile;
        this.world = world;
        this.recorder = recorder;
    }

    /** Where node-health events act ({@link HealthEvent}). */
    public ScenarioActions withHealth(dev.gantry.simulator.world.health.HealthActions health) {
        this.health = health;
        return this;
    }

    public void run(Scenario.Event e) {
        Instant now = world.loop().now();
        switch (e.action()) {
            case Scenario.Apply a -> apply(a.file(), e.line());
            case Scenario.Scale s -> {
                deployment(s.deployment(), e.line());
                world.workloads().scale(s.deployment(), s.replicas());
                recorder.log(now, "scenario", "scale " + s.deployment() + " to " + s.replicas());
            }
            case Scenario.ScaleNodePool s -> recorder.log(now, "scenario", NodePoolScale.run(world.api().config(), s));
            case Scenario.Delete d -> {
                deployment(d.deployment(), e.line());
                world.workloads().delete(d.deployment());
                recorder.log(now, "scenario", "delete deployment " + d.deployment());
            }
            case Scenario.ApplyConfig a -> {
                String refusal = world.api().config().apply(a.kind(), a.name(), a.object());
                recorder.log(now, "scenario", "apply " + a.kind() + "/" + a.name()
                        + (refusal == null ? "" : " refused at admission: " + refusal));
            }
            case Scenario.DeleteConfig d -> {
                boolean deleted = world.api().config().delete(d.kind(), d.name());
                recorder.log(now, "scenario", "delete " + d.kind() + "/" + d.name() + (deleted ? "" : " (not there)"));
            }
            case Scenario.Interrupt i -> interrupt(i);
            case Scenario.Health h -> health(h.event());
            case Scenario.AwsEvent a -> awsEvent(a, e.line());
            case Scenario.DeleteNode d -> deleteNode(d);
            case Scenario.TerminateAllNodes t -> {
                List<SimulatedInstance> all = world.liveInstances().get();
                recorder.log(now, "scenario", "outage: all " + all.size() + " instances die");
                all.forEach(i -> world.cloud().end(i, "outage"));
                world.outage().accept(now);
            }
            case Scenario.Ice ice -> {
                world.cloud().faults().addIce(Set.copyOf(ice.instanceTypes()), Set.copyOf(ice.zones()), Set.copyOf(ice.capacityTypes()),
                        now.plus(ice.lasting()));
                recorder.log(now, "fault", "insufficient capacity for " + describe(ice.instanceTypes()) + " in "
                        + describe(ice.zones()) + " for " + ice.lasting().toSeconds() + " s");
            }
            case Scenario.Throttle t -> {
                world.cloud().faults().addThrottle(t.probability(), now.plus(t.lasting()));
                recorder.log(now, "fault", "EC2 throttles " + Math.round(t.probability() * 100) + "% of calls for "
                        + t.lasting().toSeconds() + " s");
            }
            case Scenario.NoisyNeighbour n -> {
                world.cloud().faults().addNeighbour(n.demand(), now, now.plus(n.lasting()));
                recorder.log(now, "fault", "a noisy neighbour asks EC2 for " + n.demand() + "x each API's refill rate for "
                        + n.lasting().toSeconds() + " s (our calls succeed when they find a token)");
            }
            case Scenario.Ec2Outage o -> {
                world.cloud().faults().addOutage(now, now.plus(o.lasting()));
                recorder.log(now, "fault", "EC2 outage: every call refused for " + o.lasting().toSeconds() + " s");
            }
            case Scenario.ApiServerDown d -> {
                world.api().downUntil(now.plus(d.lasting()));
                recorder.log(now, "fault", "API server down for " + d.lasting().toSeconds() + " s");
            }
            case Scenario.AmiRelease r -> {
                var images = world.cloud().images();
                var release = images.release(r.family(), r.version(), r.fault(), now);
                recorder.log(now, "scenario", "AMI release: " + release.family() + "@latest is now " + release.imageId()
                        + switch (r.fault()) {
                            case NONE -> "";
                            case NEVER_READY -> " (a bad image: its nodes never become Ready)";
                            case CRASH_LOOP -> " (a bad image: its nodes become Ready, their pods crash-loop)";
                            case DEREGISTERED -> " (a bad image: deregistered, EC2 refuses to launch it)";
                        });
            }
            case Scenario.ReservationInterruption r -> reservationInterruption(r, now);
            case Scenario.CrashAfterLaunch c -> {
                world.crashing().arm(c.count());
                recorder.log(now, "fault", "the provisioner will crash after its next " + c.count() + " CreateFleet calls");
            }
        }
    }

    private static String describe(List<String> l) {
        return l.isEmpty() ? "any" : String.join(",", l);
    }

    private void deployment(String key, int line) {
        if (world.workloads().deployment(key) == null) {
            throw new ScenarioException(scenarioFile.toString(), line, "no deployment " + key
                    + " has been applied (known: " + world.workloads().deployments().keySet() + ")");
        }
    }

    /** Applies a manifest file: workloads, DaemonSets, static nodes and PDBs; NodePools and NodeClasses go to the API server. */
    public void apply(Path file, int line) {
        LoadResult r = ConfigLoader.load(List.of(file), LoadOptions.DEFAULT);
        if (!r.ok()) {
            throw new ScenarioException(scenarioFile.toString(), line, "apply: " + r.errors().getFirst());
        }
        if (!r.nodePools().isEmpty() || !r.nodeClasses().isEmpty()) {
            try {
                world.api().config().applyYaml(Files.readString(file));
            } catch (IOException e) {
                throw new ScenarioException(scenarioFile.toString(), line, "apply: cannot read " + file + ": " + e.getMessage());
            }
        }
        r.pdbs().forEach(world.cluster()::putPdb);
        r.daemonSets().forEach(world.cluster()::putDaemonSet);
        for (Node n : r.nodes()) {
            world.cluster().putNode(n);
        }
        world.workloads().apply(r.pods());
        recorder.log(world.loop().now(), "scenario", "apply " + file.getFileName() + " (" + r.pods().size() + " pods)");
    }

    private List<SimulatedInstance> matching(String capacityType, String zone, String nodePool) {
        return world.liveInstances().get().stream()
                .filter(i -> capacityType == null || capacityType.equals(i.capacityType()))
                .filter(i -> zone == null || zone.equals(i.zone()))
                .filter(i -> nodePool == null || nodePool.equals(i.tags().get(dev.gantry.core.cloud.CloudInstance.TAG_NODEPOOL)))
                .toList();
    }

    private void health(HealthEvent h) {
        List<SimulatedInstance> targets = matching(null, h.zone(), h.nodePool());
        targets = targets.subList(0, Math.min(h.count(), targets.size()));
        Instant now = world.loop().now();
        String what = switch (h) {
            case HealthEvent.Condition c -> c.type() + "=" + c.status() + " on "
                    + health.condition(c.type(), c.status(), targets, now) + " nodes";
            case HealthEvent.StatusCheck s -> (s.check() != null ? s.check() + " status check " : s.event() + " scheduled ")
                    + "for " + health.statusCheck(s.check(), s.event(), s.inSeconds(), targets, now) + " instances";
        };
        recorder.log(now, "scenario", what + (h.zone() == null ? "" : " in " + h.zone()));
        world.clusterChanged().run();
    }

    private void interrupt(Scenario.Interrupt in) {
        Instant now = world.loop().now();
        List<SimulatedInstance> targets = matching(in.capacityType(), in.zone(), in.nodePool());
        if (in.kind().equals("spot")) {
            // EC2 warns an instance once: a second wave picks instances whose two minutes are not already running.
            targets = targets.stream().filter(i -> !spotWarned.contains(i.id())).toList();
        }
        targets = targets.subList(0, Math.min(in.count(), targets.size()));
        recorder.log(now, "scenario", in.kind() + " warnings for " + targets.size() + " instances"
                + (in.zone() == null ? "" : " in " + in.zone()));
        for (SimulatedInstance i : targets) {
            switch (in.kind()) {
                case "spot" -> spotWarning(i, world.eventBridge().spotWarning(i, now));
                case "rebalance" -> rebalance(i, in.warnAfter(), now);
                case "health" -> send(world.eventBridge().healthRetirement(i, now));
                default -> world.cloud().stop(i, "failure");
            }
        }
    }

    /**
     * A rebalance recommendation, and with {@code warnAfter} the interruption warning for the same instance that much
     * later, unless it is gone by then (a rebalance replacement finished first).
     */
    private void rebalance(SimulatedInstance i, java.time.Duration warnAfter, Instant now) {
        Node node = world.cluster().node(i.dnsName());
        recorder.rebalance().recommended(node == null ? null : node.name());
        send(world.eventBridge().rebalance(i, now));
        if (warnAfter != null) {
            world.loop().after(warnAfter, "ec2 warns " + i.id(), () -> {
                if (i.isAlive() && !spotWarned.contains(i.id())) {
                    spotWarning(i, world.eventBridge().spotWarning(i, world.loop().now()));
                }
            });
        }
    }

    private void send(String json) {
        recorder.interruptionReceived();
        world.interruptionQueue().send(json, null, null, null);
    }

    /**
     * The warning goes out now; EC2 reclaims the instance two minutes later, drained or not. At that deadline the node
     * counts as drained when none of its pods is left on it, and as replaced when, besides, no pod of the workloads it
     * ran is pending that was created by the time it was drained (its pods' replacements, and any older backlog of
     * those workloads): the replacements of pods evicted later from other nodes do not count against it. Its drain's
     * end is looked for every {@link #DRAIN_POLL}.
     */
    private void spotWarning(SimulatedInstance i, String json) {
        spotWarned.add(i.id());
        send(json);
        Set<String> owners = new HashSet<>();
        Node node = world.cluster().node(i.dnsName());
        String nodeName = node == null ? null : node.name();
        recorder.rebalance().warned(nodeName, world.loop().now());
        if (nodeName != null) {
            for (Pod p : world.cluster().podsOn(nodeName)) {
                if (!p.isDaemon() && p.ownerName() != null) {
                    owners.add(p.namespace() + "/" + p.ownerName());
                }
            }
        }
        Instant deadline = world.loop().now().plus(Duration.ofMinutes(2));
        Instant[] drainedAt = {null};
        Runnable[] poll = new Runnable[1];
        poll[0] = () -> {
            if (drainedAt[0] == null && drained(nodeName)) {
                drainedAt[0] = world.loop().now();
            } else if (drainedAt[0] == null && world.loop().now().plus(DRAIN_POLL).isBefore(deadline)) {
                world.loop().after(DRAIN_POLL, "drain poll " + i.id(), poll[0]);
            }
        };
        poll[0].run();
        world.loop().after(Duration.ofMinutes(2), "ec2 reclaims " + i.id(), () -> {
            boolean drained = drained(nodeName);
            if (drained && drainedAt[0] == null) {
                drainedAt[0] = world.loop().now();
            }
            recorder.spotReclaimed();
            if (drained) {
                recorder.drainedInTime();
            } else {
                recorder.log(world.loop().now(), "deadline", i.id() + " reclaimed with pods still on it");
            }
            Instant by = drainedAt[0] == null ? null : drainedAt[0].plus(DRAIN_POLL);
            boolean replaced = by != null && world.cluster().pods().stream().noneMatch(p -> !p.isBound() && p.ownerName() != null
                    && !p.status().isTerminal() && owners.contains(p.namespace() + "/" + p.ownerName())
                    && (p.status().createdAt() == null || !p.status().createdAt().isAfter(by)));
            if (replaced) {
                recorder.replacedInTime();
            }
            world.cloud().end(i, "spot-reclaim");
        });
    }

    /** How often a warned node is looked at for the end of its drain. */
    static final Duration DRAIN_POLL = Duration.ofSeconds(2);

    private boolean drained(String nodeName) {
        Node n = nodeName == null ? null : world.cluster().node(nodeName);
        return n == null || world.cluster().podsOn(n.name()).stream().noneMatch(p -> !p.isDaemon() && !p.isMirror()
                && !p.status().isTerminal());
    }

    private void awsEvent(Scenario.AwsEvent a, int line) {
        List<SimulatedInstance> targets = matching(null, null, a.nodePool());
        if (a.index() >= targets.size()) {
            recorder.log(world.loop().now(), "scenario", "awsEvent skipped: no live instance #" + a.index());
            return;
        }
        SimulatedInstance i = targets.get(a.index());
        String json;
        try {
            json = world.eventBridge().rewrite(Files.readString(a.file()), i, world.loop().now());
        } catch (IOException | IllegalArgumentException e) {
            throw new ScenarioException(scenarioFile.toString(), line, "awsEvent: " + a.file() + ": " + e.getMessage());
        }
        recorder.log(world.loop().now(), "scenario", EventBridge.detailType(json) + " for " + i.id());
        if (EventBridge.detailType(json).equals("EC2 Spot Instance Interruption Warning")) {
            spotWarning(i, json);
        } else {
            send(json);
        }
    }

    /** Interruption warnings for the reservation's oldest instances; EC2 ends each two minutes later, drained or not. */
    private void reservationInterruption(Scenario.ReservationInterruption r, Instant now) {
        List<SimulatedInstance> targets = world.cloud().reservations().interruptible(r.reservation());
        targets = targets.subList(0, Math.min(r.count(), targets.size()));
        recorder.log(now, "scenario", "capacity reservation " + r.reservation() + " reclaims " + targets.size() + " instances");
        for (SimulatedInstance i : targets) {
            world.cloud().reservations().reclaim(i);
            send(world.eventBridge().capacityReservationInterruption(i, now, now.plus(Duration.ofMinutes(2))));
            world.loop().after(Duration.ofMinutes(2), "ec2 reclaims " + i.id(), () -> world.cloud().end(i, "reservation-reclaim"));
        }
    }

    private void deleteNode(Scenario.DeleteNode d) {
        List<SimulatedInstance> targets = matching(null, null, d.nodePool());
        List<Node> nodes = targets.stream().map(i -> world.cluster().node(i.dnsName())).filter(java.util.Objects::nonNull).toList();
        if (d.index() >= nodes.size()) {
            recorder.log(world.loop().now(), "scenario", "deleteNode skipped: no node #" + d.index());
            return;
        }
        Node n = nodes.get(d.index());
        recorder.log(world.loop().now(), "scenario", "kubectl delete node " + n.name());
        world.cluster().deleteNodeAt(n.name(), world.loop().now());
        world.webhook().nodeDeleted(n);
        world.clusterChanged().run();
    }
}
