package dev.gantry.config.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeploymentSettingsTest {
    private static final DeploymentSettings D = DeploymentSettings.DEFAULT;

    @Test
    void everyQueueKeepsAFailingMessageLongEnoughToDeadLetterIt() {
        assertThat(D.queues()).hasSize(3).allSatisfy(q -> assertThat(q.retention())
                .as(q.name())
                .isGreaterThanOrEqualTo(q.deliveryDelay().plus(q.visibility().multipliedBy(q.maxReceiveCount()))
                        .plus(DeploymentSettings.DEAD_LETTER_MARGIN)));
    }

    @Test
    void everyQueuesVisibilityIsAtLeastSixTimesItsConsumersTimeoutAndNeverShorterThanIt() {
        for (QueueSettings q : D.queues()) {
            Duration timeout = D.function(q.consumer()).timeout();
            assertThat(q.visibility()).as(q.name()).isGreaterThanOrEqualTo(timeout.multipliedBy(6)
                    .plus(q.eventSource().maxBatchingWindow())).isGreaterThanOrEqualTo(timeout);
        }
    }

    @Test
    void deadLettersOutliveTheirSourceQueuesMessages() {
        assertThat(D.queues()).allSatisfy(q -> assertThat(q.deadLetterRetention()).isGreaterThanOrEqualTo(q.retention()));
    }

    @Test
    void theDefaultsBreakNoRule() {
        assertThat(D.violations()).isEmpty();
    }

    @Test
    void regressionTheFiveMinuteInterruptionRetentionLostFailingMessagesBeforeTheirThirdReceive() {
        QueueSettings old = D.interruptionQueue();
        QueueSettings fiveMinutes = new QueueSettings(old.name(), old.fifo(), old.visibility(), Duration.ofMinutes(5),
                old.deliveryDelay(), old.maxReceiveCount(), old.deadLetterRetention(), old.consumer(), old.eventSource());
        DeploymentSettings bad = new DeploymentSettings(List.of(D.provisioningQueue(), fiveMinutes, D.terminationQueue()),
                D.functions(), D.sweepRate());

        assertThat(bad.violations()).singleElement().asString()
                .startsWith("interruption: retention PT5M is shorter than")
                .contains("PT20M");
    }

    @Test
    void aConsumerTooSlowForItsVisibilityIsReported() {
        DeploymentSettings slow = D.with(new FunctionSettings("termination", 512, Duration.ofMinutes(2), null));
        assertThat(slow.violations()).singleElement().asString().startsWith("termination: visibility PT6M is under");
    }

    @Test
    void oneProvisionerAndOneSweepAtATimeByConstruction() {
        assertThat(D.function("provisioner").reservedConcurrency()).isEqualTo(1);
        assertThat(D.function("sweep").reservedConcurrency()).isEqualTo(1);
        assertThat(D.provisioningQueue().fifo()).isTrue();
    }

    @Test
    void theHintBucketIsTheProvisioningDelaySoCollapsedHintsAreReadAfterTheirEvents() {
        assertThat(D.hintDeduplicationBucket()).isEqualTo(D.provisioningQueue().deliveryDelay())
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void sweepRateUnderAMinuteIsReported() {
        assertThat(D.withSweepRate(Duration.ofSeconds(30)).violations()).containsExactly(
                "sweepRate must be at least 1 minute (EventBridge's finest rate)");
    }

    @Test
    void lookupsNameWhatIsMissing() {
        assertThatThrownBy(() -> D.function("nope")).hasMessage("no function named nope");
        assertThatThrownBy(() -> new EventSourceSettings(10, Duration.ZERO, 1)).hasMessageContaining("2 to 1000");
    }

    @Test
    void consolidationDefaultsToKarpentersFeatureGateOffAndGantrysEngine() {
        assertThat(D.consolidation()).isEqualTo(new dev.gantry.core.disruption.consolidation.ConsolidationSettings(false,
                dev.gantry.core.disruption.consolidation.ConsolidationSettings.Strategy.GANTRY));
        assertThat(D.withSweepRate(Duration.ofMinutes(2)).consolidation()).isEqualTo(D.consolidation());
    }
}
