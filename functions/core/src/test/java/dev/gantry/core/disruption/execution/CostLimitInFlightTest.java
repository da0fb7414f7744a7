package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.execution.ConsolidationOutcome.What;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sweep counts the claims still launching without a node against a pool's dollar limit
 * ({@code gantry.dev/limit-cost-per-hour}), as the provisioner does ({@code CostLimit.inUse}), so a replacement never
 * takes the pool past its limit beside a claim the provisioner launched. As Karpenter counts in-flight NodeClaims
 * against its limits: kubernetes-sigs/karpenter v1.14.1 {@code pkg/controllers/state/cluster.go} UpdateNodeClaim makes a
 * StateNode of a NodeClaim with a provider id before its Node exists, keyed by that provider id, and UpdateNode
 * (newStateFromNode) puts the Node into the same StateNode, so a machine counts once; and
 * {@code pkg/controllers/disruption/helpers.go} SimulateScheduling hands the active state nodes to
 * {@code pkg/controllers/provisioning/scheduling/scheduler.go} calculateExistingNodeClaims, whose
 * updateRemainingResources subtracts each from its NodePool's limits. Karpenter counts a NodeClaim from its provider id
 * (launched); Gantry, as its provisioner does, from the claim's record (Launching, before CreateFleet answered too).
 */
class CostLimitInFlightTest {
    private static final Instant AT = LifecycleFixtures.T0;

    /** The world's catalogue (big $0.10/h, small $0.04/h) and a pool limited to {@code dollars} per hour. */
    private static ConsolidationWorld limited(String dollars) {
        NodePool.Budget all = new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of());
        NodePool pool = LifecycleFixtures.poolWith(ConsolidationWorld.POOL, new NodePool.Disruption(
                        NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO), List.of(all)),
                Optional.empty(), Optional.empty(), Map.of(CostLimit.ANNOTATION, dollars));
        return new ConsolidationWorld(List.of(ConsolidationWorld.type("big", 2, 0.10), ConsolidationWorld.type("small", 1, 0.04)),
                Duration.ZERO, all, pool);
    }

    private static NodeClaim launching(String name, String type, double price) {
        return NodeClaim.launching(name, ConsolidationWorld.POOL, "h", List.of(), List.of(type), List.of(), type, "us-east-1a",
                "on-demand", price, AT);
    }

    private static Node node(String name, String instanceId, Map<String, String> extra) {
        Map<String, String> labels = new java.util.HashMap<>(extra);
        labels.put(WellKnownLabels.NODEPOOL, ConsolidationWorld.POOL);
        labels.put(WellKnownLabels.INSTANCE_TYPE, "big");
        labels.put(WellKnownLabels.ZONE, "us-east-1a");
        labels.put(WellKnownLabels.CAPACITY_TYPE, "on-demand");
        return new Node(name, instanceId == null ? null : "aws:///us-east-1a/" + instanceId, labels, Map.of(), List.of(),
                Resources.of(2000, 8L << 30), true, false, false, AT);
    }

    private static List<String> inFlight(ClusterSnapshot snap, String exceptCommand) {
        NodePool pool = LifecycleFixtures.poolWith(ConsolidationWorld.POOL, null, Optional.empty(), Optional.empty(), Map.of());
        return snap.input(List.of(new SchedulingInput.PoolOffer(pool, List.of())), List.of(), ConsolidationSettings.DEFAULT, AT,
                exceptCommand, Set.of()).inFlight().stream().map(ConsolidationInput.LaunchingClaim::name).toList();
    }

    /** In flight: launching or launched without a node; a claim whose node is there is that node, never also in flight. */
    @Test
    void theSnapshotCountsEachClaimWithoutANodeOnceAndTheOthersAsTheirNodes() {
        NodeClaim recorded = launching("recorded", "big", 0.10);
        NodeClaim launched = launching("launched", "big", 0.10).launched("i-launched", "big", "us-east-1a", "on-demand", 0.10, AT);
        NodeClaim byId = launching("by-id", "big", 0.10).launched("i-by-id", "big", "us-east-1a", "on-demand", 0.10, AT);
        NodeClaim byLabel = launching("by-label", "big", 0.10); // its node came up before the store recorded the instance
        NodeClaim registered = launching("registered", "big", 0.10).launched("i-reg", "big", "us-east-1a", "on-demand", 0.10, AT)
                .registered("node-reg", AT);
        NodeClaim closing = launching("closing", "big", 0.10).terminating(AT);
        NodeClaim gone = launching("gone", "big", 0.10).terminated(AT, Duration.ofHours(1));
        ClusterView view = new ClusterView(List.of(), List.of(node("node-by-id", "i-by-id", Map.of()),
                node("node-by-label", "i-other", Map.of("gantry.dev/nodeclaim", "by-label")), node("node-reg", "i-reg", Map.of())),
                List.of(), Map.of());
        ClusterSnapshot snap = new ClusterSnapshot(view, List.of(),
                List.of(recorded, launched, byId, byLabel, registered, closing, gone));

        assertThat(inFlight(snap, null)).containsExactly("recorded", "launched");
        ConsolidationInput in = snap.input(List.of(), List.of(), ConsolidationSettings.DEFAULT, AT, null, Set.of());
        assertThat(in.nodes()).extracting(ConsolidationInput.ClusterNode::name)
                .containsExactly("node-by-id", "node-by-label", "node-reg");
    }

    /** A redelivered validation whose first delivery recorded the replacements finds them in flight: they are its own. */
    @Test
    void theReplacementsOfTheCommandBeingValidatedAreNotInFlightForIt() {
        NodeClaim own = launching("c-1-r0", "small", 0.04);
        NodeClaim marked = launching("renamed", "small", 0.04).withConsolidation(new ConsolidationMark("c-1", "a", Phase.Launching,
                1, List.of("a"), List.of("node-a"), List.of("renamed"), "underutilized", 0.10, 0.04, AT, AT, AT));
        NodeClaim other = launching("c-2-r0", "small", 0.04);
        ClusterSnapshot snap = new ClusterSnapshot(new ClusterView(List.of(), List.of(), List.of(), Map.of()), List.of(),
                List.of(own, marked, other));

        assertThat(inFlight(snap, "c-1")).containsExactly("c-2-r0");
        assertThat(inFlight(snap, null)).containsExactly("c-1-r0", "renamed", "c-2-r0");
    }

    /** a (big, $0.10) would go for a small ($0.04): within $0.10, not beside a big still launching. */
    @Test
    void theSweepRefusesAReplacementThatFitsOnlyIfAClaimInFlightIsIgnored() {
        ConsolidationWorld c = limited("0.10");
        c.node("a", 500);
        c.w.store.create(launching("provisioned", "big", 0.10));

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isZero();
        assertThat(c.claim("a").consolidation()).isNull();
        assertThat(r.verdicts()).anySatisfy(v -> assertThat(v.toString()).contains("node-a")
                .contains("its replacement would take NodePool default past its gantry.dev/limit-cost-per-hour of $0.1000/h "
                        + "($0.0000/h staying, $0.1000/h in flight, $0.0400/h added)"));
    }

    /**
     * A claim in flight of a type the catalogue no longer knows counts at the price its record holds ($0.07/h), not $0:
     * a replacement ($0.04/h) beside it would take the pool past $0.10/h.
     */
    @Test
    void theSweepCountsAClaimTheCatalogueNoLongerPricesAtItsRecordedPrice() {
        ConsolidationWorld c = limited("0.10");
        c.node("a", 500);
        c.w.store.create(launching("provisioned", "retired", 0.07));

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isZero();
        assertThat(r.verdicts()).anySatisfy(v -> assertThat(v.toString()).contains("node-a")
                .contains("($0.0000/h staying, $0.0700/h in flight, $0.0400/h added)"));
    }

    @Test
    void theSweepReplacesWhenTheClaimsInFlightLeaveRoom() {
        ConsolidationWorld c = limited("0.10");
        c.node("a", 500);
        c.w.store.create(launching("provisioned", "small", 0.04));

        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
        assertThat(c.deliverLast().what()).isEqualTo(What.LAUNCHING);
    }

    /** The quiet cache keys on the claims in flight: a launch that fails frees the room at the next sweep. */
    @Test
    void aClaimInFlightThatGoesAwayIsSeenAtTheNextSweep() {
        ConsolidationWorld c = limited("0.10");
        c.node("a", 500);
        NodeClaim provisioned = c.w.store.create(launching("provisioned", "big", 0.10));
        assertThat(c.service.sweep(List.of()).decided()).isZero();
        c.w.clock.advance(Duration.ofMinutes(1));
        assertThat(c.service.sweep(List.of()).skipped()).isEqualTo("nothing changed since the last decision");

        c.w.store.update(provisioned.terminated(c.w.clock.instant(), Duration.ofHours(1)));
        c.w.clock.advance(Duration.ofMinutes(1));

        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
    }

    /** A first delivery recorded the replacement and crashed before marking it or moving the leader on. */
    @Test
    void aRedeliveredValidationDoesNotCountItsOwnReplacementTwice() {
        ConsolidationWorld c = limited("0.05");
        c.node("a", 500);
        c.service.sweep(List.of());
        ConsolidationRequest validation = ConsolidationWorld.parse(c.lastConsolidationMessage().body());
        c.w.clock.advance(Duration.ofSeconds(15));
        c.service.advance(validation);
        String replacement = c.rewindToACrashedValidation("a");
        c.w.store.update(c.claim(replacement).withConsolidation(null));

        ConsolidationOutcome redelivered = c.service.advance(validation);

        assertThat(redelivered.what()).isEqualTo(What.LAUNCHING);
        assertThat(c.claim("a").consolidation().replacements()).containsExactly(replacement);
    }
}
