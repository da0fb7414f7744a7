package dev.gantry.core.staticcapacity;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The count a static NodePool keeps: Karpenter's static provisioning and deprovisioning controllers. */
class StaticReplicasTest {
    static NodePool staticPool(String name, int replicas, Map<String, Quantity> limits) {
        return new NodePool(name, Map.of(), new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()), null, limits, null, null,
                replicas);
    }

    static StaticReplicas.Member running(String name, Pod... pods) {
        NodeClaim c = LifecycleFixtures.initialized(name, "fixed");
        Node n = LifecycleFixtures.node(name, "fixed");
        return new StaticReplicas.Member(c, n, List.of(pods));
    }

    static StaticReplicas.Member unlaunched(String name) {
        return new StaticReplicas.Member(NodeClaim.launching(name, "fixed", "h", List.of(), List.of("m5.large"), List.of(),
                "m5.large", "us-east-1a", "on-demand", 0.096, T0), null, List.of());
    }

    @Test
    void scaleUpMakesReplicasMinusLiveClaimsCountingThoseInFlight() {
        // Karpenter core pkg/controllers/static/provisioning/controller.go: desired - running NodeClaims (in flight too).
        var d = StaticReplicas.decide(staticPool("fixed", 5, Map.of()), List.of(running("a"), running("b"), unlaunched("c")), T0);
        assertThat(d.launch()).isEqualTo(2);
        assertThat(d.remove()).isEmpty();
        assertThat(d.limited()).isFalse();
    }

    @Test
    void scaleUpIsCappedByLimitsNodes() {
        // Karpenter core static/provisioning/controller.go: ReserveNodeCount(limits.nodes).
        var d = StaticReplicas.decide(staticPool("fixed", 5, Map.of("nodes", Quantity.of(3))), List.of(running("a")), T0);
        assertThat(d.launch()).isEqualTo(2);
        assertThat(d.limited()).isTrue();
        var full = StaticReplicas.decide(staticPool("fixed", 5, Map.of("nodes", Quantity.of(1))), List.of(running("a")), T0);
        assertThat(full.launch()).isZero();
    }

    @Test
    void deletingAndOtherPoolsClaimsAreNotCounted() {
        // Karpenter core static/provisioning/controller.go: a deleting NodeClaim is not running; a new one replaces it.
        StaticReplicas.Member draining = new StaticReplicas.Member(LifecycleFixtures.initialized("d", "fixed")
                .draining("expired", T0), LifecycleFixtures.node("d", "fixed"), List.of());
        StaticReplicas.Member other = new StaticReplicas.Member(LifecycleFixtures.initialized("o", "other"), null, List.of());
        var d = StaticReplicas.decide(staticPool("fixed", 2, Map.of()), List.of(running("a"), draining, other), T0);
        assertThat(d.live()).isEqualTo(1);
        assertThat(d.launch()).isEqualTo(1);
    }

    @Test
    void scaleDownRemovesUnlaunchedClaimsThenEmptyNodesThenTheCheapestToDisruptAndDoNotDisruptLast() {
        // Karpenter core pkg/controllers/static/deprovisioning/controller.go getDeprovisioningCandidates: unresolved,
        // empty, then lowest disruption cost, do-not-disrupt pods last.
        Pod web = LifecycleFixtures.pod("web", "node-busy");
        Pod heavy1 = LifecycleFixtures.pod("h1", "node-heavy");
        Pod heavy2 = LifecycleFixtures.pod("h2", "node-heavy");
        Pod guarded = LifecycleFixtures.pod("g", "node-guarded").toBuilder()
                .annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        Pod daemon = LifecycleFixtures.daemon("ds", "node-empty");
        List<StaticReplicas.Member> members = new ArrayList<>(List.of(running("guarded", guarded), running("heavy", heavy1, heavy2),
                running("busy", web), running("empty", daemon), unlaunched("new")));
        NodePool pool = staticPool("fixed", 5, Map.of());

        assertThat(StaticReplicas.decide(pool, members, T0).remove()).isEmpty();
        assertThat(StaticReplicas.decide(staticPool("fixed", 3, Map.of()), members, T0).remove()).containsExactly("new", "empty");
        assertThat(StaticReplicas.decide(staticPool("fixed", 0, Map.of()), members, T0).remove())
                .containsExactly("new", "empty", "busy", "heavy", "guarded");
    }

    @Test
    void aDriftedNodeAndItsReplacementInFlightAreNotOneNodeTooMany() {
        // Karpenter core static/deprovisioning/controller.go counts only running NodeClaims, not those pending disruption.
        ConsolidationMark mark = new ConsolidationMark("cmd", "a", ConsolidationMark.Phase.Launching, 1, List.of("a"),
                List.of("node-a"), List.of("r"), "drifted", 0.1, 0.1, T0, T0.plusSeconds(900), T0);
        StaticReplicas.Member candidate = new StaticReplicas.Member(LifecycleFixtures.initialized("a", "fixed").withConsolidation(mark),
                LifecycleFixtures.node("a", "fixed"), List.of());
        var d = StaticReplicas.decide(staticPool("fixed", 2, Map.of()), List.of(candidate, running("b"), unlaunched("r")), T0);
        assertThat(d.remove()).isEmpty();
        assertThat(d.launch()).isZero();
    }

    @Test
    void aDynamicPoolHasNoCountToKeep() {
        assertThatThrownBy(() -> StaticReplicas.decide(LifecycleFixtures.pool("dyn"), List.of(), T0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
