package dev.gantry.core.termination;

import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.interruption.EventEnvelope;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A drain and an interruption read only their node and its pods, never the whole cluster's. */
class BoundedReadsTest {
    /** The world's cluster, except that listing every pod fails the test. */
    static ClusterReader nodeScoped(LifecycleWorld w) {
        return new ClusterReader() {
            @Override public List<Pod> pods() { throw new AssertionError("listed every pod in the cluster"); }
            @Override public List<Pod> podsOn(String node) { return w.cluster.podsOn(node); }
            @Override public List<Node> nodes() { throw new AssertionError("listed every node in the cluster"); }
            @Override public Optional<Node> findNode(String name) { return w.cluster.node(name) == null ? Optional.empty()
                    : Optional.of(w.cluster.node(name)); }
            @Override public List<DaemonSet> daemonSets() { return w.cluster.daemonSets(); }
            @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return w.cluster.podDisruptionBudgets(); }
            @Override public Set<String> nodesWithVolumeAttachments() { return w.cluster.nodesWithVolumeAttachments(); }
            @Override public Map<String, Map<String, String>> namespaceLabels() { return w.cluster.namespaceLabels(); }
        };
    }

    @Test
    void aSpotWarningAndTheDrainItStartsReadOnlyTheirNodeAndItsPods() {
        NodePool pool = poolWith("default", null, Optional.empty(), Optional.empty(), Map.of());
        LifecycleWorld w = new LifecycleWorld(pool);
        w.addNode("a", "default");
        w.cluster.putPod(pod("web", "node-a"));
        w.addNode("other", "default");
        for (int i = 0; i < 100; i++) {
            w.cluster.putPod(pod("elsewhere-" + i, "node-other"));
        }
        ClusterReader reader = nodeScoped(w);
        TerminationService termination = new TerminationService(reader, w.cluster, w.store, w.cloud, w.queue,
                Map.of("default", pool), w.clock);
        InterruptionService interruption = new InterruptionService(w.store, reader, w.cluster, termination, w.hints,
                Map.of("default", pool), w.clock);

        interruption.handle(new EventEnvelope("s", "aws.ec2", "EC2 Spot Instance Interruption Warning", w.clock.instant(),
                Map.of("instance-id", "i-a"), List.of(), List.of()));
        TerminationService.Slice last = termination.slice(DrainRecoveryTest.TerminationRequestOf.last(w));

        assertThat(w.hints.sent).containsExactly("interruption default/web");
        assertThat(last.finished()).isTrue();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.cluster.pods()).hasSize(100);
    }
}
