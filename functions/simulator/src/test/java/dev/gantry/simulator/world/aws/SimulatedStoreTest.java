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
     * The offerings Query reads the marks still running, as the adapter's key range does (from now on): while a whole
     * market is marked, every run pays for the marks; once they have run out, nothing, though the items wait up to two
     * days for TTL deletion. An offering marked twice is two items until the first runs out.
     */
    @Test
    void onlyTheMarksStillRunningAreReadAndPaidFor() {
        SimulatedStore store = new SimulatedStore(truth, clock::instant, new Faults(FaultPlan.NONE, 1));
        dev.gantry.simulator.bill.SelfUsage usage = new dev.gantry.simulator.bill.SelfUsage();
        store.meter(usage);
        for (int i = 0; i < 400; i++) {
            store.markUnavailable(new dev.gantry.core.catalog.OfferingKey("t" + i, "us-east-1a", "spot"),
                    clock.instant().plus(Duration.ofMinutes(3)));
        }
        double before = usage.readUnits();
        assertThat(store.unavailableOfferings(clock.instant())).hasSize(400);
        double running = usage.readUnits() - before;
        assertThat(running).as("400 running marks read").isGreaterThan(10);
        clock.advance(Duration.ofMinutes(10));
        before = usage.readUnits();
        assertThat(store.unavailableOfferings(clock.instant())).isEmpty();
        assertThat(usage.readUnits() - before).as("run out: not read").isLessThan(1.01);
    }
}
