package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.execution.ConsolidationOutcome.What;
import dev.gantry.core.interruption.EventEnvelope;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.LifecycleFixtures.RecordingQueue;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Rebalance recommendations carried out by the consolidation command machinery, as drift is. Gantry's own: Karpenter
 * only records an Event for an EC2 Instance Rebalance Recommendation (aws/karpenter-provider-aws#2813). The interruption
 * handler labels the spot node of an opted-in pool; the sweep starts a REBALANCE command that launches the replacement
 * on another offering (not the node's own type in its zone on spot), waits until it is initialized, then hands the node
 * to the termination flow, within the pool's budgets that apply to every reason.
 */
class RebalanceCommandsTest {
    static final List<String> BOTH = List.of("spot", "on-demand");

    static InstanceType big(Offering... offerings) {
        return new InstanceType("big", Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                new Resources(2000L, 8 * ConsolidationWorld.GI, 100 * ConsolidationWorld.GI, 110, Map.of()), Resources.ZERO,
                List.of(offerings));
    }

    static ConsolidationWorld world(InstanceType type, NodePool.Budget budget, String rebalance) {
        return world(List.of(type), budget, rebalance);
    }

    static InstanceType other(Offering... offerings) {
        InstanceType b = big();
        return new InstanceType("other", b.labels(), b.capacity(), b.overhead(), List.of(offerings));
    }

    static ConsolidationWorld world(List<InstanceType> types, NodePool.Budget budget, String rebalance) {
        NodePool pool = new NodePool(ConsolidationWorld.POOL, rebalance == null ? Map.of() : Map.of("gantry.dev/rebalance", rebalance),
                new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(),
                        List.of(new Requirement(WellKnownLabels.CAPACITY_TYPE, Operator.In, BOTH, null)),
                        new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()),
                new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ZERO), List.of(budget)),
                Map.of(), null, null);
        return new ConsolidationWorld(types, Duration.ZERO, budget, pool);
    }

    static final NodePool.Budget ALL = new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of());

    /** Spot in us-east-1a (the node's own) cheapest, spot in us-east-1b next, on-demand dearest. */
    final ConsolidationWorld c = world(big(Offering.of("us-east-1a", "spot", 0.03), Offering.of("us-east-1b", "spot", 0.04),
            Offering.of("us-east-1a", "on-demand", 0.10)), ALL, "true");

    static EventEnvelope recommendation(String instance) {
        return new EventEnvelope("r", "aws.ec2", "EC2 Instance Rebalance Recommendation", LifecycleFixtures.T0,
                Map.of("instance-id", instance), List.of(), List.of());
    }

    NodeClaim initialize(ConsolidationWorld w, String name) {
        Instant now = w.w.clock.instant();
        NodeClaim n = w.claim(name);
        NodeClaim launched = w.w.store.update(n.launched("i-" + name, n.instanceType(), n.zone(), n.capacityType(), n.pricePerHour(), now));
        return w.w.store.update(launched.registered("node-" + name, now).initialized(now));
    }

    @Test
    void aRecommendedSpotNodeIsReplacedOnAnotherSpotOfferingThenDrainedOnceTheReplacementIsInitialized() {
        // Gantry's own (aws/karpenter-provider-aws#2813).
        c.node("a", "spot", 1500);
        c.node("b", "spot", 1500);
        c.w.interruption.handle(recommendation("i-a"));

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isEqualTo(1);
        assertThat(r.started()).contains("REBALANCE").contains("remove node-a").contains("launch [big]");
        assertThat(c.claim("a").consolidation().reason()).isEqualTo("rebalance");
        assertThat(c.claim("a").consolidation().command()).startsWith("r-");
        assertThat(c.deliverLast().what()).isEqualTo(What.LAUNCHING);
        assertThat(c.tainted("node-a")).isTrue();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        NodeClaim planned = c.claim(replacement);
        assertThat(planned.capacityType()).as("another spot offering, cheaper than on-demand").isEqualTo("spot");
        assertThat(planned.zone()).as("not the node's own pool (big, us-east-1a, spot)").isEqualTo("us-east-1b");
        assertThat(planned.pods()).as("planned with the node's pods").hasSize(1);
        assertThat(c.deliverLast().what()).as("no drain before the replacement is initialized").isEqualTo(What.WAITING);
        assertThat(c.w.cluster.pods()).anyMatch(p -> "node-a".equals(p.nodeName()));

        initialize(c, replacement);

        assertThat(c.deliverLast().what()).isEqualTo(What.HANDED);
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(c.claim("a").deletionReason()).isEqualTo("rebalance");
    }

    @Test
    void theSameRecommendationDeliveredTwiceStartsOneCommand() {
        // Gantry's own: at-least-once delivery (SQS), and EC2 may repeat the recommendation.
        c.node("a", "spot", 1500);
        c.node("b", "spot", 1500);
        c.w.interruption.handle(recommendation("i-a"));
        c.w.interruption.handle(recommendation("i-a"));
        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
        String command = c.claim("a").consolidation().command();
        c.w.interruption.handle(recommendation("i-a"));

        ConsolidationReport again = c.service.sweep(List.of());

        assertThat(again.decided()).isZero();
        assertThat(c.claim("a").consolidation().command()).isEqualTo(command);
        assertThat(c.w.store.list(c.w.clock.instant()).stream().filter(x -> x.consolidation() != null
                && x.consolidation().isLeader(x.name()))).hasSize(1);
    }

    @Test
    void withNoOtherSpotOfferingTheReplacementIsOnDemand() {
        // Gantry's own: the node's own spot pool is out; on-demand is the cheapest left.
        ConsolidationWorld one = world(big(Offering.of("us-east-1a", "spot", 0.03), Offering.of("us-east-1a", "on-demand", 0.10)),
                ALL, "true");
        one.node("a", "spot", 1500);
        one.w.interruption.handle(recommendation("i-a"));
        one.service.sweep(List.of());
        one.deliverLast();
        NodeClaim planned = one.claim(one.claim("a").consolidation().replacements().getFirst());
        assertThat(planned.capacityType()).isEqualTo("on-demand");
    }

    @Test
    void aBudgetOfZeroForAllReasonsHoldsTheRebalanceButOneForDriftOnlyDoesNot() {
        // Gantry's own: a rebalance is none of Karpenter's reasons, so only the budgets that apply to all reasons limit it.
        for (boolean allReasons : new boolean[] {true, false}) {
            NodePool.Budget zero = new NodePool.Budget("0", Optional.empty(), Optional.empty(),
                    allReasons ? List.of() : List.of(NodePool.Reason.Drifted));
            ConsolidationWorld w = world(big(Offering.of("us-east-1a", "spot", 0.03), Offering.of("us-east-1b", "spot", 0.04)),
                    zero, "true");
            w.node("a", "spot", 1500);
            w.node("b", "spot", 1500);
            w.w.interruption.handle(recommendation("i-a"));
            assertThat(w.service.sweep(List.of()).decided()).as("budget 0 for " + (allReasons ? "all reasons" : "Drifted"))
                    .isEqualTo(allReasons ? 0 : 1);
        }
    }

    @Test
    void aPoolThatDoesNotOptInIsNotRebalanced() {
        ConsolidationWorld off = world(big(Offering.of("us-east-1a", "spot", 0.03), Offering.of("us-east-1b", "spot", 0.04)),
                ALL, null);
        off.node("a", "spot", 1500);
        off.node("b", "spot", 1500);
        off.w.interruption.handle(recommendation("i-a"));
        assertThat(off.w.cluster.node("node-a").labels()).doesNotContainKey("gantry.dev/rebalance-recommended");
        assertThat(off.service.sweep(List.of()).decided()).isZero();
    }

    NodeClaim replacementOf(ConsolidationWorld w, String claim) {
        w.deliverLast();
        return w.claim(w.claim(claim).consolidation().replacements().getFirst());
    }

    /**
     * Gantry's own. Regression (spot storm, seed 42: 21 pods moved twice with rebalance on, 10 off): the replacement
     * went to the cheapest other spot type in the recommended node's zone, which the storm's next wave hit too. Spot in
     * another zone, cheaper than on-demand, is taken instead, and the claim keeps out of the zone at launch.
     */
    @Test
    void theReplacementLeavesTheRecommendedZoneForSpotElsewhereWhenThatIsCheaperThanOnDemand() {
        ConsolidationWorld w = world(List.of(big(Offering.of("us-east-1a", "spot", 0.03), Offering.of("us-east-1b", "spot", 0.05),
                Offering.of("us-east-1a", "on-demand", 0.10)), other(Offering.of("us-east-1a", "spot", 0.035),
                Offering.of("us-east-1a", "on-demand", 0.10))), ALL, "true");
        w.node("a", "spot", 1500);
        w.w.interruption.handle(recommendation("i-a"));
        w.service.sweep(List.of());

        NodeClaim planned = replacementOf(w, "a");

        assertThat(planned.capacityType()).isEqualTo("spot");
        assertThat(planned.zone()).as("not another type in the recommended zone").isEqualTo("us-east-1b");
        assertThat(planned.requirements()).as("the launch keeps out of it too")
                .contains(new Requirement(WellKnownLabels.ZONE, Operator.NotIn, List.of("us-east-1a"), null));
    }

    /** Gantry's own: with spot elsewhere dearer than on-demand, another spot type in the zone, not under recommendation. */
    @Test
    void withSpotElsewhereDearerThanOnDemandAnotherSpotTypeInTheZoneIsTaken() {
        ConsolidationWorld w = world(List.of(big(Offering.of("us-east-1a", "spot", 0.03), Offering.of("us-east-1b", "spot", 0.12),
                Offering.of("us-east-1a", "on-demand", 0.10)), other(Offering.of("us-east-1a", "spot", 0.035),
                Offering.of("us-east-1a", "on-demand", 0.10))), ALL, "true");
        w.node("a", "spot", 1500);
        w.w.interruption.handle(recommendation("i-a"));
        w.service.sweep(List.of());

        NodeClaim planned = replacementOf(w, "a");

        assertThat(planned.instanceType()).isEqualTo("other");
        assertThat(planned.zone()).isEqualTo("us-east-1a");
        assertThat(planned.capacityType()).isEqualTo("spot");
    }

    /** The command's replacement fails to launch; returns the outcome of the step that finds it, and that step's message. */
    static RecordingQueue.Sent failReplacement(ConsolidationWorld w, String claim, ConsolidationOutcome[] outcome) {
        w.deliverLast();
        String replacement = w.claim(claim).consolidation().replacements().getFirst();
        w.w.store.update(w.claim(replacement).draining("launch-failed", w.w.clock.instant())
                .terminated(w.w.clock.instant(), Duration.ofHours(1)));
        RecordingQueue.Sent step = w.lastConsolidationMessage();
        outcome[0] = w.deliverLast();
        return step;
    }

    /**
     * Gantry's own, as drift's back-off (Karpenter's designs/drift-per-nodepool-backoff.md): a pool whose rebalance
     * replacements keep failing backs off rebalance exponentially, in the table; a second delivery of the failing step
     * neither aborts twice nor doubles the back-off.
     */
    @Test
    void aPoolWhoseRebalanceReplacementsKeepFailingBacksOffInTheTableAndADuplicateStepDoesNotDoubleIt() {
        c.node("a", "spot", 1500);
        c.node("b", "spot", 1500);
        c.w.interruption.handle(recommendation("i-a"));
        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
        ConsolidationOutcome[] first = new ConsolidationOutcome[1];
        RecordingQueue.Sent step = failReplacement(c, "a", first);
        assertThat(first[0].what()).isEqualTo(What.ABORTED);
        assertThat(first[0].detail()).contains("NodePool default backs off rebalance until");
        Instant until = c.w.clock.instant().plus(PoolBackoff.FIRST);
        assertThat(c.w.store.marker("rebalance-backoff-until/default")).contains(until);

        ConsolidationOutcome again = c.service.advance(ConsolidationWorld.parse(step.body()));

        assertThat(again.what()).as("the duplicate").isNotEqualTo(What.ABORTED);
        assertThat(c.w.store.marker("rebalance-backoff-until/default")).as("not doubled").contains(until);
        assertThat(c.service.sweep(List.of()).decided()).as("backing off for a minute").isZero();
        assertThat(c.w.store.marker("drift-backoff-until/default")).as("drift is not held back").isEmpty();

        c.w.clock.advance(PoolBackoff.FIRST);
        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
        failReplacement(c, "a", first);
        assertThat(c.w.store.marker("rebalance-backoff-until/default")).as("twice the last")
                .contains(c.w.clock.instant().plus(PoolBackoff.FIRST.multipliedBy(2)));
    }
}
