package dev.gantry.core.termination;

import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code DisruptionTerminating} when a disruption method hands a claim to the termination flow, and only then. */
class DisruptionEventsTest {
    private final LifecycleWorld w = new LifecycleWorld(poolWith("default", null, Optional.empty(), Optional.empty(), Map.of()));

    @Test
    void anExpiredNodeAndItsNodeClaimSayTheyAreBeingDisruptedInKarpentersWords() {
        w.addNode("a", "default");

        w.termination.start("a", TerminationStart.because("expired").with(TerminationStart.FirstSlice.QUEUED));

        assertThat(w.cluster.events()).contains("Node/node-a Normal DisruptionTerminating: Disrupting Node: Expired",
                "NodeClaim/a Normal DisruptionTerminating: Disrupting NodeClaim: Expired");
    }

    @Test
    void aStartForAClaimAlreadyDeletingSaysNothingAgain() {
        w.addNode("a", "default");
        w.termination.start("a", TerminationStart.because("underutilized").with(TerminationStart.FirstSlice.QUEUED));

        w.termination.start("a", TerminationStart.because("underutilized").with(TerminationStart.FirstSlice.QUEUED));

        assertThat(w.cluster.events()).filteredOn(e -> e.contains("DisruptionTerminating")).hasSize(2);
    }

    @Test
    void anInterruptionOrAKubectlDeleteIsNotADisruptionMethodsDecision() {
        w.addNode("a", "default");
        w.addNode("b", "default");

        w.termination.start("a", TerminationStart.because("interruption").with(TerminationStart.FirstSlice.QUEUED));
        w.termination.start("b", TerminationStart.because("deleted").with(TerminationStart.FirstSlice.QUEUED));

        assertThat(w.cluster.events()).noneMatch(e -> e.contains("DisruptionTerminating"));
    }
}
