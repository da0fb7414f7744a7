package dev.gantry.simulator.world.kube;

import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The controllers that own pods: Deployments (and StatefulSets) keep their replica count, replacing evicted and
 * deleted pods with new ones (new names and uids, as a ReplicaSet does); the pod garbage collector deletes pods bound
 * to nodes that no longer exist. Standalone pods and Job pods are created once and never replaced.
 */
public final class Workloads {
    /** A replicated workload: its pod template and how many replicas it wants. */
    public static final class Deployment {
        final String namespace;
        final String name;
        final Pod template;
        int replicas;

        Deployment(String namespace, String name, Pod template, int replicas) {
            this.namespace = namespace;
            this.name = name;
            this.template = template;
            this.replicas = replicas;
        }

        String key() {
            return namespace + "/" + name;
        }

        public String namespace() {
            return namespace;
        }

        public String name() {
            return name;
        }

        public Pod template() {
            return template;
        }

        public int replicas() {
            return replicas;
        }
    }

    private static final Set<String> CONTROLLED = Set.of("ReplicaSet", "StatefulSet");

    private final InMemoryCluster cluster;
    private final EventLoop loop;
    private final Webhook webhook;
    private final PodListener recorder;
    private final Runnable changed;
    private final Map<String, Deployment> deployments = new LinkedHashMap<>();
    private long nextPod = 1;
    private boolean dirty = true;
    private long reconciledAt = -1;

    public Workloads(InMemoryCluster cluster, EventLoop loop, Webhook webhook, PodListener recorder, Runnable changed) {
        this.cluster = cluster;
        this.loop = loop;
        this.webhook = webhook;
        this.recorder = recorder;
        this.changed = changed;
    }

    /** Applies manifest pods: replicated ones define (or redefine) their Deployment, the rest are created as they are. */
    public void apply(List<Pod> pods) {
        Map<String, List<Pod>> byOwner = new LinkedHashMap<>();
        for (Pod p : pods) {
            if (CONTROLLED.contains(p.ownerKind())) {
                byOwner.computeIfAbsent(p.namespace() + "/" + p.ownerName(), k -> new ArrayList<>()).add(p);
            } else {
                create(p, p.name());
            }
        }
        byOwner.forEach((key, replicas) -> {
            Pod first = replicas.getFirst();
            deployments.put(key, new Deployment(first.namespace(), first.ownerName(), first, replicas.size()));
        });
        dirty = true;
        reconcile();
    }

    public Deployment deployment(String key) {
        return deployments.get(key);
    }

    public void scale(String key, int replicas) {
        deployments.get(key).replicas = replicas;
        dirty = true;
        reconcile();
    }

    public void delete(String key) {
        Deployment d = deployments.remove(key);
        if (d != null) {
            ownedBy(d).forEach(p -> cluster.removePod(p.key()));
            changed.run();
        }
    }

    /** One pass of the controllers; called every second. Nothing to do while no pod or node changed since the last. */
    public void reconcile() {
        if (!dirty && cluster.version() == reconciledAt) {
            return;
        }
        dirty = false;
        Set<String> nodes = new java.util.HashSet<>();
        cluster.nodes().forEach(n -> nodes.add(n.name()));
        Map<String, List<Pod>> owned = new java.util.HashMap<>();
        for (Pod p : cluster.pods()) {
            if (p.isBound() && !nodes.contains(p.nodeName())) {
                cluster.removePod(p.key()); // pod GC: its node is gone
                changed.run();
            } else if (CONTROLLED.contains(p.ownerKind())) {
                owned.computeIfAbsent(p.namespace() + "/" + p.ownerName(), k -> new ArrayList<>()).add(p);
            }
        }
        for (Deployment d : deployments.values()) {
            List<Pod> mine = owned.getOrDefault(d.key(), List.of());
            for (int i = mine.size(); i < d.replicas; i++) {
                create(d.template, d.name + "-" + Long.toString(nextPod, 36));
            }
            if (mine.size() > d.replicas) {
                // Scale down removes pending pods first, then the newest, as the ReplicaSet controller ranks them.
                List<Pod> order = new ArrayList<>(mine);
                order.sort(java.util.Comparator.comparing((Pod p) -> p.isBound()).thenComparing(
                        (Pod p) -> p.status().createdAt(), java.util.Comparator.reverseOrder()));
                for (int i = 0; i < mine.size() - d.replicas; i++) {
                    cluster.removePod(order.get(i).key());
                    recorder.podDeleted(order.get(i));
                }
                changed.run();
            }
        }
        reconciledAt = cluster.version();
    }

    private List<Pod> ownedBy(Deployment d) {
        return cluster.pods().stream().filter(p -> CONTROLLED.contains(p.ownerKind()) && d.namespace.equals(p.namespace())
                && d.name.equals(p.ownerName())).toList();
    }

    private void create(Pod template, String name) {
        String uid = "uid-" + nextPod++;
        Pod t = template;
        Pod p = new Pod(t.namespace(), name, uid, t.labels(), t.annotations(), t.requests(), t.nodeSelector(),
                t.requiredNodeAffinity(), t.preferredNodeAffinity(), t.tolerations(), t.topologySpread(), t.podAffinity(),
                t.preferredPodAffinity(), t.podAntiAffinity(), t.preferredPodAntiAffinity(), t.hostPorts(), t.nodeName(),
                t.ownerKind(), t.ownerName(), t.priority(), t.priorityClassName(),
                new Pod.Status(t.isBound() ? "Running" : "Pending", false, loop.now(), null, null));
        cluster.putPod(p);
        recorder.podCreated(p);
        webhook.podCreated(p);
        changed.run();
    }

    /** Every replicated pod, plus standalone ones, that should be running: what "every pod scheduled" means. */
    public Map<String, Deployment> deployments() {
        return deployments;
    }
}
