package dev.gantry.simulator.world.kube;

import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small kube-scheduler: binds pending pods to Ready nodes using the core {@link Scheduler} with existing nodes only
 * (no NodePools), so the constraints are exactly the ones Gantry plans with; pods it cannot place get
 * PodScheduled=False/Unschedulable, which the webhook turns into a hint. Like the real one it retries when the cluster
 * changes, and every 30 s regardless.
 */
public final class KubeScheduler {
    static final Duration RETRY = Duration.ofSeconds(30);

    private final InMemoryCluster cluster;
    private final EventLoop loop;
    private final Webhook webhook;
    private final PodListener recorder;
    private boolean dirty = true;
    private Instant lastRun = Instant.MIN;

    public KubeScheduler(InMemoryCluster cluster, EventLoop loop, Webhook webhook, PodListener recorder) {
        this.cluster = cluster;
        this.loop = loop;
        this.webhook = webhook;
        this.recorder = recorder;
    }

    /** Something changed that may let a pending pod fit. */
    public void changed() {
        dirty = true;
    }

    public void tick() {
        Instant now = loop.now();
        if (!dirty && now.isBefore(lastRun.plus(RETRY))) {
            return;
        }
        dirty = false;
        lastRun = now;
        List<Pod> all = cluster.pods();
        List<Pod> pending = all.stream().filter(p -> !p.isBound() && !p.status().isTerminal()
                && p.status().deletingSince() == null).toList();
        if (pending.isEmpty()) {
            return;
        }
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : all) {
            if (p.isBound()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        for (Node n : cluster.nodes()) {
            if (n.ready() && !n.deleting()) {
                nodes.add(new SchedulingInput.ExistingNode(n, byNode.getOrDefault(n.name(), List.of())));
            }
        }
        SchedulingResult r = Scheduler.solve(new SchedulingInput(pending, nodes, List.of(), cluster.daemonSets(), List.of(),
                cluster.namespaceLabels()));
        java.util.Set<String> bound = new java.util.HashSet<>();
        new TreeMap<>(r.existingNodes()).forEach((node, pods) -> {
            for (Pod p : pods) {
                Pod current = cluster.pod(p.key());
                if (current == null || current.isBound()) {
                    continue;
                }
                Pod.Status s = current.status();
                cluster.putPod(current.toBuilder().nodeName(node)
                        .status(new Pod.Status("Running", false, s.createdAt(), null, s.terminationGracePeriodSeconds())).build());
                recorder.podBound(current, node, now);
                bound.add(p.key());
            }
        });
        for (Pod p : pending) {
            if (!bound.contains(p.key()) && !p.status().unschedulable()) {
                Pod.Status s = p.status();
                Pod marked = p.toBuilder().status(new Pod.Status(s.phase(), true, s.createdAt(), null,
                        s.terminationGracePeriodSeconds())).build();
                cluster.putPod(marked);
                recorder.podUnschedulable(marked, now);
                webhook.podUnschedulable(marked);
            }
        }
    }
}
