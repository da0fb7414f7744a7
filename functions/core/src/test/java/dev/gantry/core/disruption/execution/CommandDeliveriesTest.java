package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.disruption.execution.ConsolidationOutcome.What;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A command's steps under what production does to them: two deliveries of one step overlapping, a crash between two
 * writes, a conditional write that loses to an unrelated writer or whose answer is lost, and a step that fails every
 * time. Each test puts the interleaving between two store calls with the world's hooks.
 */
class CommandDeliveriesTest {

    // Another delivery that runs inside a hook runs a moment later (the clock moves on by a millisecond): two deliveries
    // that write the very same mark at the very same instant cannot be told apart from one whose answer was lost.

    private static ConsolidationRequest lastRequest(ConsolidationWorld c) {
        return ConsolidationWorld.parse(c.lastConsolidationMessage().body());
    }

    private static void fail(ConsolidationWorld c, String replacement) {
        Instant now = c.w.clock.instant();
        c.w.store.update(c.claim(replacement).draining("launch-failed", now).terminated(now, Duration.ofHours(1)));
    }

    private static void initialize(ConsolidationWorld c, String replacement) {
        Instant now = c.w.clock.instant();
        NodeClaim launched = c.w.store.update(c.claim(replacement).launched("i-" + replacement, "small", "us-east-1a",
                "on-demand", 0.04, now));
        c.w.store.update(launched.registered("node-" + replacement, now).initialized(now));
    }

    private static boolean leaderAt(NodeClaim c, Phase p) {
        return c.name().equals("a") && c.consolidation() != null && c.consolidation().phase() == p;
    }

    // ---------------------------------------------------------------- #21 defect 2: a taint outliving its command

    @Test
    void aPollOverlappedByADuplicateThatAbortsLeavesNoTaint() {
        // Regression: Launching tainted before anything else; a duplicate that aborted (and untainted) in between
        // left the taint, and the late delivery then lost its leader write and returned: the node tainted for ever.
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.deliverLast();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        ConsolidationRequest poll = lastRequest(c);
        c.w.clock.advance(ConsolidationService.POLL);
        fail(c, replacement);
        // The late delivery has read the leader when the duplicate runs to its end, a moment later.
        c.store.afterGet("a", () -> {
            c.w.clock.advance(Duration.ofMillis(1));
            assertThat(c.service.advance(poll).what()).isEqualTo(What.ABORTED);
        });

        ConsolidationOutcome late = c.service.advance(poll);

        assertThat(late.what()).isEqualTo(What.IGNORED);
        assertThat(c.tainted("node-a")).isFalse();
        assertThat(c.claim("a").consolidation()).isNull();
    }

    @Test
    void aValidationWhoseTaintLandsAfterTheNextStepAbortedTakesItBack() {
        // Regression: validation wrote the leader, sent the next message and tainted; that message could run first,
        // find the replacement failed, abort and untaint, and the taint landed after it.
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        ConsolidationRequest validation = lastRequest(c);
        c.w.clock.advance(ConsolidationService.VALIDATION_DELAY);
        c.store.afterUpdate(x -> leaderAt(x, Phase.Launching), () -> {
            fail(c, c.recordedReplacements.getLast());
            ConsolidationOutcome next = c.service.advance(new ConsolidationRequest("a", validation.command(), 1));
            assertThat(next.what()).isEqualTo(What.ABORTED);
        });

        assertThat(c.service.advance(validation).what()).isEqualTo(What.LAUNCHING);

        assertThat(c.tainted("node-a")).as("taken back after the re-check").isFalse();
    }

    // ---------------------------------------------------------------- #21 defect 6: conflicts read, not assumed

    @Test
    void aLeaderWriteThatLosesToAPodEventIsDecidedAgainNotDropped() {
        // Regression: any conflict on the leader read as "another delivery moved on": the chain stopped and the
        // command waited for the sweep's stall resend (two minutes or more).
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.store.beforeUpdate(x -> leaderAt(x, Phase.Launching), () -> {
            NodeClaim a = c.claim("a");
            c.w.store.update(a.podEvent(c.w.clock.instant(), a.podSet())); // the sweep's pod-event write
        });

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.LAUNCHING);
        assertThat(c.claim("a").consolidation().phase()).isEqualTo(Phase.Launching);
        assertThat(lastRequest(c).step()).isEqualTo(1);
        assertThat(c.tainted("node-a")).isTrue();
        assertThat(c.w.store.list(c.w.clock.instant()).stream().filter(NodeClaim::fromConsolidation)).as("the same replacement")
                .hasSize(1);
    }

    @Test
    void aLeaderWriteWhoseAnswerWasLostCarriesOn() {
        // Regression: the write took effect, the SDK's retry failed its condition, and the step gave up as if another
        // delivery had moved on: no next message and no taint until the stall resend.
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.store.afterUpdate(x -> leaderAt(x, Phase.Launching), () -> {
            throw new NodeClaimStore.Conflict("the retry of a write that took effect");
        });

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.LAUNCHING);
        assertThat(lastRequest(c).step()).isEqualTo(1);
        assertThat(c.tainted("node-a")).isTrue();
    }

    @Test
    void aLeaderThatKeepsChangingUnderTheStepSendsTheMessageBack() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        ConsolidationRequest validation = lastRequest(c);
        c.w.clock.advance(ConsolidationService.VALIDATION_DELAY);
        Runnable podEvent = () -> c.w.store.update(c.claim("a").podEvent(c.w.clock.instant(), c.claim("a").podSet()));
        for (int i = 0; i < ConsolidationService.STEP_ATTEMPTS; i++) {
            c.store.beforeUpdate(x -> leaderAt(x, Phase.Launching), podEvent);
        }

        assertThatThrownBy(() -> c.service.advance(validation)).isInstanceOf(NodeClaimStore.Conflict.class);
        assertThat(c.claim("a").consolidation().phase()).isEqualTo(Phase.Validating);
        assertThat(c.service.advance(validation).what()).as("the redelivery").isEqualTo(What.LAUNCHING);
    }

    @Test
    void aStepThatFailsEveryTimeIsAbortedAtTheCommandTimeoutAndConsolidationGoesOn() {
        // Regression: a step that threw deterministically was resent by the sweep every two minutes for ever, and
        // while its command was under way no other command started anywhere in the cluster.
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        String command = c.claim("a").consolidation().command();
        c.failReplacements = true;
        int delivered = 0;
        for (int minute = 0; minute < 20 && c.claim("a").consolidation() != null
                && c.claim("a").consolidation().command().equals(command); minute++) {
            c.w.clock.advance(Duration.ofMinutes(1));
            List<String> sent = c.w.queue.sent.stream().map(s -> s.body()).filter(b -> b.contains("\"consolidation\"")).toList();
            for (String body : sent.subList(delivered, sent.size())) {
                try {
                    c.service.advance(ConsolidationWorld.parse(body));
                } catch (IllegalStateException deterministic) {
                    // the message comes back, and fails again
                }
            }
            delivered = sent.size();
            c.service.sweep(List.of());
        }

        int aborted = c.journal.indexOf(c.journal.stream().filter(j -> j.startsWith("aborted: command " + command)).findFirst()
                .orElseThrow());
        assertThat(c.journal.get(aborted)).contains("not over within 15m");
        assertThat(c.journal.subList(aborted, c.journal.size())).as("the next command")
                .anySatisfy(j -> assertThat(j).startsWith("decided: command c-").doesNotContain(command));
    }

    // ---------------------------------------------------------------- #21 defect 7: a hand-off cut short

    /** Two candidates, a and b, replaced by one small node that is up: the next message hands them over. */
    private static ConsolidationWorld handOffDue() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.node("b", 500);
        c.service.sweep(List.of());
        assertThat(c.claim("a").consolidation().candidates()).containsExactly("a", "b");
        c.deliverLast();
        initialize(c, c.claim("a").consolidation().replacements().getFirst());
        return c;
    }

    @Test
    void aHandOffCutShortByACrashIsFinishedByItsRedelivery() {
        // Regression: once the leader was deleting the command counted as inactive, so the redelivery aborted and
        // released b, and the replacement stayed beside it.
        ConsolidationWorld c = handOffDue();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        ConsolidationRequest handOff = lastRequest(c);
        c.w.clock.advance(ConsolidationService.POLL);
        c.store.afterUpdate(x -> x.name().equals("a") && x.state() == NodeClaimState.Draining, () -> {
            throw new IllegalStateException("crash after the leader's hand-over");
        });
        assertThatThrownBy(() -> c.service.advance(handOff)).hasMessageContaining("crash");
        assertThat(c.claim("b").state()).isEqualTo(NodeClaimState.Initialized);

        ConsolidationOutcome again = c.service.advance(handOff);

        assertThat(again.what()).as("not a second execution").isEqualTo(What.IGNORED);
        assertThat(c.claim("b").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(c.claim("b").deletionReason()).isEqualTo("underutilized");
        assertThat(c.claim(replacement).consolidation()).isNull();
        assertThat(c.journal).filteredOn(j -> j.startsWith("aborted")).isEmpty();
    }

    @Test
    void aHandOffCutShortByACrashIsFinishedByTheSweep() {
        ConsolidationWorld c = handOffDue();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        c.w.clock.advance(ConsolidationService.POLL);
        ConsolidationRequest handOff = lastRequest(c);
        c.store.afterUpdate(x -> x.name().equals("a") && x.state() == NodeClaimState.Draining, () -> {
            throw new IllegalStateException("crash after the leader's hand-over");
        });
        assertThatThrownBy(() -> c.service.advance(handOff)).hasMessageContaining("crash");
        c.w.clock.advance(Duration.ofMinutes(1));

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.resumed()).isPositive();
        assertThat(c.claim("b").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(c.claim(replacement).consolidation()).isNull();
        assertThat(c.claim(replacement).state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void aLateRedeliveryOfAHandOffLeavesACandidateThatMovedOnToAnotherCommandAlone() {
        ConsolidationWorld c = handOffDue();
        ConsolidationRequest handOff = lastRequest(c);
        c.w.clock.advance(ConsolidationService.POLL);
        c.store.afterUpdate(x -> x.name().equals("a") && x.state() == NodeClaimState.Draining, () -> {
            throw new IllegalStateException("crash after the leader's hand-over");
        });
        assertThatThrownBy(() -> c.service.advance(handOff)).hasMessageContaining("crash");
        // b's hand-over failed and a later command took b (its mark now that command's).
        NodeClaim b = c.claim("b");
        c.w.store.update(b.withConsolidation(new ConsolidationMark("c-later", "b", Phase.Validating, 0, List.of("b"),
                List.of("node-b"), List.of(), "underutilized", 0.1, 0, c.w.clock.instant(), c.w.clock.instant(),
                c.w.clock.instant())));

        c.service.advance(handOff);

        assertThat(c.claim("b").state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void twoDeliveriesOfTheHandOffExecuteTheCommandOnce() {
        ConsolidationWorld c = handOffDue();
        ConsolidationRequest handOff = lastRequest(c);
        c.w.clock.advance(ConsolidationService.POLL);
        c.store.afterGet("a", () -> {
            c.w.clock.advance(Duration.ofMillis(1));
            c.service.advance(handOff);
        });

        c.service.advance(handOff);

        assertThat(c.journal).filteredOn(j -> j.startsWith("handed")).hasSize(1);
        assertThat(c.claim("b").state()).isEqualTo(NodeClaimState.Draining);
        ConsolidationMark leader = c.claim("a").consolidation();
        assertThat(leader.phase()).isEqualTo(Phase.Handed);
    }
}
