package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.capacity.SpotSplit;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own rule (README, "Spot/on-demand split"): consolidation never leaves a pool's spot share more than one
 * node's worth from its {@code gantry.dev/spot-percentage}, and restores it step by step when spot ran out.
 */
class SpotSplitGuardTest {
    static TestCluster half() {
        TestCluster c = TestCluster.standard(true);
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of())), Map.of(SpotSplit.ANNOTATION, "50"));
        return c;
    }

    static ConsolidationCommand replace(TestCluster c, String node, String capacityType) {
        InstanceType large = c.typeNamed("large");
        var offering = large.offerings().stream().filter(o -> o.capacityType().equals(capacityType)).findFirst().orElseThrow();
        NodeClaimPlan r = new NodeClaimPlan("r", "default", Requirements.NONE, List.of(large), large, offering, List.of(), Resources.ZERO);
        return new ConsolidationCommand(ConsolidationCommand.Method.SINGLE_NODE, NodePool.Reason.Underutilized, List.of(node),
                List.of(node), List.of(r), Map.of(), 0.10, offering.pricePerHour(), "test");
    }

    private static TestCluster fourLarge(TestCluster c, String... capacityTypes) {
        int i = 0;
        for (String ct : capacityTypes) {
            String name = "n" + i++;
            c.node(c.nodeOf(name, "large", ct, Map.of()), c.pod(1500));
        }
        return c;
    }

    @Test
    void aReplacementWithinOneNodesWorthIsAllowedOneBeyondIsNot() {
        // 2 of 4 equal nodes spot (50%): one more spot is 75%, one node (25%) off: allowed.
        TestCluster c = fourLarge(half(), "spot", "spot", "on-demand", "on-demand");
        assertThat(SpotSplitGuard.breaks(c.input(), replace(c, "n2", "spot"))).isNull();
        // 3 of 4 spot (75%): a fourth is 100%, two nodes off and further than before: refused.
        TestCluster d = fourLarge(half(), "spot", "spot", "spot", "on-demand");
        assertThat(SpotSplitGuard.breaks(d.input(), replace(d, "n3", "spot")))
                .contains("spot share at 100%").contains("gantry.dev/spot-percentage of 50%");
    }

    @Test
    void afterSpotRanOutEachStepTowardTheTargetIsAllowed() {
        // Launched on-demand during a spot shortage: 0% spot against 50%; each replacement by spot is a step back.
        TestCluster c = fourLarge(half(), "on-demand", "on-demand", "on-demand", "on-demand");
        assertThat(SpotSplitGuard.breaks(c.input(), replace(c, "n0", "spot"))).isNull();
        // Deleting a spot node of a pool already short of spot moves it further off: refused.
        TestCluster d = fourLarge(half(), "spot", "on-demand", "on-demand", "on-demand");
        ConsolidationCommand delete = new ConsolidationCommand(ConsolidationCommand.Method.SINGLE_NODE, NodePool.Reason.Underutilized,
                List.of("n0"), List.of("n0"), List.of(), Map.of(), 0.03, 0, "test");
        assertThat(SpotSplitGuard.breaks(d.input(), delete)).isNotNull();
    }

    @Test
    void aPoolWithoutTheAnnotationIsNotGuarded() {
        TestCluster c = fourLarge(TestCluster.standard(true), "spot", "spot", "spot", "on-demand");
        assertThat(SpotSplitGuard.breaks(c.input(), replace(c, "n3", "spot"))).isNull();
    }

    @Test
    void consolidationDecidesNothingThatBreaksTheSplit() {
        // Unguarded, the cheapest move replaces the on-demand node by spot (100% spot).
        TestCluster free = fourLarge(TestCluster.standard(true), "spot", "spot", "spot", "on-demand");
        assertThat(free.decide().command()).isPresent();
        TestCluster c = fourLarge(half(), "spot", "spot", "spot", "on-demand");
        ConsolidationDecision d = c.decide();
        d.command().ifPresent(cmd -> assertThat(SpotSplitGuard.breaks(c.input(), cmd)).isNull());
    }

    @Test
    void anOnDemandNodeWhosePodsASpreadSendsToTwoZonesGoesBackToSpot() {
        // After a spot shortage: 2 of 6 vCPU on spot against 70%. n0 (on-demand, zone a) runs 4 web pods spread over
        // zones with maxSkew 1; n1 (spot, zone b) is full with 2 more. Without n0, the spread sends its pods to both
        // zones: two new nodes. Karpenter replaces a node by one at most, and re-packs only into fewer, so the pool
        // would stay at 33% spot (spot-split-storm, seed 70, before the fix: 74 minutes at 33%).
        TestCluster c = TestCluster.standard(true);
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of())), Map.of(SpotSplit.ANNOTATION, "70"));
        c.node(c.nodeOf("n0", "xlarge", "on-demand", Map.of()), spread(c), spread(c), spread(c), spread(c));
        c.node(inZone(c.nodeOf("n1", "large", "spot", Map.of()), TestCluster.ZONES.get(1)), spread(c), spread(c));

        ConsolidationDecision karpenter = c.reference();
        assertThat(karpenter.command()).isEmpty();
        assertThat(karpenter.verdicts()).anySatisfy(v -> assertThat(v.toString()).contains("n0").contains("without creating 2"));

        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.nodes()).contains("n0");
        assertThat(cmd.replacements()).hasSizeGreaterThanOrEqualTo(2).hasSizeLessThanOrEqualTo(cmd.nodes().size() + 1)
                .anySatisfy(r -> assertThat(r.offering().capacityType()).isEqualTo("spot"));
        assertThat(cmd.savings()).isPositive();
        assertThat(SpotSplitGuard.breaks(c.input(), cmd)).isNull();
        assertThat(SpotSplitGuard.restores(c.input(), cmd.nodes(), cmd.replacements())).isTrue();
    }

    @Test
    void aPoolAtItsTargetReplacesAnOnDemandNodeByOnDemand() {
        // 8 of 12 vCPU on spot against 67%. The half-used on-demand xlarge gives way to a cheaper node; as a launch would,
        // the replacement takes the capacity type the split's rule picks (on-demand: spot would put the pool at 100%,
        // which the one-node band allowed, and every run of spot-split-storm sat there after the storm).
        TestCluster c = TestCluster.standard(true);
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of())), Map.of(SpotSplit.ANNOTATION, "67"));
        c.node(c.nodeOf("n0", "2xlarge", "spot", Map.of()), c.pod(1000), c.pod(1000), c.pod(1000), c.pod(1000),
                c.pod(1000), c.pod(1000), c.pod(1000), c.pod(1000));
        c.node(c.nodeOf("n2", "xlarge", "on-demand", Map.of()), c.pod(1500));

        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.nodes()).containsExactly("n2");
        assertThat(cmd.replacements()).singleElement().satisfies(r -> {
            assertThat(r.offering().capacityType()).isEqualTo("on-demand");
            assertThat(r.instanceType().name()).isEqualTo("large");
        });
    }

    @Test
    void aMoveThatLaunchesAsManyNodesIsNotARestorationWhenThePoolIsAtItsTarget() {
        // 50% target at 50%: swapping the on-demand node for spot moves the share away; restores() says no.
        TestCluster c = fourLarge(half(), "spot", "spot", "on-demand", "on-demand");
        ConsolidationCommand swap = replace(c, "n2", "spot");
        assertThat(SpotSplitGuard.restores(c.input(), swap.nodes(), swap.replacements())).isFalse();
        TestCluster d = fourLarge(half(), "on-demand", "on-demand", "on-demand", "on-demand");
        ConsolidationCommand back = replace(d, "n0", "spot");
        assertThat(SpotSplitGuard.restores(d.input(), back.nodes(), back.replacements())).isTrue();
    }

    private static Pod.Builder spread(TestCluster c) {
        return c.pod(1000).topologySpread(List.of(TopologySpread.of(1, WellKnownLabels.ZONE, true, LabelSelector.of(Map.of("app", "web")))));
    }

    private static Node inZone(Node n, String zone) {
        Map<String, String> labels = new HashMap<>(n.labels());
        labels.put(WellKnownLabels.ZONE, zone);
        return new Node(n.name(), "aws:///" + zone + "/i-" + n.name(), labels, n.annotations(), n.taints(), n.allocatable(),
                n.ready(), n.unschedulable(), n.deleting(), n.createdAt(), n.finalizers(), n.deletionTimestamp(), n.conditions());
    }
}
