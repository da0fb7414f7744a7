package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.disruption.consolidation.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class NodeEventsTest {
    private static final Instant T0 = Instant.parse("2025-06-01T00:00:00Z");

    private static List<Verdict> verdicts(int nodes, String reason) {
        return IntStream.range(0, nodes).mapToObj(i -> new Verdict("node-" + i, Verdict.Kind.DisruptionBlocked, reason)).toList();
    }

    @Test
    void aSweepRecordsAtMostAHundredEventsAndTheNextSweepRecordsThoseLeftFirst() {
        // Regression (#11 §7, the scale storm): 1,000 nodes whose verdicts changed made one sweep record 870 events,
        // 30 s of its 50 s timeout.
        InMemoryCluster cluster = new InMemoryCluster();
        NodeEvents events = new NodeEvents(cluster, Duration.ofMinutes(10));

        assertThat(events.record(verdicts(150, "pdb prevents pod evictions"), T0)).isEqualTo(NodeEvents.MAX_PER_RUN);
        assertThat(cluster.events()).hasSize(100);

        List<Verdict> changed = verdicts(150, "budget allows no more disruptions now");
        assertThat(events.record(changed, T0.plusSeconds(60))).isEqualTo(100);
        assertThat(cluster.events().subList(100, 150)).as("the 50 never recorded go first")
                .allSatisfy(e -> assertThat(e).containsPattern("node-1[0-4][0-9]"));
        assertThat(events.record(changed, T0.plusSeconds(120))).as("then the rest of the changed ones").isEqualTo(50);
        assertThat(events.record(changed, T0.plusSeconds(180))).as("nothing new or due").isZero();
    }
}
