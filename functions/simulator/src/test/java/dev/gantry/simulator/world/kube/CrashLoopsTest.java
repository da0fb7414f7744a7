package dev.gantry.simulator.world.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated kubelet's restarts of a crash-looping pod: 5 s runs, a back-off of 10 s doubled to at most 5 min. */
class CrashLoopsTest {
    static CrashLoops.State at(long seconds) {
        return CrashLoops.at(Duration.ofSeconds(seconds));
    }

    @Test
    void aPodRunsExitsWaitsInBackOffAndRestartsWithADoublingBackOff() {
        assertThat(at(0)).isEqualTo(new CrashLoops.State(0, false));
        assertThat(at(5)).isEqualTo(new CrashLoops.State(0, true)); // exited, 10 s back-off
        assertThat(at(15)).isEqualTo(new CrashLoops.State(1, false)); // restarted
        assertThat(at(20)).isEqualTo(new CrashLoops.State(1, true)); // 20 s back-off
        assertThat(at(40)).isEqualTo(new CrashLoops.State(2, false));
        assertThat(at(85)).isEqualTo(new CrashLoops.State(3, false)); // after 40 s more
    }

    @Test
    void theBackOffStopsGrowingAtFiveMinutes() {
        // restarts at 15, 40, 85, 170, 335, 640 (5 min back-off from the sixth on), 945, ...
        assertThat(at(639).restarts()).isEqualTo(5);
        assertThat(at(640).restarts()).isEqualTo(6);
        assertThat(at(945).restarts()).isEqualTo(7);
        assertThat(at(3600).restarts()).isEqualTo(15);
    }
}
