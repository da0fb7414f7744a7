package dev.gantry.simulator.world.kube;

import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.core.cloud.KubeletLabels;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What happens on and around a node outside Gantry: the kubelet registers the instance's Node (with the labels its
 * user data carries, as the EC2 adapter writes them, plus the kubelet's and the cloud controller's own), becomes Ready
 * a few seconds later (startup taints removed by their agents), and DaemonSet pods land on it (on a crash-looping
 * image every pod on it then crash-loops: {@link CrashLoops}). When the instance dies
 * the node goes NotReady after 40 s, and the cloud controller deletes the Node of a terminated instance 20 s later.
 *
 * <p>The kubelet validates its node labels at start-up as the real one does ({@link KubeletLabels#refusal}): a label
 * in the {@code kubernetes.io} or {@code k8s.io} domain outside its allowed set, or an invalid key or value, and it
 * exits before registering; systemd restarts it to the same end, so the instance runs and its node never joins.
 */
public final class Kubelet {
    static final Taint NOT_READY = new Taint("node.kubernetes.io/not-ready", "", Taint.Effect.NoSchedule);
    static final Taint UNREACHABLE = new Taint("node.kubernetes.io/unreachable", "", Taint.Effect.NoExecute);
    static final Duration READY_AFTER = Duration.ofSeconds(4);
    static final Duration NOT_READY_AFTER = Duration.ofSeconds(40);
    static final Duration CCM_DELETE_AFTER = Duration.ofSeconds(20);

    private final InMemoryCluster cluster;
    private final EventLoop loop;
    private final SimulatedCloud cloud;
    private final Webhook webhook;
    private final Runnable changed;
    private final String region;
    private final java.util.function.Consumer<String> log;
    /** Instances whose kubelet refused its node labels and never registered, with the first few reasons. */
    long refusedToStart;
    final List<String> refusals = new ArrayList<>();
    private final CrashLoops crashLoops;

    public Kubelet(InMemoryCluster cluster, EventLoop loop, SimulatedCloud cloud, Webhook webhook, Runnable changed, String region,
            java.util.function.Consumer<String> log) {
        this.cluster = cluster;
        this.loop = loop;
        this.cloud = cloud;
        this.webhook = webhook;
        this.changed = changed;
        this.region = region;
        this.log = log;
        this.crashLoops = new CrashLoops(cluster, loop, changed);
    }

    public void launched(SimulatedInstance i) {
        loop.after(cloud.registrationDelay(i), "kubelet registers " + i.id(), () -> register(i));
    }

    private void register(SimulatedInstance i) {
        if (!i.isAlive()) {
            return;
        }
        String refused = KubeletLabels.refusal(userDataLabels(i));
        if (refused == null) {
            refused = bootFailure(i);
        }
        if (refused != null) {
            refusedToStart++;
            String line = "kubelet on " + i.id() + " (" + i.dnsName() + ") does not start: " + refused;
            if (refusals.size() < 10) {
                refusals.add(line);
            }
            log.accept(line);
            return;
        }
        List<Taint> taints = new ArrayList<>(i.request().taints());
        taints.add(NOT_READY);
        Node node = new Node(i.dnsName(), i.providerId(), labels(i), Map.of(), taints, i.type().allocatable(), false, false,
                false, loop.now());
        cluster.putNode(node);
        webhook.nodeCreated(node);
        loop.after(READY_AFTER, "kubelet ready " + i.id(), () -> ready(i));
    }

    /**
     * Why the instance's image does not boot on its type, or null: AL2023 does not support the A1 family (AWS's AL2023
     * system requirements), so such an instance runs and never joins. Stated here as the world's fact, apart from the
     * catalogue's rule that keeps Gantry from choosing it.
     */
    private static String bootFailure(SimulatedInstance i) {
        String family = i.request().nodeClass().effectiveAmiFamily();
        boolean al2023 = family == null || family.equalsIgnoreCase("AL2023");
        if (al2023 && i.type().name().startsWith("a1.")) {
            return "AL2023 does not boot on " + i.type().name() + " (the A1 family is not supported)";
        }
        return null;
    }

    private void ready(SimulatedInstance i) {
        Node n = cluster.node(i.dnsName());
        if (n == null || !i.isAlive()) {
            return;
        }
        if (cloud.images().fault(i.imageId()) == dev.gantry.simulator.world.aws.SimulatedImages.Fault.NEVER_READY) {
            log.accept("kubelet on " + i.id() + " never reports Ready: its image " + i.imageId() + " is bad");
            return;
        }
        List<Taint> startup = i.request().nodePool().template().startupTaints();
        List<Taint> taints = n.taints().stream().filter(t -> !t.equals(NOT_READY)
                && startup.stream().noneMatch(s -> s.key().equals(t.key()) && s.effect() == t.effect())).toList();
        Node ready = with(n, true, taints);
        cluster.putNode(ready);
        for (DaemonSet ds : cluster.daemonSets()) {
            Pod t = ds.template();
            if (Toleration.firstUntolerated(t.tolerations(), ready.taints()) == null
                    && t.nodeRequirementTerms().stream().anyMatch(term -> term.matches(ready.labels()))) {
                cluster.putPod(renamed(t, ds.name() + "-" + i.id().substring(2, 9), ready.name()));
            }
        }
        if (cloud.images().fault(i.imageId()) == dev.gantry.simulator.world.aws.SimulatedImages.Fault.CRASH_LOOP) {
            crashLoops.watch(ready.name());
        }
        changed.run();
    }

    private Pod renamed(Pod t, String name, String node) {
        Pod p = t;
        return new Pod(p.namespace(), name, "uid-" + name, p.labels(), p.annotations(), p.requests(), p.nodeSelector(),
                p.requiredNodeAffinity(), p.preferredNodeAffinity(), p.tolerations(), p.topologySpread(), p.podAffinity(),
                p.preferredPodAffinity(), p.podAntiAffinity(), p.preferredPodAntiAffinity(), p.hostPorts(), node,
                p.ownerKind(), p.ownerName(), p.priority(), p.priorityClassName(),
                new Pod.Status("Running", false, loop.now(), null, null));
    }

    /** The instance stopped or is terminating: the node stops reporting, then (if terminated) its Node is deleted. */
    public void died(SimulatedInstance i) {
        loop.after(NOT_READY_AFTER, "node controller: " + i.dnsName() + " NotReady", () -> {
            Node n = cluster.node(i.dnsName());
            if (n == null) {
                return;
            }
            List<Taint> taints = new ArrayList<>(n.taints());
            if (!taints.contains(UNREACHABLE)) {
                taints.add(UNREACHABLE);
            }
            cluster.putNode(with(n, false, taints));
            changed.run();
            if (!i.state().equals("stopping") && !i.state().equals("stopped")) {
                loop.after(CCM_DELETE_AFTER, "cloud controller deletes " + i.dnsName(), () -> deleteByCloudController(i));
            }
        });
    }

    private void deleteByCloudController(SimulatedInstance i) {
        Node n = cluster.node(i.dnsName());
        if (n != null && n.deletionTimestamp() == null) {
            cluster.deleteNodeAt(n.name(), loop.now());
            webhook.nodeDeleted(n);
            changed.run();
        }
    }

    /**
     * Labels at registration: the user data's ({@link #userDataLabels}), the kubelet's (hostname, arch, os) and the
     * cloud controller's (instance type, zone, region). The rest is the sweep's to add.
     */
    private Map<String, String> labels(SimulatedInstance i) {
        Map<String, String> labels = new TreeMap<>(userDataLabels(i));
        labels.put(WellKnownLabels.HOSTNAME, i.dnsName());
        putIfPresent(labels, WellKnownLabels.ARCH, i.type().labels().get(WellKnownLabels.ARCH));
        putIfPresent(labels, WellKnownLabels.OS, i.type().labels().getOrDefault(WellKnownLabels.OS, "linux"));
        labels.put(WellKnownLabels.INSTANCE_TYPE, i.type().name());
        labels.put(WellKnownLabels.ZONE, i.zone());
        labels.put(WellKnownLabels.REGION, region);
        return labels;
    }

    /** The node labels the user data hands the kubelet: as the EC2 adapter writes them ({@code NodeLabels}). */
    private static Map<String, String> userDataLabels(SimulatedInstance i) {
        return i.userDataLabels();
    }

    private static void putIfPresent(Map<String, String> m, String k, String v) {
        if (v != null) {
            m.put(k, v);
        }
    }

    static Node with(Node n, boolean ready, List<Taint> taints) {
        return new Node(n.name(), n.providerId(), n.labels(), n.annotations(), taints, n.allocatable(), ready,
                n.unschedulable(), n.deleting(), n.createdAt(), n.finalizers(), n.deletionTimestamp(), n.conditions());
    }

    public List<String> refusals() {
        return refusals;
    }
}
