package dev.gantry.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** aws {@code pkg/providers/capacityreservation/types.go} availabilityCache, and the launch filters' preferences. */
class ReservationLedgerTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    private static CapacityReservation r(String id, String type, boolean interruptible, int available) {
        return new CapacityReservation(id, "m5.large", "us-east-1a", "123456789012", "targeted", type, interruptible,
                type.equals("capacity-block") ? NOW.plus(Duration.ofHours(5)) : null, available);
    }

    /** A batch of launches never takes more than the count: the third of two slots gets nothing. */
    @Test
    void takesNeverMoreThanTheCount() {
        ReservationLedger ledger = new ReservationLedger();
        ledger.sync(List.of(r("cr-0000000000000000a", "default", false, 2)), NOW);

        assertThat(ledger.take("m5.large", "us-east-1a", NOW)).isPresent();
        assertThat(ledger.take("m5.large", "us-east-1a", NOW)).isPresent();
        assertThat(ledger.take("m5.large", "us-east-1a", NOW)).isEmpty();
        assertThat(ledger.take("m5.large", "us-east-1b", NOW)).as("another zone").isEmpty();
    }

    /** Two overlapping runs racing for the last slot: exactly one gets it. */
    @Test
    void concurrentLaunchesNeverBothTakeTheLastSlot() throws Exception {
        ReservationLedger ledger = new ReservationLedger();
        ledger.sync(List.of(r("cr-0000000000000000a", "default", false, 5)), NOW);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Optional<CapacityReservation>> got = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 64; i++) {
            pool.submit(() -> {
                go.await();
                return got.add(ledger.take("m5.large", "us-east-1a", NOW));
            });
        }
        go.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        assertThat(got).hasSize(64);
        assertThat(got.stream().filter(Optional::isPresent).count()).isEqualTo(5);
        assertThat(ledger.available("cr-0000000000000000a")).isZero();
    }

    /** aws filter.go CapacityReservationTypeFilter: ODCR, then Capacity Block, then interruptible ODCR. */
    @Test
    void prefersAnOdcrThenACapacityBlockThenAnInterruptibleOne() {
        ReservationLedger ledger = new ReservationLedger();
        ledger.sync(List.of(r("cr-0000000000000000c", "default", true, 9), r("cr-0000000000000000b", "capacity-block", false, 9),
                r("cr-0000000000000000a", "default", false, 1)), NOW);

        assertThat(ledger.take("m5.large", "us-east-1a", NOW)).get().extracting(CapacityReservation::id).isEqualTo("cr-0000000000000000a");
        assertThat(ledger.take("m5.large", "us-east-1a", NOW)).get().extracting(CapacityReservation::id).isEqualTo("cr-0000000000000000b");
    }

    /** An expiring Capacity Block takes no launch (aws reserved_capacity_resolver.go: not Available when expiring). */
    @Test
    void anExpiringBlockTakesNoLaunch() {
        ReservationLedger ledger = new ReservationLedger();
        ledger.sync(List.of(r("cr-0000000000000000b", "capacity-block", false, 9)), NOW);

        assertThat(ledger.take("m5.large", "us-east-1a", NOW.plus(Duration.ofHours(5)).minus(Duration.ofMinutes(40)))).isEmpty();
    }

    /** types.go MarkLaunched/MarkTerminated/MarkUnavailable. */
    @Test
    void launchesAfterTheSyncCountTerminationsFreeAndAFullAnswerEmpties() {
        ReservationLedger ledger = new ReservationLedger();
        ledger.sync(List.of(r("cr-0000000000000000a", "default", false, 3)), NOW);

        ledger.launched("cr-0000000000000000a", NOW.minusSeconds(5)); // before the sync: already in EC2's count
        ledger.launched("cr-0000000000000000a", NOW.plusSeconds(5));
        assertThat(ledger.available("cr-0000000000000000a")).isEqualTo(2);
        ledger.release("cr-0000000000000000a");
        assertThat(ledger.available("cr-0000000000000000a")).isEqualTo(3);
        ledger.markUnavailable("cr-0000000000000000a");
        assertThat(ledger.available("cr-0000000000000000a")).isZero();
        assertThat(ledger.available("cr-unknown")).isZero();
    }
}
