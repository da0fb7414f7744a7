package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which {@code karpenter.sh/disrupted} taints no flow owns, and the sweep's removing them. */
class StaleTaintsTest {

    private static void taint(ConsolidationWorld c, String node) {
        c.w.cluster.patchNode(node, new NodePatch(null, List.of(Taint.DISRUPTED), null, null, null, null));
    }

    private static List<String> stale(ConsolidationWorld c) {
        Instant now = c.w.clock.instant();
        return StaleTaints.of(c.w.cluster.nodes(), c.w.store.list(now));
    }

    private static ConsolidationMark mark(String command, String leader, Phase phase, Instant now) {
        return new ConsolidationMark(command, leader, phase, 1, List.of("a", "b"), List.of("node-a", "node-b"), List.of(),
                "underutilized", 0.2, 0.04, now, now.plusSeconds(600), now);
    }

    @Test
    void aTaintedNodeWhoseClaimNoFlowOwnsIsStaleAndOnlyIt() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.node("b", 500);
        c.node("d", 500);
        c.node("e", 500);
        c.node("f", 500);
        Instant now = c.w.clock.instant();
        for (String n : List.of("a", "b", "d", "e", "f")) {
            taint(c, "node-" + n);
        }
        // a and b: candidates of a command under way (a leads); d: deleting (its termination flow's taint).
        c.w.store.update(c.claim("a").withConsolidation(mark("c-1", "a", Phase.Launching, now)));
        c.w.store.update(c.claim("b").withConsolidation(mark("c-1", "a", Phase.Launching, now)));
        c.w.store.update(c.claim("d").draining("expired", now));
        // e: a candidate of an aborted command; f: no command at all.
        c.w.store.update(c.claim("e").withConsolidation(mark("c-0", "e", Phase.Aborted, now)));

        assertThat(stale(c)).containsExactly("node-e", "node-f");
    }

    @Test
    void aCommandHandingOverOwnsItsCandidatesTaintsAndADeadLeadersCommandDoesNot() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.node("b", 500);
        Instant now = c.w.clock.instant();
        taint(c, "node-a");
        taint(c, "node-b");
        c.w.store.update(c.claim("a").withConsolidation(mark("c-1", "a", Phase.Handed, now)).draining("underutilized", now));
        c.w.store.update(c.claim("b").withConsolidation(mark("c-1", "a", Phase.Launching, now)));
        assertThat(stale(c)).as("handing over: b goes to the termination flow next").isEmpty();

        c.w.store.update(c.claim("a").withConsolidation(mark("c-1", "a", Phase.Launching, now)));
        assertThat(stale(c)).as("a leader deleting for another reason: its command is over").containsExactly("node-b");
    }

    @Test
    void aNodeBeingDeletedOrNotGantrysIsNotJudged() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        Node a = c.w.cluster.node("node-a");
        c.w.cluster.putNode(new Node("node-x", null, a.labels(), a.annotations(), List.of(Taint.DISRUPTED), a.allocatable(),
                true, false, true, a.createdAt(), List.of(), null));
        c.w.cluster.putNode(new Node("node-a", a.providerId(), a.labels(), a.annotations(), List.of(Taint.DISRUPTED),
                a.allocatable(), true, false, true, a.createdAt(), a.finalizers(), c.w.clock.instant()));

        assertThat(stale(c)).isEmpty();
    }

    /** A node Gantry's by its {@code gantry.dev/nodeclaim} label alone ({@link dev.gantry.core.lifecycle.ClaimsByNode}) is judged too. */
    @Test
    void aNodeWhoseClaimIsKnownByItsLabelIsJudged() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.node("b", 500);
        c.w.store.update(LabelledNodeTest.withoutIdentity(c, "a"));
        c.w.store.update(LabelledNodeTest.withoutIdentity(c, "b").draining("expired", c.w.clock.instant()));
        LabelledNodeTest.label(c, "node-a", "a");
        LabelledNodeTest.label(c, "node-b", "b");
        taint(c, "node-a");
        taint(c, "node-b");

        assertThat(stale(c)).as("b's taint is its termination flow's").containsExactly("node-a");
    }

    @Test
    void theSweepRemovesADisruptedTaintNoFlowOwns() {
        // Regression (#21 defect 2): nothing removed a taint its command left behind, so the node read as deleting for
        // ever: never consolidated, emptied or expired, and one less in its pool's budget.
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.node("b", 500);
        taint(c, "node-a");
        taint(c, "node-b");
        c.w.store.update(c.claim("b").draining("expired", c.w.clock.instant()));

        c.w.sweep.sweep();

        assertThat(c.tainted("node-a")).isFalse();
        assertThat(c.w.cluster.node("node-a").deleting()).isFalse();
        assertThat(c.tainted("node-b")).as("its termination flow's").isTrue();
    }

    @Test
    void aTaintLeftByAnOverlapIsGoneAtTheNextSweepAndTheNodeIsACandidateAgain() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.deliverLast();
        c.w.clock.advance(Duration.ofMinutes(1));
        // The command is aborted; a late delivery's taint lands after the abort untainted.
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        c.w.store.update(c.claim(replacement).draining("launch-failed", c.w.clock.instant())
                .terminated(c.w.clock.instant(), Duration.ofHours(1)));
        c.deliverLast();
        taint(c, "node-a");
        c.w.sweep.withConsolidation(c.service);
        c.w.clock.advance(PoolBackoff.FIRST); // the failed replacement's back-off, over

        c.w.sweep.sweep();

        assertThat(c.tainted("node-a")).isFalse();
        assertThat(c.claim("a").consolidation()).as("decided again").isNotNull();
    }
}
