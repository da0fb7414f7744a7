package dev.gantry.core.termination;

import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code DisruptionTerminating} when the flow of a claim a disruption method handed over begins, and only then. */
class DisruptionEventsTest {
    private final LifecycleWorld w = new LifecycleWorld(poolWith("default", null, Optional.empty(), Optional.empty(), Map.of()));

    @Test
    void anExpiredNodeAndItsNodeClaimSayTheyAreBeingDisruptedInKarpentersWords() {
        w.addNode("a", "default");

        w.termination.start("a", TerminationStart.because("expired").with(TerminationStart.FirstSlice.QUEUED));
        assertThat(w.cluster.events()).as("not in the deciding sweep's time").isEmpty();
        w.continueLast();

        assertThat(w.cluster.events()).contains("Node/node-a Normal DisruptionTerminating: Disrupting Node: Expired",
                "NodeClaim/a Normal DisruptionTerminating: Disrupting NodeClaim: Expired");
    }

    @Test
    void aStartForAClaimAlreadyDeletingSaysNothingAgain() {
        w.addNode("a", "default");
        w.termination.start("a", TerminationStart.because("underutilized"));

        w.termination.start("a", TerminationStart.because("underutilized"));
        w.continueLast();

        assertThat(w.cluster.events()).filteredOn(e -> e.contains("DisruptionTerminating")).hasSize(2);
    }

    @Test
    void anInterruptionOrAKubectlDeleteIsNotADisruptionMethodsDecision() {
        w.addNode("a", "default");
        w.addNode("b", "default");

        w.termination.start("a", TerminationStart.because("interruption"));
        w.termination.start("b", TerminationStart.because("deleted"));

        assertThat(w.cluster.events()).noneMatch(e -> e.contains("DisruptionTerminating"));
    }
}
