package dev.gantry.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.simulator.observe.Recorder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The summary's drift section counts the rollout from the change that drifted the nodes: the last release or apply at
 * or before the first drift mark, not an earlier change that drifted nothing, nor a later release.
 */
class DriftRolloutTest {
    static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

    static Instant at(long s) {
        return T0.plusSeconds(s);
    }

    @Test
    void anEarlierApplyThatDriftedNothingDoesNotStartTheClock() {
        Recorder r = new Recorder(T0);
        r.log(at(300), "scenario", "apply NodePool/general"); // limits raised: behavioural, drifts nothing
        r.log(at(1200), "scenario", "apply NodePool/general"); // a template label: drifts every node
        r.log(at(1260), "drift", DriftRollout.marked("general-a", "NodePoolDrifted"));
        r.log(at(1500), "terminate", "general@i-1 (drifted: NodePoolDrifted)");
        r.log(at(1800), "terminate", "general@i-2 (drifted: NodePoolDrifted)");
        ObjectNode d = DriftRollout.of(r).orElseThrow();
        assertThat(d.get("releaseAtSeconds").asLong()).isEqualTo(1200);
        assertThat(d.get("rolloutSeconds").asLong()).isEqualTo(600);
        assertThat(d.get("driftedTerminated").asInt()).isEqualTo(2);
    }

    @Test
    void aReleaseAfterAClassEditDoesNotRestartTheClock() {
        Recorder r = new Recorder(T0);
        r.log(at(600), "scenario", "apply EC2NodeClass/default");
        r.log(at(660), "drift", DriftRollout.marked("general-a", "NodeClassDrift"));
        r.log(at(2000), "terminate", "general@i-1 (drifted: NodeClassDrift)");
        r.log(at(2400), "scenario", "AMI release: al2023@latest is now ami-2");
        r.log(at(2600), "terminate", "general@i-2 (drifted: NodeClassDrift)");
        ObjectNode d = DriftRollout.of(r).orElseThrow();
        assertThat(d.get("cause").asText()).isEqualTo("apply EC2NodeClass/default");
        assertThat(d.get("rolloutSeconds").asLong()).isEqualTo(2000);
    }

    @Test
    void withoutMarksTheFirstReleaseStartsTheClock() {
        Recorder r = new Recorder(T0);
        r.log(at(300), "scenario", "apply NodePool/general");
        r.log(at(900), "scenario", "AMI release: al2023@latest is now ami-2");
        r.log(at(1500), "terminate", "general@i-1 (drifted: AMIDrift)");
        ObjectNode d = DriftRollout.of(r).orElseThrow();
        assertThat(d.get("releaseAtSeconds").asLong()).isEqualTo(900);
        assertThat(d.get("rolloutSeconds").asLong()).isEqualTo(600);
    }
}
