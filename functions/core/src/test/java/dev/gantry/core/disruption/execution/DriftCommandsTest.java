package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.execution.ConsolidationOutcome.What;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Drift carried out by the consolidation command machinery (Karpenter v1.14 core
 * {@code pkg/controllers/disruption/drift.go} and {@code queue.go}): decided in the sweep after emptiness and before
 * consolidation, one command per pass, replacements planned with the drifted node's pods and launched first, the node
 * tainted, then handed to the termination flow (reason {@code drifted}) once they are initialized; a failed
 * replacement untaints the node, and the next sweep tries again.
 */
class DriftCommandsTest {
    /** Only the 2-vCPU type: consolidation finds nothing cheaper, so whatever happens is drift's doing. */
    final ConsolidationWorld c = new ConsolidationWorld(false);

    void drift(String claim, String reason, Instant at) {
        NodeClaim n = c.claim(claim);
        c.w.store.update(n.withDrift(DriftStamp.launched("p", "gantry-1", "c", "gantry-1").drift(reason, at)));
    }

    NodeClaim initialize(String name) {
        Instant now = c.w.clock.instant();
        NodeClaim launched = c.w.store.update(c.claim(name).launched("i-" + name, "big", "us-east-1a", "on-demand", 0.10, now));
        return c.w.store.update(launched.registered("node-" + name, now).initialized(now));
    }

    @Test
    void aDriftedNodeIsReplacedFirstAndHandedToTheTerminationFlowOnceItsReplacementIsInitialized() {
        c.node("a", 1500);
        c.node("b", 1500);
        drift("a", "AMIDrift", c.w.clock.instant().minusSeconds(60));

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isEqualTo(1);
        assertThat(r.started()).contains("DRIFT").contains("remove node-a").contains("launch [big]");
        assertThat(c.claim("a").consolidation().reason()).isEqualTo("drifted");
        assertThat(c.claim("b").consolidation()).isNull();
        assertThat(c.deliverLast().what()).isEqualTo(What.LAUNCHING);
        assertThat(c.tainted("node-a")).isTrue();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        assertThat(c.claim(replacement).pods()).as("planned with the drifted node's pods").hasSize(1);
        assertThat(c.deliverLast().what()).as("not before the replacement is initialized").isEqualTo(What.WAITING);
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Initialized);

        initialize(replacement);

        assertThat(c.deliverLast().what()).isEqualTo(What.HANDED);
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(c.claim("a").deletionReason()).isEqualTo("drifted");
    }

    @Test
    void theOldestDriftedNodeGoesFirstAndTheNextStartsBesideItWhileTheBudgetAllows() {
        c.node("a", 1500);
        c.node("b", 1500);
        c.node("x", 1500);
        Instant now = c.w.clock.instant();
        drift("a", "NodePoolDrifted", now.minusSeconds(30));
        drift("b", "AMIDrift", now.minusSeconds(90));

        c.service.sweep(List.of());

        assertThat(c.claim("b").consolidation()).isNotNull();
        assertThat(c.claim("a").consolidation()).as("one command per pass").isNull();
        ConsolidationReport next = c.service.sweep(List.of());
        assertThat(next.decided()).as("budget 100%: the next drift command starts beside the first").isEqualTo(1);
        assertThat(c.claim("a").consolidation().command()).isNotEqualTo(c.claim("b").consolidation().command());
    }

    @Test
    void aDriftCommandUnderWayUsesUpTheDriftedBudget() {
        ConsolidationWorld one = new ConsolidationWorld(List.of(ConsolidationWorld.type("big", 2, 0.10)), Duration.ZERO,
                new dev.gantry.core.model.NodePool.Budget("1", java.util.Optional.empty(), java.util.Optional.empty(), List.of()));
        one.node("a", 1500);
        one.node("b", 1500);
        one.node("x", 1500);
        for (String n : List.of("a", "b")) {
            one.w.store.update(one.claim(n).withDrift(DriftStamp.launched("p", "gantry-1", "c", "gantry-1")
                    .drift("AMIDrift", one.w.clock.instant())));
        }
        assertThat(one.service.sweep(List.of()).decided()).isEqualTo(1);

        ConsolidationReport next = one.service.sweep(List.of());

        assertThat(next.decided()).isZero();
        assertThat(next.skipped()).contains("under way");
    }

    @Test
    void noConsolidationStartsBesideADriftCommand() {
        c.node("a", 1500);
        c.node("b", 1500);
        drift("a", "AMIDrift", c.w.clock.instant());
        c.service.sweep(List.of());
        c.node("spare"); // empty now: consolidation would delete it, but not while drift's command is under way

        ConsolidationReport next = c.service.sweep(List.of());

        assertThat(next.decided()).isZero();
        assertThat(c.claim("spare").consolidation()).isNull();
    }

    @Test
    void emptinessGoesBeforeDriftAndAnEmptyDriftedNodeBeforeABusyOne() {
        c.node("busy", 1500);
        c.node("empty");
        c.node("x", 1500);
        Instant now = c.w.clock.instant();
        drift("busy", "AMIDrift", now.minusSeconds(90));
        drift("empty", "AMIDrift", now.minusSeconds(10));

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.started()).contains("remove node-empty");
        assertThat(c.claim("busy").consolidation()).isNull();
    }

    @Test
    void aPoolWhoseDriftedBudgetIsZeroIsNotDrifted() {
        ConsolidationWorld zero = new ConsolidationWorld(List.of(ConsolidationWorld.type("big", 2, 0.10)), Duration.ZERO,
                new dev.gantry.core.model.NodePool.Budget("0", java.util.Optional.empty(), java.util.Optional.empty(),
                        List.of(dev.gantry.core.model.NodePool.Reason.Drifted)));
        zero.node("a", 1500);
        zero.node("b", 1500);
        NodeClaim n = zero.claim("a");
        zero.w.store.update(n.withDrift(DriftStamp.launched("p", "gantry-1", "c", "gantry-1").drift("AMIDrift", zero.w.clock.instant())));

        ConsolidationReport r = zero.service.sweep(List.of());

        assertThat(r.decided()).isZero();
        assertThat(zero.claim("a").consolidation()).isNull();
    }

    @Test
    void aFailedReplacementUntaintsTheNodeAndTheNextSweepTriesAgain() {
        c.node("a", 1500);
        c.node("b", 1500);
        drift("a", "AMIDrift", c.w.clock.instant());
        c.service.sweep(List.of());
        c.deliverLast();
        String replacement = c.claim("a").consolidation().replacements().getFirst();
        c.w.store.update(c.claim(replacement).draining("launch-failed", c.w.clock.instant())
                .terminated(c.w.clock.instant(), Duration.ofHours(1)));

        assertThat(c.deliverLast().what()).isEqualTo(What.ABORTED);
        assertThat(c.tainted("node-a")).isFalse();
        assertThat(c.claim("a").state()).isEqualTo(NodeClaimState.Initialized);

        c.w.clock.advance(Duration.ofMinutes(1));
        ConsolidationReport retry = c.service.sweep(List.of());
        assertThat(retry.decided()).isEqualTo(1);
        assertThat(c.claim("a").consolidation().phase()).isEqualTo(Phase.Validating);
    }

    /** Fails the replacement of the command under way on {@code claim} and delivers the abort. */
    ConsolidationOutcome failReplacement(String claim) {
        c.deliverLast();
        String replacement = c.claim(claim).consolidation().replacements().getFirst();
        c.w.store.update(c.claim(replacement).draining("launch-failed", c.w.clock.instant())
                .terminated(c.w.clock.instant(), Duration.ofHours(1)));
        return c.deliverLast();
    }

    @Test
    void aPoolWhoseReplacementsKeepFailingBacksOffExponentiallyInTheTable() {
        c.node("a", 1500);
        c.node("b", 1500);
        drift("a", "AMIDrift", c.w.clock.instant());
        c.service.sweep(List.of());
        ConsolidationOutcome first = failReplacement("a");
        assertThat(first.detail()).contains("NodePool default backs off drift until");
        assertThat(c.service.sweep(List.of()).decided()).as("backing off for a minute").isZero();
        assertThat(c.w.store.marker("drift-backoff-until/default")).contains(c.w.clock.instant().plus(PoolBackoff.FIRST));

        c.w.clock.advance(PoolBackoff.FIRST);
        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
        failReplacement("a");
        Instant failedAt = c.w.clock.instant();
        assertThat(c.w.store.marker("drift-backoff-until/default")).as("twice the last")
                .contains(failedAt.plus(PoolBackoff.FIRST.multipliedBy(2)));
        c.w.clock.advance(PoolBackoff.FIRST);
        assertThat(c.service.sweep(List.of()).decided()).isZero();
        c.w.clock.advance(PoolBackoff.FIRST);
        assertThat(c.service.sweep(List.of()).decided()).isEqualTo(1);
    }

    @Test
    void aBackOffIsPerPoolCappedAndForgottenAfterAQuietHour() {
        PoolBackoff b = new PoolBackoff(c.w.store, PoolBackoff.DRIFT);
        Instant t = c.w.clock.instant();
        for (int i = 0; i < 10; i++) {
            t = b.failed("gpu", t);
        }
        assertThat(c.w.store.marker("drift-backoff-until/gpu").orElseThrow())
                .isEqualTo(c.w.store.marker("drift-backoff-from/gpu").orElseThrow().plus(PoolBackoff.MAX));
        assertThat(b.at(t.minusSeconds(1)).test("gpu")).isTrue();
        assertThat(b.at(t.minusSeconds(1)).test("general")).as("other pools keep rolling").isFalse();
        Instant later = t.plus(PoolBackoff.FORGET_AFTER);
        assertThat(b.failed("gpu", later)).isEqualTo(later.plus(PoolBackoff.FIRST));
    }

    @Test
    void aNodeNoLongerDriftedAtValidationIsLeftAlone() {
        c.node("a", 1500);
        c.node("b", 1500);
        drift("a", "NodePoolDrifted", c.w.clock.instant());
        c.service.sweep(List.of());
        c.w.store.update(c.claim("a").withDrift(c.claim("a").drift().cleared()));

        ConsolidationOutcome o = c.deliverLast();

        assertThat(o.what()).isEqualTo(What.ABORTED);
        assertThat(o.detail()).contains("no longer drifted");
        assertThat(c.tainted("node-a")).isFalse();
    }

    @Test
    void aDriftCommandIsOfMethodDriftAndCountsAgainstTheDriftedBudget() {
        assertThat(ConsolidationCommand.Method.DRIFT.name()).isEqualTo("DRIFT");
        c.node("a", 1500);
        c.node("b", 1500);
        drift("a", "AMIDrift", c.w.clock.instant());
        c.service.sweep(List.of());
        assertThat(c.claim("a").consolidation().reason()).isEqualTo(CommandStart.DRIFTED);
    }
}
