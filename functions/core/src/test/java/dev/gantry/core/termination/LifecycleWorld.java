package dev.gantry.core.termination;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.LifecycleFixtures.MutableClock;
import dev.gantry.core.lifecycle.LifecycleFixtures.RecordingCloud;
import dev.gantry.core.lifecycle.LifecycleFixtures.RecordingHints;
import dev.gantry.core.lifecycle.LifecycleFixtures.RecordingQueue;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import java.util.Map;
import java.util.Optional;

/** The lifecycle services wired over in-memory ports, for service tests. */
public final class LifecycleWorld {
    public final MutableClock clock = new MutableClock(LifecycleFixtures.T0);
    public final InMemoryCluster cluster = new InMemoryCluster();
    public final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    public final RecordingCloud cloud = new RecordingCloud();
    public final RecordingQueue queue = new RecordingQueue();
    public final RecordingHints hints = new RecordingHints();
    public final TerminationService termination;
    public final InterruptionService interruption;
    public final SweepService sweep;

    public LifecycleWorld(NodePool... pools) {
        Map<String, NodePool> byName = new java.util.HashMap<>();
        for (NodePool p : pools) {
            byName.put(p.name(), p);
        }
        termination = new TerminationService(cluster, cluster, store, cloud, queue, byName, clock);
        interruption = new InterruptionService(store, cluster, cluster, termination, hints, byName, clock);
        sweep = new SweepService(LifecycleFixtures.CLUSTER, cluster, cluster, store, cloud, termination, hints, byName,
                type -> Optional.of(new InstanceFacts(Map.of("karpenter.k8s.aws/instance-family", "m5"), Map.of())), clock);
    }

    /** Stores an initialized claim with its Ready node and running instance. */
    public NodeClaim addNode(String name, String pool) {
        NodeClaim c = store.create(LifecycleFixtures.initialized(name, pool));
        cluster.putNode(LifecycleFixtures.node(name, pool));
        cloud.addOwned(c.instanceId(), name);
        return c;
    }

    public NodeClaim claim(String name) {
        return store.get(name, clock.instant()).orElseThrow();
    }

    /** Delivers the last continue message (as SQS would after its delay) and runs the slice. */
    public TerminationService.Slice continueLast() {
        RecordingQueue.Sent last = queue.sent.getLast();
        clock.advance(last.delay());
        String body = last.body();
        String name = body.substring(body.indexOf("\"claim\":\"") + 9, body.indexOf("\",\"step\""));
        int step = Integer.parseInt(body.substring(body.indexOf("\"step\":") + 7, body.indexOf('}')));
        return termination.slice(new TerminationRequest(name, step));
    }
}
