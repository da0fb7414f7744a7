package dev.gantry.simulator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.deployment.DeploymentSettings;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LambdaContextTest {
    private final VirtualClock clock = new VirtualClock(Instant.parse("2025-06-01T00:00:00Z"));

    @Test
    void theRemainingTimeRunsDownFromTheDeployedTimeoutOnTheVirtualClockAndStopsAtZero() {
        LambdaContext c = new LambdaContext(DeploymentSettings.DEFAULT.function("termination"), "us-east-1", clock, 1);
        assertThat(c.getRemainingTimeInMillis()).isEqualTo(60_000);
        clock.advance(Duration.ofSeconds(45));
        assertThat(c.getRemainingTimeInMillis()).isEqualTo(15_000);
        clock.advance(Duration.ofSeconds(20));
        assertThat(c.getRemainingTimeInMillis()).isZero();
        assertThat(c.getMemoryLimitInMB()).isEqualTo(512);
        assertThat(c.getInvokedFunctionArn()).isEqualTo("arn:aws:lambda:us-east-1:111122223333:function:gantry-termination");
    }
}
