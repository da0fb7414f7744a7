package dev.gantry.core.staticcapacity;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.DisruptionDecision;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The sweep's static capacity step over in-memory ports. */
class StaticCapacityTest {
    /** A static pool whose only budget allows no disruption at all. */
    static NodePool fixed(int replicas) {
        return new NodePool("fixed", Map.of(), new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()),
                new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ZERO),
                        List.of(new NodePool.Budget("0", Optional.empty(), Optional.empty(), List.of()))),
                Map.of("nodes", Quantity.of(10)), null, null, replicas);
    }

    /** Records a template claim in the world's store, as the provisioner's recordFromTemplate does. */
    static StaticCapacity.TemplateLauncher launcher(LifecycleWorld w) {
        return (pool, name, now) -> Optional.of(FreshClaimNames.record(w.store, name, n -> NodeClaim.launching(n, pool.name(), "h",
                List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a", "on-demand", 0.096, now), now));
    }

    static StaticCapacity step(LifecycleWorld w, NodePool pool) {
        return new StaticCapacity(() -> List.of(pool), launcher(w), w.termination, w.hints);
    }

    static long live(LifecycleWorld w) {
        return w.store.list(w.clock.instant()).stream().filter(c -> !c.state().isDeleting()).count();
    }

    @Test
    void aSecondDeliveryOfTheSweepRecordsNoMoreClaims() {
        // Gantry's own: names derived from the state that asked for them (Karpenter waits for its cluster state to sync).
        LifecycleWorld w = new LifecycleWorld(fixed(3));
        w.addNode("a", "fixed");
        StaticCapacity step = step(w, fixed(3));
        Instant now = w.clock.instant();

        assertThat(step.run(w.store.list(now), w.cluster.nodes(), w.cluster.pods(), now)).isEqualTo(new StaticCapacity.Report(2, 0));
        // The duplicate read the same state before the first one's writes: it asks for the same names.
        assertThat(step.run(List.of(w.claim("a")), w.cluster.nodes(), w.cluster.pods(), now).recorded()).isEqualTo(2);
        // A run that reads the claims recorded makes none.
        assertThat(step.run(w.store.list(now), w.cluster.nodes(), w.cluster.pods(), now)).isEqualTo(StaticCapacity.Report.NONE);
        assertThat(live(w)).isEqualTo(3);
        assertThat(w.hints.sent).isNotEmpty();
    }

    @Test
    void aClaimWhoseLaunchFailedIsReplacedUnderAFreshName() {
        // Karpenter core static/provisioning/controller.go: a NodeClaim deleted is provisioned again.
        LifecycleWorld w = new LifecycleWorld(fixed(1));
        StaticCapacity step = step(w, fixed(1));
        Instant now = w.clock.instant();
        step.run(w.store.list(now), w.cluster.nodes(), w.cluster.pods(), now);
        NodeClaim first = w.store.list(now).getFirst();
        w.store.update(first.draining("launch-failed", now).terminating(now).terminated(now, Duration.ofHours(1)));

        step.run(w.store.list(now), w.cluster.nodes(), w.cluster.pods(), now);

        assertThat(w.store.list(now).stream().filter(c -> c.state() == NodeClaimState.Launching).map(NodeClaim::name))
                .hasSize(1).doesNotContain(first.name());
    }

    @Test
    void scaleDownIsForcefulAndSkipsTheBudgetOfZero() {
        // Karpenter core static/deprovisioning/controller.go: deletes NodeClaims directly (no disruption budget).
        LifecycleWorld w = new LifecycleWorld(fixed(1));
        w.addNode("a", "fixed");
        w.addNode("b", "fixed");
        w.cluster.putPod(LifecycleFixtures.pod("web", "node-a"));
        Instant now = w.clock.instant();

        StaticCapacity.Report r = step(w, fixed(1)).run(w.store.list(now), w.cluster.nodes(), w.cluster.pods(), now);

        assertThat(r).isEqualTo(new StaticCapacity.Report(0, 1));
        assertThat(w.claim("b").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(w.claim("b").deletionReason()).isEqualTo(StaticCapacity.REASON);
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void anUnlaunchedClaimIsRemovedFirstAndFinished() {
        // Karpenter core static/deprovisioning/controller.go: unresolved NodeClaims (no provider id) go first.
        LifecycleWorld w = new LifecycleWorld(fixed(1));
        w.addNode("a", "fixed");
        w.store.create(NodeClaim.launching("pending", "fixed", "h", List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "on-demand", 0.096, T0));
        Instant now = w.clock.instant();

        step(w, fixed(1)).run(w.store.list(now), w.cluster.nodes(), w.cluster.pods(), now);

        assertThat(w.claim("pending").state().isDeleting()).isTrue();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void anEmptyStaticNodeIsNeverRemovedAsEmpty() {
        // Karpenter core pkg/controllers/disruption/emptiness.go: ShouldDisrupt is false for a static NodePool's nodes.
        NodePool pool = fixed(1);
        NodeClaim c = LifecycleFixtures.initialized("a", "fixed");
        Node n = LifecycleFixtures.node("a", "fixed");
        Node emptyLong = new Node(n.name(), n.providerId(), Map.of("karpenter.sh/nodepool", "fixed",
                DisruptionDecision.EMPTY_SINCE, Long.toString(T0.minusSeconds(3600).getEpochSecond())), n.annotations(), n.taints(),
                n.allocatable(), true, false, false, n.createdAt(), n.finalizers(), null);
        var commands = DisruptionDecision.decide(Map.of("fixed", new NodePool(pool.name(), pool.annotations(), pool.template(),
                new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ZERO), List.of()),
                pool.limits(), null, null, 1)), List.of(new DisruptionDecision.Candidate(c, emptyLong, List.of())), T0);
        assertThat(commands).isEmpty();
    }
}
