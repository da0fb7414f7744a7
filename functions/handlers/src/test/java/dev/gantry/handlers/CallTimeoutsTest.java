package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.deployment.CallTimeouts;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.kube.KubeClients;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallTimeoutsTest {
    @Test
    void theKubeBudgetTheSimulatorModelsIsTheOneTheFabric8ClientIsBuiltWith() {
        CallTimeouts.Budget kube = CallTimeouts.DEFAULT.kube();
        assertThat(kube.connect()).isEqualTo(Duration.ofMillis(KubeClients.CONNECT_TIMEOUT_MS));
        assertThat(kube.attempt()).isEqualTo(Duration.ofMillis(KubeClients.REQUEST_TIMEOUT_MS));
        assertThat(kube.attempts()).isEqualTo(KubeClients.RETRY_BACKOFF_LIMIT + 1);
        assertThat(kube.call()).isGreaterThanOrEqualTo(kube.attempt().multipliedBy(kube.attempts())
                .plusMillis((long) KubeClients.RETRY_BACKOFF_INTERVAL_MS * KubeClients.RETRY_BACKOFF_LIMIT));
    }

    @Test
    void everyLifecycleCallGivesUpWellInsideTheShortestLifecycleFunctionTimeout() {
        Duration shortest = DeploymentSettings.DEFAULT.function("interruption").timeout();
        CallTimeouts t = CallTimeouts.DEFAULT;
        for (CallTimeouts.Budget b : List.of(t.ec2(), t.ssm(), t.dynamodb(), t.sqs(), t.kube())) {
            assertThat(b.call()).as(b.toString()).isLessThan(shortest);
        }
    }
}
