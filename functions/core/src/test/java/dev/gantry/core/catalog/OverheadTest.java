package dev.gantry.core.catalog;

import static dev.gantry.core.catalog.Fixtures.GI;
import static dev.gantry.core.catalog.Fixtures.MI;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OverheadTest {

    @ParameterizedTest(name = "{0}m of CPU reserves {1}m")
    @CsvSource({
            "500, 30",     // half the first core at 6%
            "1000, 60",    // 6% of the first core
            "2000, 70",    // + 1% of the second
            "3000, 75",    // + 0.5% of the third
            "4000, 80",    // + 0.5% of the fourth
            "8000, 90",    // + 0.25% of four more
            "96000, 310",  // 80 + 0.25% of 92 cores
            "192000, 550"})
    void reservesCpuInKarpentersTiers(long cpuMillis, long reserved) {
        assertThat(Overhead.kubeReservedCpuMillis(cpuMillis)).isEqualTo(reserved);
    }

    @Test
    void truncatesEachTierToWholeMillicores() {
        // 1500m: 60 + int(500 × 0.01) = 65; 4010m: 80 + int(10 × 0.0025) = 80.
        assertThat(Overhead.kubeReservedCpuMillis(1500)).isEqualTo(65);
        assertThat(Overhead.kubeReservedCpuMillis(4010)).isEqualTo(80);
    }

    @Test
    void reservesElevenMebibytesPerPodPlus255() {
        assertThat(Overhead.kubeReservedMemoryBytes(29)).isEqualTo((11 * 29 + 255) * MI);
        assertThat(Overhead.kubeReservedMemoryBytes(110)).isEqualTo(1465 * MI);
    }

    @Test
    void defaultKubeReservedIncludesOneGibibyteOfEphemeralStorage() {
        var r = Overhead.kubeReserved(2000, 29, Map.of());
        assertThat(r.cpuMillis()).isEqualTo(70);
        assertThat(r.memoryBytes()).isEqualTo(574 * MI);
        assertThat(r.ephemeralBytes()).isEqualTo(GI);
    }

    @Test
    void kubeletKubeReservedReplacesOnlyTheKeysItNames() {
        var r = Overhead.kubeReserved(2000, 29, Map.of("cpu", Quantity.parse("250m"), "pid", Quantity.parse("1000")));
        assertThat(r.cpuMillis()).isEqualTo(250);
        assertThat(r.memoryBytes()).isEqualTo(574 * MI);
        assertThat(r.extended()).isEmpty();
    }

    @Test
    void systemReservedIsNothingByDefault() {
        assertThat(Overhead.systemReserved(Map.of()).isZero()).isTrue();
        assertThat(Overhead.systemReserved(Map.of("memory", Quantity.parse("200Mi"))).memoryBytes()).isEqualTo(200 * MI);
    }

    @Test
    void defaultEvictionIs100MiOfMemoryAndTenPercentOfNodefs() {
        var e = Overhead.evictionThreshold(7000 * MI, 20 * GI, Map.of());
        assertThat(e.memoryBytes()).isEqualTo(100 * MI);
        assertThat(e.ephemeralBytes()).isEqualTo(2 * GI);
    }

    @Test
    void evictionHardPercentagesAreOfCapacityRoundedUp() {
        var e = Overhead.evictionThreshold(1001, 20 * GI, Map.of("memory.available", "5%", "nodefs.available", "1Gi"));
        assertThat(e.memoryBytes()).isEqualTo(51); // ceil(1001 / 100 × 5) = ceil(50.05)
        assertThat(e.ephemeralBytes()).isEqualTo(GI);
    }

    @Test
    void evictionHardOfOneHundredPercentDisablesTheSignal() {
        assertThat(Overhead.evictionThreshold(GI, GI, Map.of("memory.available", "100%")).memoryBytes()).isZero();
    }

    @Test
    void totalSumsAllThreeParts() {
        var o = new Overhead(Overhead.kubeReserved(2000, 29, Map.of()), Overhead.systemReserved(Map.of()),
                Overhead.evictionThreshold(GI, 20 * GI, Map.of()));
        assertThat(o.total().memoryBytes()).isEqualTo(674 * MI);
        assertThat(o.total().ephemeralBytes()).isEqualTo(3 * GI);
    }
}
