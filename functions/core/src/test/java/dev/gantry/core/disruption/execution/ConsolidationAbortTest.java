package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The abort lines are read by people and compared by the simulator's summaries: each reason keeps its exact text. */
class ConsolidationAbortTest {
    @Test
    void everyReasonTellsItsLine() {
        assertThat(ConsolidationAbort.candidateDeleting("a").text()).isEqualTo("candidate nodeclaim/a is being deleted");
        assertThat(ConsolidationAbort.candidateChanged("b").text()).isEqualTo("candidate nodeclaim/b changed");
        assertThat(ConsolidationAbort.timedOut().text()).isEqualTo("not over within 15m of its validation");
        assertThat(ConsolidationAbort.buffersUnreadable(new IllegalStateException("x")).text())
                .isEqualTo("validation failed: the buffers could not be read (IllegalStateException)");
        assertThat(ConsolidationAbort.noLongerWorthIt().text())
                .isEqualTo("validation failed: no longer worth it (pods or budgets changed)");
        assertThat(ConsolidationAbort.otherNodes(List.of("node-a", "node-b")).text())
                .isEqualTo("validation failed: other nodes would go now: [node-a, node-b]");
        assertThat(ConsolidationAbort.costlier(0.12345, 0.1).text()).isEqualTo(
                String.format("validation failed: the replacement now costs $%.4f/h, more than the planned $%.4f/h", 0.12345, 0.1));
        assertThat(ConsolidationAbort.replacementsLate().text()).isEqualTo("replacements not initialized within 10m");
    }

    @Test
    void aFailedReplacementNamesItsDeletionReasonAfterTheVerb() {
        assertThat(ConsolidationAbort.replacementFailed("c-1-r0", Optional.empty()).text())
                .isEqualTo("replacement nodeclaim/c-1-r0 failed");
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        NodeClaim gone = NodeClaim.launching("c-1-r0", "default", null, List.of(), List.of(), List.of(), "m5.large",
                "us-east-1a", "on-demand", 0, t0).draining("launch-failed", t0);
        assertThat(ConsolidationAbort.replacementFailed("c-1-r0", Optional.of(gone)).text())
                .isEqualTo("replacement nodeclaim/c-1-r0 failed (launch-failed)");
        assertThat(ConsolidationAbort.replacementFailed("c-1-r0", Optional.of(gone)).reason())
                .isEqualTo(ConsolidationAbort.Reason.REPLACEMENT_FAILED);
    }
}
