package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Consolidation's and drift's replacements ({@link CostLimitGuard}) count what the pool owns at what it costs, as the
 * provisioner does ({@code CostLimit.inUse}, one rule): a staying node or a claim in flight whose type or offering the
 * pool's types no longer list still costs, at the catalogue's price for it, never $0. Karpenter counts a pool's
 * cpu/memory over the nodes it owns whether or not its requirements still match them: kubernetes-sigs/karpenter
 * {@code pkg/controllers/nodepool/counter/controller.go} Reconcile ({@code status.resources} from
 * {@code pkg/controllers/state/cluster.go} NodePoolResourcesFor).
 */
class CostLimitOwnedGuardTest {
    /** "large" is $0.10/h on-demand, "xlarge" $0.20/h; the catalogue has no spot offerings. */
    private static TestCluster limited(String dollars) {
        return CostLimitGuardTest.limited(dollars);
    }

    /** The input with the default pool's types narrowed to those not named, and a second pool keeping them all. */
    private static ConsolidationInput withoutTypes(TestCluster c, String... gone) {
        ConsolidationInput in = c.input();
        List<PoolOffer> pools = new ArrayList<>();
        for (PoolOffer p : in.pools()) {
            List<InstanceType> kept = p.instanceTypes().stream().filter(t -> !List.of(gone).contains(t.name())).toList();
            pools.add(new PoolOffer(p.pool(), kept, p.usage(), p.nodeCount()));
        }
        NodePool other = new NodePool("other", Map.of(), c.pools.get("default").template(), null, Map.of(), null, null);
        pools.add(new PoolOffer(other, c.types));
        return new ConsolidationInput(in.nodes(), pools, in.daemonSets(), in.pdbs(), in.namespaceLabels(), in.settings(),
                in.now(), in.reserved(), in.only(), in.inFlight());
    }

    /** n1 (xlarge, $0.20) stays, though its pool no longer lists xlarge: with a $0.10 replacement that is past $0.25. */
    @Test
    void aStayingNodeWhoseTypeThePoolNoLongerListsStillCounts() {
        TestCluster c = limited("0.25");
        c.node("n0", "large", c.pod(1500)).node("n1", "xlarge", c.pod(3500));
        ConsolidationCommand cmd = SpotSplitGuardTest.replace(c, "n0", "on-demand");
        assertThat(CostLimitGuard.breaks(c.input(), cmd)).contains("$0.2000/h staying");
        assertThat(CostLimitGuard.breaks(withoutTypes(c, "xlarge"), cmd))
                .contains("NodePool default past its gantry.dev/limit-cost-per-hour of $0.2500/h")
                .contains("$0.2000/h staying, $0.0000/h in flight, $0.1000/h added");
    }

    /** n1 runs on spot, an offering the catalogue does not have (any more): it counts at large's dearest, $0.10. */
    @Test
    void aStayingNodeWhoseOfferingIsGoneCountsAtItsTypesDearestOffering() {
        TestCluster c = limited("0.15");
        c.node("n0", "large", c.pod(1500)).node(c.nodeOf("n1", "large", "spot", Map.of()), c.pod(1500));
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand")))
                .contains("$0.1000/h staying, $0.0000/h in flight, $0.1000/h added");
    }

    /** A claim in flight in a zone the catalogue no longer offers counts too; drift waits for room. */
    @Test
    void aClaimInFlightWhoseOfferingIsGoneCounts() {
        TestCluster c = limited("0.25");
        c.node("n0", "large", c.pod(1500)).node("n1", "large", c.pod(1500));
        c.inFlight.add(new ConsolidationInput.LaunchingClaim("f0", "default", "large", "test-zone-1z", "on-demand"));
        ConsolidationDecision d = DriftReplacement.decide(c.input(), List.of("n0"));
        assertThat(d.command()).isEmpty();
        assertThat(d.verdicts()).anySatisfy(v -> assertThat(v.toString()).contains("drifted, but its replacement would take "
                + "NodePool default past its gantry.dev/limit-cost-per-hour").contains("$0.1000/h in flight"));
    }

    /** A node of a type no pool lists counts at the dearest offering its pool's requirements allow (2xlarge, $0.40). */
    @Test
    void aStayingNodeOfATypeNoPoolListsCountsAtTheDearestThePoolWouldLaunch() {
        TestCluster c = limited("0.45");
        c.node("n0", "large", c.pod(1500)).node("n1", "xlarge", c.pod(3500));
        ConsolidationInput in = withoutTypes(c, "xlarge");
        ConsolidationInput alone = new ConsolidationInput(in.nodes(), List.of(in.pools().get(0)), in.daemonSets(), in.pdbs(),
                in.namespaceLabels(), in.settings(), in.now(), in.reserved(), in.only(), in.inFlight());
        assertThat(CostLimitGuard.breaks(alone, SpotSplitGuardTest.replace(c, "n0", "on-demand")))
                .contains("$0.4000/h staying, $0.0000/h in flight, $0.1000/h added");
        // With its claim's recorded launch price known, the node counts at that ($0.20 for the xlarge it is).
        ConsolidationInput recorded = new ConsolidationInput(alone.nodes(), alone.pools(), alone.daemonSets(), alone.pdbs(),
                alone.namespaceLabels(), alone.settings(), alone.now(), alone.reserved(), alone.only(), alone.inFlight(),
                Map.of("n1", 0.20));
        assertThat(CostLimitGuard.breaks(recorded, SpotSplitGuardTest.replace(c, "n0", "on-demand"))).isNull();
        ConsolidationInput tighter = new ConsolidationInput(alone.nodes(), alone.pools(), alone.daemonSets(), alone.pdbs(),
                alone.namespaceLabels(), alone.settings(), alone.now(), alone.reserved(), alone.only(), alone.inFlight(),
                Map.of("n1", 0.40));
        assertThat(CostLimitGuard.breaks(tighter, SpotSplitGuardTest.replace(c, "n0", "on-demand")))
                .contains("$0.4000/h staying");
    }

    /** A claim in flight of a type no pool lists counts at its recorded launch price. */
    @Test
    void aClaimInFlightOfATypeNoPoolListsCountsAtItsLaunchPrice() {
        TestCluster c = limited("0.45");
        c.node("n0", "large", c.pod(1500)).node("n1", "large", c.pod(1500));
        c.inFlight.add(new ConsolidationInput.LaunchingClaim("f0", "default", "x9.huge", TestCluster.ZONES.get(0), "on-demand"));
        ConsolidationInput in = c.input();
        ConsolidationInput recorded = new ConsolidationInput(in.nodes(), in.pools(), in.daemonSets(), in.pdbs(),
                in.namespaceLabels(), in.settings(), in.now(), in.reserved(), in.only(), in.inFlight(), Map.of("f0", 0.30));
        assertThat(CostLimitGuard.breaks(recorded, SpotSplitGuardTest.replace(c, "n0", "on-demand")))
                .contains("$0.1000/h staying, $0.3000/h in flight, $0.1000/h added");
    }
}
