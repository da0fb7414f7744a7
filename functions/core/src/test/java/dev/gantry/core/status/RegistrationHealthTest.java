package dev.gantry.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The evaluations in kubernetes-sigs/karpenter {@code designs/noderegistrationhealthy-status-condition.md} and
 * {@code pkg/state/nodepoolhealth/tracker.go} (a buffer of 4, unhealthy at half), replayed from the condition as
 * written, as Karpenter re-hydrates its buffer after a restart.
 */
class RegistrationHealthTest {
    static final Instant T0 = Instant.parse("2026-04-01T12:00:00Z");
    final List<NodeClaim> claims = new ArrayList<>();
    Condition condition = RegistrationHealth.of(Optional.empty(), 3, false, List.of(), T0);

    /** One outcome {@code seconds} after T0, then a sweep just after it, from the condition the last one wrote. */
    Condition.Status then(boolean success, long seconds) {
        Instant at = T0.plusSeconds(seconds);
        NodeClaim c = NodeClaim.launching("c" + claims.size(), "general", "h", List.of(), List.of("m5.large"), List.of(),
                "m5.large", "us-east-1a", "on-demand", 0.1, at.minusSeconds(30));
        claims.add(success ? c.launched("i-" + claims.size(), "m5.large", "us-east-1a", "on-demand", 0.1, at.minusSeconds(20))
                .registered("node-" + claims.size(), at)
                : c.draining(NodeClaim.launchRefused("UnauthorizedOperation: CreateFleet: not authorized"), at)
                .terminated(at, Duration.ofHours(1)));
        condition = RegistrationHealth.of(Optional.of(condition), 3, false, claims, at.plusSeconds(5));
        return condition.status();
    }

    @Test
    void aNewPoolIsUnknownAwaitingReconciliationAtItsGeneration() {
        assertThat(condition.status()).isEqualTo(Condition.Status.Unknown);
        assertThat(condition.reason()).isEqualTo("AwaitingReconciliation");
        assertThat(condition.observedGeneration()).isEqualTo(3);
    }

    @Test
    void aFirstSuccessIsTrue() {
        assertThat(then(true, 10)).isEqualTo(Condition.Status.True);
    }

    @Test
    void oneFailureThenASuccessIsTrue() {
        assertThat(then(false, 10)).isEqualTo(Condition.Status.Unknown);
        assertThat(then(true, 20)).isEqualTo(Condition.Status.True);
    }

    @Test
    void twoFailuresAreFalseWithTheLastOnesWords() {
        then(false, 10);
        assertThat(then(false, 20)).isEqualTo(Condition.Status.False);
        assertThat(condition.reason()).isEqualTo("LaunchFailed");
        assertThat(condition.message()).isEqualTo("UnauthorizedOperation: CreateFleet: not authorized");
        assertThat(condition.lastTransitionTime()).isEqualTo(T0.plusSeconds(20));
    }

    @Test
    void aFailureASuccessAndAFailureAreFalse() {
        then(false, 10);
        assertThat(then(true, 20)).isEqualTo(Condition.Status.True);
        assertThat(then(false, 30)).as("[F, T, F]: half of four").isEqualTo(Condition.Status.False);
    }

    @Test
    void afterFalseItTakesThreeSuccessesToBeTrueAgain() {
        then(false, 10);
        then(false, 20);
        assertThat(then(true, 30)).isEqualTo(Condition.Status.False);
        assertThat(then(true, 40)).isEqualTo(Condition.Status.False);
        assertThat(then(true, 50)).isEqualTo(Condition.Status.True);
    }

    @Test
    void oneFailureAmongSuccessesLeavesItTrue() {
        then(true, 10);
        assertThat(then(false, 20)).isEqualTo(Condition.Status.True);
        assertThat(then(true, 30)).isEqualTo(Condition.Status.True);
    }

    @Test
    void theSameOutcomesReplayedInALaterSweepChangeNothing() {
        then(false, 10);
        then(false, 20);
        Condition once = condition;
        assertThat(RegistrationHealth.of(Optional.of(once), 3, false, claims, T0.plusSeconds(600))).isEqualTo(once);
    }

    @Test
    void aLaunchOutOfCapacityIsNoOutcome() {
        claims.add(NodeClaim.launching("ice", "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "spot", 0.1, T0).draining("launch-failed", T0.plusSeconds(10)).terminated(T0.plusSeconds(10), Duration.ofHours(1)));
        assertThat(RegistrationHealth.outcomes(claims)).isEmpty();
    }

    @Test
    void aNodeThatNeverRegisteredIsARegistrationFailure() {
        claims.add(NodeClaim.launching("late", "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "on-demand", 0.1, T0).launched("i-late", "m5.large", "us-east-1a", "on-demand", 0.1, T0)
                .draining(NodeClaim.REGISTRATION_TIMEOUT, T0.plusSeconds(900)));
        assertThat(RegistrationHealth.outcomes(claims)).singleElement().satisfies(o -> {
            assertThat(o.failure().reason()).isEqualTo("RegistrationFailed");
            assertThat(o.failure().message()).isEqualTo("Failed to register node");
        });
    }

    @Test
    void aNewGenerationOrAChangedClassStartsOverAtUnknown() {
        then(false, 10);
        then(false, 20);
        assertThat(RegistrationHealth.of(Optional.of(condition), 4, false, claims, T0.plusSeconds(60)).status())
                .isEqualTo(Condition.Status.Unknown);
        Condition restarted = RegistrationHealth.of(Optional.of(condition), 3, true, claims, T0.plusSeconds(60));
        assertThat(restarted.status()).isEqualTo(Condition.Status.Unknown);
        assertThat(RegistrationHealth.of(Optional.of(restarted), 3, false, claims, T0.plusSeconds(120)))
                .as("failures from before the change no longer count").isEqualTo(restarted);
    }
}
