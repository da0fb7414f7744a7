package dev.gantry.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@link DemandHistoryStore} contract, for the in-memory store and the DynamoDB one on dynalite. */
public abstract class DemandHistoryStoreContract {
    protected static final Instant MONDAY_9 = Instant.parse("2026-11-30T09:00:00Z");
    protected static final long GI = 1L << 30;

    protected DemandHistoryStore store;

    protected abstract DemandHistoryStore newStore();

    @BeforeEach
    void freshStore() {
        store = newStore();
    }

    @Test
    void keepsEachHoursPeakPerResourceWhateverTheOrder() {
        store.record("default", MONDAY_9.plusSeconds(10), Resources.of(4000, 1 * GI));
        store.record("default", MONDAY_9.plusSeconds(20), Resources.of(1000, 8 * GI));
        store.record("default", MONDAY_9.plusSeconds(20), Resources.of(1000, 8 * GI)); // a retried observation
        store.record("default", MONDAY_9.plusSeconds(3600), Resources.of(500, 0));
        store.record("batch", MONDAY_9, Resources.of(7000, 2 * GI));
        assertThat(store.read(MONDAY_9.plusSeconds(7200)).samples()).containsExactly(
                new DemandHistory.Sample("batch", DemandHistory.epochHour(MONDAY_9), 7000, 2 * GI),
                new DemandHistory.Sample("default", DemandHistory.epochHour(MONDAY_9), 4000, 8 * GI),
                new DemandHistory.Sample("default", DemandHistory.epochHour(MONDAY_9) + 1, 500, 0));
    }

    @Test
    void concurrentRecordingsOfOneHourKeepTheLargest() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 1; i <= 12; i++) {
                long cpu = i * 1000L;
                done.add(pool.submit(() -> store.record("default", MONDAY_9, Resources.of(cpu, (13 - cpu / 1000) * GI))));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.read(MONDAY_9).samples()).containsExactly(
                new DemandHistory.Sample("default", DemandHistory.epochHour(MONDAY_9), 12_000, 12 * GI));
    }

    @Test
    void samplesOlderThanTheConsultedWeeksAreNotReturned() {
        store.record("default", MONDAY_9.minus(Duration.ofDays(7L * DemandHistory.WEEKS + 1)), Resources.of(9000, 0));
        store.record("default", MONDAY_9.minus(Duration.ofDays(7)), Resources.of(3000, 0));
        DemandHistory h = store.read(MONDAY_9);
        assertThat(h.samples()).extracting(DemandHistory.Sample::cpuMillis).containsExactly(3000L);
        assertThat(h.quantile("default", MONDAY_9, 1.0).cpuMillis()).isEqualTo(3000);
    }
}
