package dev.gantry.core.disruption;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.daemon;
import static dev.gantry.core.lifecycle.LifecycleFixtures.initialized;
import static dev.gantry.core.lifecycle.LifecycleFixtures.node;
import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.DisruptionCommand.Disrupt;
import dev.gantry.core.disruption.DisruptionCommand.SetEmptySince;
import dev.gantry.core.disruption.DisruptionDecision.Candidate;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DisruptionDecisionTest {
    static NodePool whenEmpty(Duration after) {
        return poolWith("p", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(after),
                List.of(NodePool.Budget.DEFAULT)), Optional.empty(), Optional.empty(), Map.of());
    }

    static Node withLabels(Node n, Map<String, String> extra) {
        Map<String, String> l = new HashMap<>(n.labels());
        l.putAll(extra);
        return new Node(n.name(), n.providerId(), l, n.annotations(), n.taints(), n.allocatable(), n.ready(), n.unschedulable(),
                n.deleting(), n.createdAt(), n.finalizers(), n.deletionTimestamp());
    }

    static Candidate emptySince(String name, Instant since, Pod... pods) {
        Node n = node(name, "p");
        if (since != null) {
            n = withLabels(n, Map.of(DisruptionDecision.EMPTY_SINCE, Long.toString(since.getEpochSecond())));
        }
        return new Candidate(initialized(name, "p"), n, List.of(pods));
    }

    static List<DisruptionCommand> decide(NodePool pool, List<Candidate> c, Instant now) {
        return DisruptionDecision.decide(Map.of(pool.name(), pool), c, now);
    }

    @Test
    void anEmptyNodeIsFirstMarkedEmpty() {
        assertThat(decide(whenEmpty(Duration.ofSeconds(30)), List.of(emptySince("a", null)), T0))
                .containsExactly(new SetEmptySince("node-a", T0));
    }

    @Test
    void daemonAndTerminalPodsDoNotMakeANodeBusy() {
        Pod done = pod("job", "node-a").toBuilder().status(new Pod.Status("Succeeded", false, T0, null, null)).build();
        assertThat(decide(whenEmpty(Duration.ofSeconds(30)), List.of(emptySince("a", null, daemon("ds", "node-a"), done)), T0))
                .containsExactly(new SetEmptySince("node-a", T0));
    }

    @Test
    void aBusyNodeLosesItsEmptyMark() {
        assertThat(decide(whenEmpty(Duration.ofSeconds(30)), List.of(emptySince("a", T0, pod("web", "node-a"))), T0.plusSeconds(60)))
                .containsExactly(new SetEmptySince("node-a", null));
        assertThat(decide(whenEmpty(Duration.ofSeconds(30)), List.of(emptySince("a", null, pod("web", "node-a"))), T0)).isEmpty();
    }

    @Test
    void anEmptyNodeIsDisruptedOnceConsolidateAfterHasPassed() {
        NodePool p = whenEmpty(Duration.ofSeconds(30));
        assertThat(decide(p, List.of(emptySince("a", T0)), T0.plusSeconds(29))).isEmpty();
        assertThat(decide(p, List.of(emptySince("a", T0)), T0.plusSeconds(30))).containsExactly(Disrupt.outright("a", "empty"));
    }

    @Test
    void consolidateAfterNeverKeepsEmptyNodes() {
        NodePool never = poolWith("p", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.empty(), List.of()),
                Optional.empty(), Optional.empty(), Map.of());
        assertThat(decide(never, List.of(emptySince("a", T0)), T0.plus(Duration.ofDays(1)))).isEmpty();
    }

    @Test
    void doNotDisruptKeepsAnEmptyNode() {
        Pod guarded = daemon("ds", "node-a").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        assertThat(decide(whenEmpty(Duration.ZERO), List.of(emptySince("a", T0, guarded)), T0.plusSeconds(60))).isEmpty();
        Candidate annotatedNode = emptySince("b", T0);
        Node n = annotatedNode.node();
        Node guardedNode = new Node(n.name(), n.providerId(), n.labels(), Map.of(Pod.DO_NOT_DISRUPT, "true"), n.taints(),
                n.allocatable(), true, false, false, n.createdAt(), n.finalizers(), null);
        assertThat(decide(whenEmpty(Duration.ZERO), List.of(new Candidate(annotatedNode.claim(), guardedNode, List.of())), T0.plusSeconds(60))).isEmpty();
    }

    @Test
    void aDurationDoNotDisruptKeepsAnEmptyNodeOnlyWhileItsPodIsYoungerThanIt() {
        Pod guarded = daemon("ds", "node-a").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "10m"))
                .status(new Pod.Status("Running", false, T0, null, null)).build();
        NodePool p = whenEmpty(Duration.ZERO);
        assertThat(decide(p, List.of(emptySince("a", T0, guarded)), T0.plus(Duration.ofMinutes(9)))).isEmpty();
        assertThat(decide(p, List.of(emptySince("a", T0, guarded)), T0.plus(Duration.ofMinutes(10))))
                .containsExactly(Disrupt.outright("a", "empty"));
    }

    @Test
    void doNotDisruptInThePoolsTemplateAnnotationsKeepsItsEmptyNodes() {
        NodePool p = whenEmpty(Duration.ZERO);
        NodePool.Template t = p.template();
        NodePool guarded = new NodePool(p.name(), p.annotations(), new NodePool.Template(t.labels(),
                Map.of(Pod.DO_NOT_DISRUPT, "true"), t.taints(), t.startupTaints(), t.requirements(), t.nodeClassRef(),
                t.expireAfter(), t.terminationGracePeriod()), p.disruption(), p.limits(), p.weight(), p.convertedFrom());
        assertThat(decide(guarded, List.of(emptySince("a", T0)), T0.plusSeconds(60))).isEmpty();
        assertThat(decide(p, List.of(emptySince("a", T0)), T0.plusSeconds(60))).containsExactly(Disrupt.outright("a", "empty"));
    }

    @Test
    void budgetsLimitEmptinessToTenPercentOfTenNodesOldestFirst() {
        List<Candidate> c = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            c.add(emptySince("n" + i, T0.minusSeconds(100 - i)));
        }
        assertThat(decide(whenEmpty(Duration.ofSeconds(30)), c, T0)).containsExactly(Disrupt.outright("n0", "empty"));
    }

    @Test
    void nodesAlreadyDisruptingUseUpTheBudget() {
        List<Candidate> c = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            c.add(emptySince("n" + i, T0.minusSeconds(100)));
        }
        NodeClaim draining = initialized("d", "p").draining("empty", T0);
        c.add(new Candidate(draining, node("d", "p"), List.of()));
        assertThat(decide(whenEmpty(Duration.ofSeconds(30)), c, T0)).noneMatch(x -> x instanceof Disrupt);
    }

    @Test
    void notReadyNodesUseUpTheBudget() {
        List<Candidate> c = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            c.add(emptySince("n" + i, T0.minusSeconds(100)));
        }
        Node sick = node("s", "p");
        c.add(new Candidate(initialized("s", "p"), new Node(sick.name(), sick.providerId(), sick.labels(), Map.of(), List.of(),
                sick.allocatable(), false, false, false, sick.createdAt(), sick.finalizers(), null), List.of(pod("w", "node-s"))));
        assertThat(decide(whenEmpty(Duration.ofSeconds(30)), c, T0)).noneMatch(x -> x instanceof Disrupt);
    }

    @Test
    void claimsNotYetInitializedAreNotCandidates() {
        NodeClaim registered = initialized("a", "p");
        registered = dev.gantry.core.lifecycle.LifecycleFixtures.launched("a", "p").registered("node-a", T0);
        assertThat(decide(whenEmpty(Duration.ZERO), List.of(new Candidate(registered, node("a", "p"), List.of())), T0)).isEmpty();
    }

    @Test
    void expiredNodesAreReplacedAndDisruptedWithoutABudget() {
        NodePool p = poolWith("p", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.empty(),
                List.of(new NodePool.Budget("0", Optional.empty(), Optional.empty(), List.of()))), Optional.of(Duration.ofHours(1)),
                Optional.empty(), Map.of());
        List<Candidate> c = List.of(emptySince("a", null, pod("web", "node-a")), emptySince("b", null, pod("web2", "node-b")));
        assertThat(decide(p, c, T0.minusSeconds(1))).isEmpty();
        assertThat(decide(p, c, T0)).containsExactly(Disrupt.replacingFirst("a", "expired"), Disrupt.replacingFirst("b", "expired"));
    }

    @Test
    void expiringNodesCountAgainstTheEmptinessBudget() {
        NodePool p = poolWith("p", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("1", Optional.empty(), Optional.empty(), List.of()))), Optional.of(Duration.ofHours(1)), Optional.empty(), Map.of());
        Candidate old = emptySince("a", null, pod("web", "node-a"));
        Candidate young = new Candidate(dev.gantry.core.lifecycle.LifecycleFixtures.launched("b", "p").registered("node-b", T0)
                .initialized(T0), emptySince("b", T0.minusSeconds(60)).node(), List.of());
        young = new Candidate(NodeClaim.launching("b", "p", "h", List.of(), List.of(), List.of(), "m5.large", "us-east-1a", "spot", 0, T0)
                .launched("i-b", "m5.large", "us-east-1a", "spot", 0, T0).registered("node-b", T0).initialized(T0), young.node(), List.of());
        assertThat(decide(p, List.of(old, young), T0)).containsExactly(Disrupt.replacingFirst("a", "expired"));
    }

    @Test
    void otherPoolsAreLeftAlone() {
        Candidate c = new Candidate(initialized("a", "other"), node("a", "other"), List.of());
        assertThat(decide(whenEmpty(Duration.ZERO), List.of(c), T0)).isEmpty();
    }

    @Test
    void unreadableEmptyMarksCountAsAbsent() {
        Node n = withLabels(node("a", "p"), Map.of(DisruptionDecision.EMPTY_SINCE, "yesterday"));
        assertThat(DisruptionDecision.emptySince(n)).isNull();
        assertThat(DisruptionDecision.emptySince(withLabels(node("a", "p"), Map.of(DisruptionDecision.EMPTY_SINCE, "")))).isNull();
    }

    @Test
    void aConsolidationReplacementWaitingForItsPodsIsNotRemovedAsEmpty() {
        NodePool p = whenEmpty(Duration.ofSeconds(30));
        Instant init = T0.minus(Duration.ofMinutes(55)); // LifecycleFixtures.initialized
        Candidate replacement = new Candidate(initialized("r", "p").launchedByConsolidation(),
                withLabels(node("r", "p"), Map.of(DisruptionDecision.EMPTY_SINCE, Long.toString(init.getEpochSecond()))), List.of());

        assertThat(decide(p, List.of(replacement), init.plusSeconds(60))).as("within the grace").isEmpty();
        assertThat(decide(p, List.of(replacement), init.plus(DisruptionDecision.REPLACEMENT_GRACE)))
                .containsExactly(Disrupt.outright("r", "empty"));
    }

    @Test
    void aCandidateOfAConsolidationCommandUnderWayIsLeftToItAndUsesUpTheBudget() {
        NodePool p = poolWith("p", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ofSeconds(30)),
                List.of(new NodePool.Budget("1", Optional.empty(), Optional.empty(), List.of()))), Optional.empty(), Optional.empty(), Map.of());
        var mark = new dev.gantry.core.lifecycle.ConsolidationMark("c-1", "a", dev.gantry.core.lifecycle.ConsolidationMark.Phase.Validating,
                0, List.of("a"), List.of("node-a"), List.of(), "empty", 0.04, 0, T0, T0.plusSeconds(600), T0);
        Candidate marked = new Candidate(initialized("a", "p").withConsolidation(mark), emptySince("a", T0).node(), List.of());

        assertThat(decide(p, List.of(marked, emptySince("b", T0)), T0.plusSeconds(60)))
                .as("a is the command's; with it, the budget of one is used up").isEmpty();
    }
}
