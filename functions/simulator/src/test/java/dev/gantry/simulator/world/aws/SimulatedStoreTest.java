package dev.gantry.simulator.world.aws;

import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.runtime.VirtualClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DynamoDB as the store adapter sees it: throttling after the SDK's retries, lost conditional answers, GSI lag. */
class SimulatedStoreTest {
    private final VirtualClock clock = new VirtualClock(Instant.parse("2025-06-01T00:00:00Z"));
    private final InMemoryNodeClaimStore truth = new InMemoryNodeClaimStore();

    private static FaultPlan plan(double throttle, double conflict, Duration indexLag) {
        return FaultPlan.NONE.withDynamo(FaultPlan.Dynamo.NONE.withThrottle(throttle).withConflict(conflict)
                .withIndexLag(indexLag));
    }

    private NodeClaim launching(String name) {
        return NodeClaim.launching(name, "pool", "hash", List.of(), List.of("m5.large"), List.of("default/p"), "m5.large",
                "us-east-1a", "on-demand", 0.1, clock.instant());
    }

    @Test
    void theInstanceIdIndexShowsAWriteOnlyAfterItsLag() {
        SimulatedStore store = new SimulatedStore(truth, clock::instant, new Faults(plan(0, 0, Duration.ofSeconds(2)), 1));
        NodeClaim c = store.create(launching("a"));
        store.update(c.launched("i-1", "m5.large", "us-east-1a", "on-demand", 0.1, clock.instant()));
        clock.advance(Duration.ofSeconds(1));
        assertThat(store.findByInstanceId("i-1", clock.instant())).isEmpty();
        assertThat(store.get("a", clock.instant())).map(NodeClaim::instanceId).contains("i-1"); // the table is consistent
        clock.advance(Duration.ofSeconds(1));
        assertThat(store.findByInstanceId("i-1", clock.instant())).map(NodeClaim::state).contains(NodeClaimState.Launched);
    }

    @Test
    void aConditionalWriteWhoseAnswerWasLostTookEffectButReportsAConflict() {
        SimulatedStore store = new SimulatedStore(truth, clock::instant, new Faults(plan(0, 1, Duration.ZERO), 1));
        assertThatThrownBy(() -> store.create(launching("a"))).isInstanceOf(NodeClaimStore.Conflict.class);
        assertThat(truth.get("a", clock.instant())).isPresent();
        assertThat(store.lostAnswers).isEqualTo(1);
    }

    @Test
    void throttlingSurfacesOnlyWhenEverySdkAttemptIsThrottled() {
        Faults f = new Faults(plan(1, 0, Duration.ZERO), 1);
        SimulatedStore store = new SimulatedStore(truth, clock::instant, f);
        assertThatThrownBy(() -> store.list(clock.instant())).isInstanceOf(SimulatedStore.Throttled.class)
                .hasMessageStartingWith("ProvisionedThroughputExceededException");
        assertThat(f.injected()).containsEntry("dynamoThrottle", (long) SimulatedStore.SDK_ATTEMPTS);
        assertThat(store.throttled).isEqualTo(1);
    }

    /**
     * The offerings Query reads the marks that ran out too, until TTL deletes them: a whole market marked during an ICE
     * is paid for by every run for up to two days, not only while the marks hold.
     */
    @Test
    void marksThatRanOutAreStillReadAndPaidForUntilTtlDeletesThem() {
        SimulatedStore store = new SimulatedStore(truth, clock::instant, new Faults(FaultPlan.NONE, 1));
        dev.gantry.simulator.bill.SelfUsage usage = new dev.gantry.simulator.bill.SelfUsage();
        store.meter(usage);
        for (int i = 0; i < 400; i++) {
            store.markUnavailable(new dev.gantry.core.catalog.OfferingKey("t" + i, "us-east-1a", "spot"),
                    clock.instant().plus(Duration.ofMinutes(3)));
        }
        clock.advance(Duration.ofMinutes(10));
        double before = usage.readUnits();
        assertThat(store.unavailableOfferings(clock.instant())).isEmpty();
        double read = usage.readUnits() - before;
        assertThat(read).as("400 expired marks read").isGreaterThan(10);
        clock.advance(SimulatedStore.TTL_DELETION);
        before = usage.readUnits();
        store.unavailableOfferings(clock.instant());
        assertThat(usage.readUnits() - before).as("deleted by TTL").isLessThan(read);
    }
}
