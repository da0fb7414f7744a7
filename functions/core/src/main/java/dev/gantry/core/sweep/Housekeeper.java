package dev.gantry.core.sweep;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.sweep.HousekeepingCommand.AdoptInstance;
import dev.gantry.core.sweep.HousekeepingCommand.DrainOrphan;
import dev.gantry.core.sweep.HousekeepingCommand.FinishClaim;
import dev.gantry.core.sweep.HousekeepingCommand.MarkNotReady;
import dev.gantry.core.sweep.HousekeepingCommand.Repair;
import dev.gantry.core.sweep.HousekeepingCommand.RepairBlocked;
import dev.gantry.core.sweep.HousekeepingCommand.StartDeletedNode;
import dev.gantry.core.sweep.HousekeepingCommand.TerminateLeaked;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Carries out what {@link Housekeeping} decided: the sweep's liveness, garbage collection and missed deletions. */
final class Housekeeper {
    /**
     * What one run did.
     *
     * @param leakedTerminated    instances no live claim owned, terminated
     * @param claimsFinished      claims finished (lost instance, liveness timeout)
     * @param deletedNodesStarted termination flows started for nodes someone deleted
     */
    /** @param instances the instances this sweep listed (the drift step reads them too: one DescribeInstances per sweep) */
    record Done(int leakedTerminated, int claimsFinished, int deletedNodesStarted, List<CloudInstance> instances) {
    }

    private final String cluster;
    private final ClusterWriter writer;
    private final NodeClaimStore store;
    private final CloudProvider cloud;
    private final TerminationService termination;

    Housekeeper(String cluster, ClusterWriter writer, NodeClaimStore store, CloudProvider cloud, TerminationService termination) {
        this.cluster = cluster;
        this.writer = writer;
        this.store = store;
        this.cloud = cloud;
        this.termination = termination;
    }

    /**
     * Decides on this snapshot and acts. {@code terminated} counts the instances terminated here, by reason;
     * {@code firstSlice} says, when asked, whether a drain started now still runs its first slice in this sweep.
     */
    Done run(List<NodeClaim> claims, List<Node> nodes, Instant now, Map<String, Integer> terminated,
             Supplier<FirstSlice> firstSlice) {
        List<CloudInstance> instances = cloud.listInstances();
        List<HousekeepingCommand> commands = Housekeeping.decide(cluster, claims, instances, nodes, now);
        List<String> leaked = new ArrayList<>();
        int finished = 0;
        int deleted = 0;
        for (HousekeepingCommand c : commands) {
            switch (c) {
                case TerminateLeaked t -> leaked.add(t.instanceId());
                case FinishClaim f -> {
                    if (f.instanceId() != null) {
                        cloud.terminate(List.of(f.instanceId()));
                        terminated.merge(f.reason(), 1, Integer::sum);
                    }
                    if (f.node() != null) {
                        writer.deleteNode(f.node());
                        patch(f.node(), NodePatch.removeFinalizer(Node.FINALIZER));
                    }
                    finish(f.claim(), f.reason(), now);
                    finished++;
                }
                case AdoptInstance a -> adopt(a, now);
                case MarkNotReady m -> store.get(m.claim(), now).ifPresent(claim -> {
                    try {
                        store.update(claim.notReadySince(m.since()));
                    } catch (NodeClaimStore.Conflict lost) {
                        // changed meanwhile: the next sweep looks again
                    }
                });
                case Repair r -> termination.start(r.claim(), TerminationStart.because(r.reason()).by(now).with(firstSlice.get()))
                        .filter(slice -> slice.finished() && !slice.commands().isEmpty())
                        .ifPresent(slice -> terminated.merge(r.reason(), 1, Integer::sum));
                case RepairBlocked b -> RepairEvents.blocked(writer, b);
                case DrainOrphan o -> drainOrphan(o, nodes, now, terminated, firstSlice.get());
                case StartDeletedNode d -> nodes.stream().filter(n -> n.name().equals(d.node())).findFirst()
                        .ifPresent(n -> termination.startForDeletedNode(n, firstSlice.get()));
            }
            deleted += c instanceof StartDeletedNode ? 1 : 0;
        }
        if (!leaked.isEmpty()) {
            cloud.terminate(leaked);
            terminated.merge("gc", leaked.size(), Integer::sum);
        }
        return new Done(leaked.size(), finished, deleted, instances);
    }

    /** Records the claim Terminated (kept for {@link TerminationService#RETENTION}), without a drain. */
    void finish(String name, String reason, Instant now) {
        Optional<NodeClaim> c = store.get(name, now);
        if (c.isPresent() && c.get().state() != NodeClaimState.Terminated) {
            try {
                store.update(c.get().draining(reason, now).terminated(now, TerminationService.RETENTION));
            } catch (NodeClaimStore.Conflict lost) {
                // the next sweep sees the new state and decides again
            }
        }
    }

    /** Records the instance a crashed launch left behind (the provisioner's resume may record it too: same value). */
    private void adopt(AdoptInstance a, Instant now) {
        store.get(a.claim(), now).filter(c -> c.state() == NodeClaimState.Launching).ifPresent(c -> {
            try {
                store.update(c.launched(a.instanceId(), a.instanceType(), a.zone(), a.capacityType(), c.pricePerHour(), now));
            } catch (NodeClaimStore.Conflict lost) {
                // the provisioner recorded it meanwhile
            }
        });
    }

    /**
     * An instance no live claim owns, but a Node registered for it and pods may run there: record a claim for it
     * (so the flow has something to drive) and drain it through the termination flow like any other node.
     */
    private void drainOrphan(DrainOrphan o, List<Node> nodes, Instant now, Map<String, Integer> terminated, FirstSlice firstSlice) {
        Node node = nodes.stream().filter(n -> n.name().equals(o.node())).findFirst().orElse(null);
        if (node == null) {
            return;
        }
        String pool = node.labels().getOrDefault(WellKnownLabels.NODEPOOL, "unknown");
        String type = node.labels().get(WellKnownLabels.INSTANCE_TYPE);
        String zone = node.labels().get(WellKnownLabels.ZONE);
        String capacity = node.labels().get(WellKnownLabels.CAPACITY_TYPE);
        String planned = "gc-" + o.instanceId().toLowerCase(java.util.Locale.ROOT);
        NodeClaim recorded = FreshClaimNames.record(store, planned, name -> NodeClaim.launching(name, pool, null, List.of(),
                List.of(), List.of(), type, zone, capacity, 0, now).launched(o.instanceId(), type, zone, capacity, 0, now)
                .registered(node.name(), now).draining("gc", now), now);
        termination.start(recorded.name(), TerminationStart.because("gc").with(firstSlice))
                .filter(slice -> slice.finished() && !slice.commands().isEmpty())
                .ifPresent(slice -> terminated.merge("gc", 1, Integer::sum));
    }

    private void patch(String node, NodePatch p) {
        try {
            writer.patchNode(node, p);
        } catch (ClusterException e) {
            if (!e.notFound()) {
                throw e;
            }
        }
    }
}
