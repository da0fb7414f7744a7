package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.execution.ConsolidationOutcome.What;
import dev.gantry.core.lifecycle.LifecycleFixtures.RecordingQueue;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The consolidation command's state machine: each step, a crash at each step, and every way it gives up. */
class ConsolidationServiceTest {

    @Test
    void aDeleteIsDecidedInTheSweepValidatedFifteenSecondsLaterAndHandedToTheTerminationFlow() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a", 500);
        c.node("b", 1000);

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isEqualTo(1);
        ConsolidationMark mark = c.claim("a").consolidation();
        assertThat(mark.phase()).isEqualTo(Phase.Validating);
        assertThat(mark.candidates()).containsExactly("a");
        assertThat(c.lastConsolidationMessage().delay()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.tainted("node-a")).as("nothing happens to the node before validation").isFalse();

        assertThat(c.deliverLast().what()).isEqualTo(What.LAUNCHING);
        assertThat(c.tainted("node-a")).isTrue();
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Initialized);

        ConsolidationOutcome handed = c.deliverLast();

        assertThat(handed.what()).isEqualTo(What.HANDED);
        assertThat(handed.savingsPerHour()).isEqualTo(0.10);
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(c.claim("a").deletionReason()).isEqualTo("underutilized");
        assertThat(c.w.queue.sent).anySatisfy(s -> assertThat(s.body()).isEqualTo("{\"claim\":\"a\",\"step\":0}"));
        assertThat(c.claim("b").state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void validationAbortsWhenThePodsChurnedAndLeavesTheNodeAsItWas() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a", 500);
        c.node("b", 1000);
        c.service.sweep(List.of());
        c.pod("node-b", 800); // b has no room for a's pod any more

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.ABORTED);
        assertThat(o.detail()).contains("validation failed");
        assertThat(c.claim("a").consolidation()).isNull();
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(c.tainted("node-a")).isFalse();
    }

    @Test
    void aReplacementIsRecordedForTheProvisionerAndTheNodeGoesOnlyOnceItIsInitialized() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());

        assertThat(c.deliverLast().what()).isEqualTo(What.LAUNCHING);
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        NodeClaim r = c.claim(replacement);
        assertThat(r.state()).isEqualTo(NodeClaimState.Launching);
        assertThat(r.fromConsolidation()).isTrue();
        assertThat(r.instanceType()).isEqualTo("small");
        assertThat(c.w.hints.sent).contains("replacement node-a");
        assertThat(c.tainted("node-a")).isTrue();

        assertThat(c.deliverLast().what()).as("still launching").isEqualTo(What.WAITING);
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Initialized);

        NodeClaim launched = c.w.store.update(c.claim(replacement).launched("i-r", "small", "us-east-1a", "on-demand", 0.04,
                c.w.clock.instant()));
        c.w.store.update(launched.registered("node-r", c.w.clock.instant()).initialized(c.w.clock.instant()));

        assertThat(c.deliverLast().what()).isEqualTo(What.HANDED);
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(c.claim(replacement).consolidation()).as("the replacement is a node like any other now").isNull();
        assertThat(c.claim(replacement).fromConsolidation()).isTrue();
    }

    @Test
    void aFailedReplacementUntaintsTheCandidateAndGivesUp() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.deliverLast();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        NodeClaim r = c.claim(replacement);
        c.w.store.update(r.draining("launch-failed", c.w.clock.instant()).terminated(c.w.clock.instant(), Duration.ofHours(1)));

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.ABORTED);
        assertThat(o.detail()).contains("replacement nodeclaim/" + replacement + " failed (launch-failed)");
        assertThat(c.tainted("node-a")).isFalse();
        assertThat(c.claim("a").consolidation()).isNull();
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Initialized);
    }

    /**
     * Gantry's own: Karpenter tries again on its next pass, leaving out only the offerings that failed, so in a spot
     * shortage it taints a node and launches into the shortage once a pass (spot-split-storm: 16 of 22 commands aborted
     * that way). A pool whose consolidation replacement failed launches none for a minute, then twice as long after
     * each failure that follows; consolidation by deletion goes on meanwhile.
     */
    @Test
    void aPoolWhoseReplacementFailedLaunchesNoReplacementWhileItBacksOffButStillDeletes() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);

        ConsolidationOutcome o = replacementFails(c, "a");

        assertThat(o.what()).isEqualTo(What.ABORTED);
        assertThat(o.detail()).contains("NodePool default launches no consolidation replacement until");
        assertThat(c.w.store.marker("consolidation-backoff-until/default")).contains(c.w.clock.instant().plus(PoolBackoff.FIRST));
        assertThat(c.w.store.marker("drift-backoff-until/default")).as("drift is not held back").isEmpty();
        ConsolidationReport held = c.service.sweep(List.of());
        assertThat(held.decided()).as("no replacement for a minute").isZero();
        assertThat(held.skipped()).contains("backs off consolidation launches");
        assertThat(held.verdicts()).singleElement().satisfies(v -> assertThat(v.reason())
                .isEqualTo("NodePool \"default\" launches no consolidation replacement until "
                        + c.w.clock.instant().plus(PoolBackoff.FIRST) + ": its last one failed"));

        c.node("b", 500); // a's pod fits on b: a delete, which launches nothing
        ConsolidationReport delete = c.service.sweep(List.of());
        assertThat(delete.decided()).as("a delete goes on").isEqualTo(1);
        assertThat(delete.started()).doesNotContain("launch");
    }

    @Test
    void theAbortingStepDeliveredTwiceStartsOneBackOffNotTwo() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.deliverLast();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        c.w.store.update(c.claim(replacement).draining("launch-failed", c.w.clock.instant())
                .terminated(c.w.clock.instant(), Duration.ofHours(1)));
        RecordingQueue.Sent step = c.lastConsolidationMessage();
        assertThat(c.deliverLast().what()).isEqualTo(What.ABORTED);
        java.time.Instant until = c.w.clock.instant().plus(PoolBackoff.FIRST);

        ConsolidationOutcome again = c.service.advance(ConsolidationWorld.parse(step.body()));

        assertThat(again.what()).as("the duplicate").isNotEqualTo(What.ABORTED);
        assertThat(c.w.store.marker("consolidation-backoff-until/default")).as("not doubled").contains(until);
    }

    @Test
    void aReplacementIsDecidedAgainOnceTheBackOffEnds() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        replacementFails(c, "a");
        assertThat(c.service.sweep(List.of()).decided()).isZero();

        c.w.clock.advance(PoolBackoff.FIRST);
        ConsolidationReport again = c.service.sweep(List.of());

        assertThat(again.decided()).isEqualTo(1);
        assertThat(again.started()).contains("launch [small]");
    }

    /**
     * A decision held back by a back-off stands, while the inputs are the same, until the first back-off ends: the
     * sweeps between would take the same two decisions (the first, then again without the pool's launches) only to be
     * held again. At 5,000 nodes that is two of the slowest decisions a minute for nothing.
     */
    @Test
    void aHeldDecisionStandsUntilTheBackOffEndsInsteadOfBeingTakenAgainEachSweep() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        replacementFails(c, "a");
        ConsolidationReport first = c.service.sweep(List.of());
        assertThat(first.verdicts()).as("decided, and held").isNotEmpty();

        c.w.clock.advance(Duration.ofSeconds(30));
        ConsolidationReport second = c.service.sweep(List.of());

        assertThat(second.decided()).isZero();
        assertThat(second.verdicts()).as("not decided again").isEmpty();
        assertThat(second.skipped()).contains("backs off consolidation launches");
        c.w.clock.advance(PoolBackoff.FIRST.minusSeconds(30));
        assertThat(c.service.sweep(List.of()).started()).as("decided again as the back-off ends").contains("launch [small]");
    }

    @Test
    void validationLaunchesNothingInAPoolThatStartedBackingOffSinceTheDecision() {
        // Validation decides again and records the replacements it finds: it holds back what the sweep would.
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
        new PoolBackoff(c.w.store, PoolBackoff.CONSOLIDATION).failed("default", c.w.clock.instant()); // another failed meanwhile

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.ABORTED);
        assertThat(o.detail()).contains("no longer worth it");
        assertThat(c.recordedReplacements).isEmpty();
        assertThat(c.tainted("node-a")).isFalse();
    }

    /** Decides a command replacing {@code claim}'s node, lets the replacement's launch fail, and delivers the abort. */
    private static ConsolidationOutcome replacementFails(ConsolidationWorld c, String claim) {
        c.service.sweep(List.of());
        c.deliverLast();
        String replacement = c.claim(claim).consolidation().replacements().getFirst();
        c.w.store.update(c.claim(replacement).draining("launch-failed", c.w.clock.instant())
                .terminated(c.w.clock.instant(), Duration.ofHours(1)));
        return c.deliverLast();
    }

    @Test
    void aReplacementNotInitializedWithinTheTimeoutIsClosedAndTheCandidateKept() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.deliverLast();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        c.w.clock.advance(ConsolidationService.LAUNCH_TIMEOUT);

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.ABORTED);
        assertThat(o.detail()).contains("not initialized within 10m");
        assertThat(c.claim(replacement).state()).as("never launched: closed").isEqualTo(NodeClaimState.Terminated);
        assertThat(c.claim(replacement).deletionReason()).isEqualTo("consolidation-aborted");
        assertThat(c.tainted("node-a")).isFalse();
    }

    @Test
    void aDuplicateMessageForAStepAlreadyTakenDoesNothing() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        ConsolidationRequest first = ConsolidationWorld.parse(c.lastConsolidationMessage().body());
        c.deliverLast();
        int sent = c.w.queue.sent.size();

        ConsolidationOutcome again = c.service.advance(first);

        assertThat(again.what()).isEqualTo(What.IGNORED);
        assertThat(c.w.queue.sent).hasSize(sent);
        assertThat(c.recordedReplacements).hasSize(1);
    }

    @Test
    void aRedeliveredValidationAfterACrashBeforeTheLeaderMovedOnFindsTheSameReplacement() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        ConsolidationRequest validation = ConsolidationWorld.parse(c.lastConsolidationMessage().body());
        c.w.clock.advance(Duration.ofSeconds(15));
        // A first delivery recorded the replacement and crashed before writing the leader: simulate its record.
        c.service.advance(validation);
        String replacement = c.rewindToACrashedValidation("a");

        ConsolidationOutcome redelivered = c.service.advance(validation);

        assertThat(redelivered.what()).isEqualTo(What.LAUNCHING);
        assertThat(c.claim("a").consolidation().replacements()).containsExactly(replacement);
        assertThat(c.w.store.list(c.w.clock.instant()).stream().filter(NodeClaim::fromConsolidation)).hasSize(1);
    }

    @Test
    void aCommandWhoseMessageWasLostIsResumedByTheSweep() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        ConsolidationRequest validation = ConsolidationWorld.parse(c.lastConsolidationMessage().body());
        c.w.queue.sent.clear(); // the message is lost
        c.w.clock.advance(ConsolidationService.STALLED_AFTER);

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.resumed()).isEqualTo(1);
        assertThat(r.decided()).as("one command at a time").isZero();
        assertThat(ConsolidationWorld.parse(c.lastConsolidationMessage().body())).isEqualTo(validation);
    }

    @Test
    void aCommandStalledForTwoMinutesIsResumedAsADrainIsButOneWithinAHealthyGapIsNot() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.w.queue.sent.clear(); // the message is lost
        // The longest healthy gap: the validation delay plus one handler run (60 s timeout).
        c.w.clock.advance(ConsolidationService.VALIDATION_DELAY.plusSeconds(60));
        assertThat(c.service.sweep(List.of()).resumed()).isZero();

        c.w.clock.advance(java.time.Duration.ofMinutes(2).minus(ConsolidationService.VALIDATION_DELAY.plusSeconds(60)));
        assertThat(c.service.sweep(List.of()).resumed()).as("as TerminationService.STALLED_AFTER").isEqualTo(1);
    }

    @Test
    void aFollowerWrittenBeforeACrashIsReleasedByTheSweep() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        NodeClaim b = c.node("b", 500);
        // A crash after the follower's write and before the leader's: the leader "a" never carried the command.
        c.w.store.update(b.withConsolidation(new ConsolidationMark("c-lost", "a", Phase.Validating, 0, List.of("a", "b"),
                List.of("node-a", "node-b"), List.of(), "underutilized", 0.2, 0.04, c.w.clock.instant(),
                c.w.clock.instant().plusSeconds(600), c.w.clock.instant())));

        c.service.sweep(List.of());

        assertThat(c.claim("b").consolidation() == null || !c.claim("b").consolidation().command().equals("c-lost")).isTrue();
    }

    @Test
    void aCrashAfterTheLeaderMovedOnButBeforeTheTaintIsFinishedByTheNextMessage() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.deliverLast();
        c.w.cluster.patchNode("node-a", new dev.gantry.core.cluster.NodePatch(null, null, List.of("karpenter.sh/disrupted"),
                null, null, null)); // as if the taint never happened

        c.deliverLast();

        assertThat(c.tainted("node-a")).isTrue();
    }

    @Test
    void theSweepRecordsAPodEventAndConsolidateAfterCountsFromIt() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.w.store.update(c.claim("a").podEvent(c.w.clock.instant(), PodEvents.fingerprint(c.w.cluster.podsOn("node-a"))));
        c.pod("node-a", 100);

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.podEvents()).isEqualTo(1);
        assertThat(c.claim("a").lastPodEventAt()).isEqualTo(c.w.clock.instant());
        assertThat(r.decided()).as("consolidateAfter is 0: the node may go at once").isEqualTo(1);
    }

    @Test
    void aNodeWhoseRemovalLeavesAHeadroomPodNowhereIsKeptBecauseItHoldsHeadroom() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a");
        c.node("b", 1500);
        Pod virtual = Pod.builder("default", "buffer-0").uid("v0").owner("CapacityBuffer", "buffer")
                .requests(Resources.of(1800, ConsolidationWorld.GI)).build();

        ConsolidationReport r = c.service.sweep(List.of(virtual));

        assertThat(r.decided()).isZero();
        assertThat(r.verdicts()).anySatisfy(v -> {
            assertThat(v.node()).isEqualTo("node-a");
            assertThat(v.reason()).contains("holds headroom");
        });
        assertThat(c.w.cluster.events()).anySatisfy(e -> assertThat(e).contains("node-a").contains("Unconsolidatable")
                .contains("holds headroom"));
    }

    @Test
    void aNodeHoldingOnlyABuffersLowestPriorityPodIsNotEmptyAndStaysWhenThePodFitsNowhereElse() {
        // Regression: a virtual pod's priority (BufferPods.PRIORITY, below any real pod) clamps its eviction cost to
        // zero, so its node counted as empty and was removed without re-placing it; the sweep's backstop then launched
        // the buffer's node again, every five minutes (headroom-sized: 108 removals, 121 launches in a day).
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a");
        c.node("b", 1500);
        Pod virtual = Pod.builder("default", "buffer-0").uid("v0").owner("CapacityBuffer", "buffer")
                .priority(dev.gantry.core.headroom.BufferPods.PRIORITY).requests(Resources.of(1800, ConsolidationWorld.GI)).build();

        ConsolidationReport r = c.service.sweep(List.of(virtual));

        assertThat(r.decided()).isZero();
        assertThat(r.verdicts()).anySatisfy(v -> {
            assertThat(v.node()).isEqualTo("node-a");
            assertThat(v.reason()).contains("holds headroom");
        });
    }

    @Test
    void anUnchangedVerdictIsRecordedAsAnEventOnceNotEverySweep() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a", 1500);
        c.node("b", 1500);

        c.service.sweep(List.of());
        c.w.clock.advance(Duration.ofMinutes(1));
        c.service.sweep(List.of());
        c.w.clock.advance(Duration.ofMinutes(1));
        c.w.cluster.putPod(c.w.cluster.podsOn("node-a").getFirst()); // the same pods: nothing changes

        c.service.sweep(List.of());

        assertThat(c.w.cluster.events().stream().filter(e -> e.contains("node-a"))).hasSize(1);
    }

    @Test
    void aCandidateOfTheCommandUnderWayIsNotPartOfAnotherDecision() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a", 500);
        c.node("b", 1000);
        c.service.sweep(List.of());
        c.w.clock.advance(Duration.ofSeconds(5));

        ConsolidationReport second = c.service.sweep(List.of());

        assertThat(second.decided()).isZero();
        assertThat(second.skipped()).contains("under way");
        assertThat(Map.of("b", c.claim("b").consolidation() == null)).containsEntry("b", true);
    }

    @Test
    void aNodeWhosePodsJustChangedWaitsForConsolidateAfterFromNow() {
        ConsolidationWorld c = new ConsolidationWorld(false, Duration.ofMinutes(5));
        c.node("a", 500);
        c.w.store.update(c.claim("a").podEvent(c.w.clock.instant().minus(Duration.ofHours(1)),
                PodEvents.fingerprint(c.w.cluster.podsOn("node-a"))));
        c.node("b");
        c.pod("node-a", 100); // a pod bound to a since the last sweep

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(c.claim("a").consolidation()).as("a just had a pod event").isNull();
        assertThat(r.verdicts()).anySatisfy(v -> {
            assertThat(v.node()).isEqualTo("node-a");
            assertThat(v.reason()).contains("consolidateAfter");
        });
    }

    // ---------------------------------------------------------------- #21 defect 4: validation keeps the buffers' room

    /** One buffer of a 1000m chunk, always wanted. */
    private static dev.gantry.core.headroom.Headroom buffer() {
        Pod template = Pod.builder("default", "chunk").requests(Resources.of(1000, ConsolidationWorld.GI)).build();
        var targets = dev.gantry.core.headroom.BufferTargets.of(List.of(
                new dev.gantry.core.headroom.BufferTargets.Target("default", "PodTemplate", "chunk", template, 0)));
        var b = new dev.gantry.core.headroom.CapacityBuffer("default", "warm",
                new dev.gantry.core.headroom.CapacityBuffer.PodTemplateRef("chunk"), 1, null, Map.of(), null, null, null);
        return now -> dev.gantry.core.headroom.HeadroomPlan.of(List.of(b), targets, dev.gantry.core.headroom.DemandHistory.EMPTY,
                now, Duration.ZERO);
    }

    @Test
    void validationKeepsRoomForTheBuffersTheDecisionKeptRoomFor() {
        // Regression: validation re-decided without the buffers, so a 4-vCPU node whose replacement was planned as a
        // 2-vCPU one (its 600m pod and the buffer's 1000m chunk) was replaced by a 1-vCPU one, and the provisioner then
        // launched another node for the buffer.
        ConsolidationWorld c = new ConsolidationWorld(List.of(ConsolidationWorld.type("large", 4, 0.20),
                ConsolidationWorld.type("big", 2, 0.10), ConsolidationWorld.type("small", 1, 0.04)), Duration.ZERO);
        var headroom = buffer();
        c.service.withHeadroom(headroom);
        c.node("a", 600);

        assertThat(c.service.sweep(headroom.at(c.w.clock.instant()).virtualPods()).decided()).isEqualTo(1);
        assertThat(c.claim("a").consolidation().plannedPrice()).isEqualTo(0.10);

        assertThat(c.deliverLast().what()).isEqualTo(What.LAUNCHING);
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        assertThat(c.claim(replacement).instanceType()).isEqualTo("big");
    }

    @Test
    void validationAbortsWhenTheBuffersCannotBeRead() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a", 500);
        c.service.sweep(List.of());
        c.service.withHeadroom(now -> {
            throw new IllegalStateException("list capacitybuffers failed (503)");
        });

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.ABORTED);
        assertThat(o.detail()).contains("buffers could not be read");
        assertThat(c.tainted("node-a")).isFalse();
    }

    // ---------------------------------------------------------------- #21 defect 5: the quiet cache expires

    @Test
    void aQuietClusterIsDecidedAgainAfterFiveMinutes() {
        // Regression: the "nothing changed" key never expired; Karpenter decides at least every 5 minutes.
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a", 1500);
        c.node("b", 1500);
        assertThat(c.service.sweep(List.of()).skipped()).isNull();
        c.w.clock.advance(Duration.ofMinutes(1));
        assertThat(c.service.sweep(List.of()).skipped()).isEqualTo("nothing changed since the last decision");

        c.w.clock.advance(ConsolidationService.QUIET_FOR.minus(Duration.ofMinutes(1)));
        ConsolidationReport again = c.service.sweep(List.of());

        assertThat(again.skipped()).isNull();
        assertThat(again.candidates()).isEqualTo(2);
        c.w.clock.advance(Duration.ofMinutes(1));
        assertThat(c.service.sweep(List.of()).skipped()).as("quiet again, for another five minutes")
                .isEqualTo("nothing changed since the last decision");
    }

    @Test
    void aPodsDoNotDisruptDurationThatLapsesIsSeenAtTheNextSweep() {
        // Regression: the key held the pods' uids only, so a 2-minute do-not-disrupt that lapsed went unseen.
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a");
        c.pod("node-a", 500, Map.of(Pod.DO_NOT_DISRUPT, "2m")); // created at T0: protected until T0+2m
        c.node("b", 2000);
        assertThat(c.service.sweep(List.of()).decided()).isZero();
        c.w.clock.advance(Duration.ofMinutes(1));
        assertThat(c.service.sweep(List.of()).decided()).as("still protected").isZero();

        c.w.clock.advance(Duration.ofMinutes(2));
        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isEqualTo(1);
        assertThat(c.claim("a").consolidation().candidates()).containsExactly("a");
    }

    @Test
    void aPodWhoseDoNotDisruptAnnotationIsRemovedIsSeenAtTheNextSweep() {
        ConsolidationWorld c = new ConsolidationWorld();
        c.node("a");
        Pod p = c.pod("node-a", 500, Map.of(Pod.DO_NOT_DISRUPT, "true"));
        c.node("b", 2000);
        assertThat(c.service.sweep(List.of()).decided()).isZero();
        c.w.clock.advance(Duration.ofMinutes(1));
        c.w.cluster.putPod(p.toBuilder().annotations(Map.of()).build());

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isEqualTo(1);
    }
}
