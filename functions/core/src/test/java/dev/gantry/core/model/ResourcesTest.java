package dev.gantry.core.model;

import static dev.gantry.core.requirements.Generators.biased;
import static dev.gantry.core.requirements.Generators.theory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.maps;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class ResourcesTest {
    private static final long GI = 1L << 30;
    private static final long MI = 1L << 20;

    private static Resources r(long cpu, long mem, long pods, Map<String, Long> ext) {
        return new Resources(cpu, mem, 0, pods, ext);
    }

    @Test
    void buildsFromQuantitiesInEachResourcesUnit() {
        Resources res = Resources.fromQuantities(Map.of(
                "cpu", Quantity.parse("250m"), "memory", Quantity.parse("512Mi"), "ephemeral-storage", Quantity.parse("1Gi"),
                "pods", Quantity.parse("3"), "nvidia.com/gpu", Quantity.parse("1")));
        assertThat(res.cpuMillis()).isEqualTo(250);
        assertThat(res.memoryBytes()).isEqualTo(512 * MI);
        assertThat(res.ephemeralBytes()).isEqualTo(GI);
        assertThat(res.pods()).isEqualTo(3);
        assertThat(res.get(Resources.NVIDIA_GPU)).isEqualTo(1);
        assertThat(res.get("example.com/absent")).isZero();
    }

    @Test
    void roundsFractionalRequestsUp() {
        Resources res = Resources.fromQuantities(Map.of("cpu", Quantity.parse("0.0001"), "memory", Quantity.parse("100m")));
        assertThat(res.cpuMillis()).isEqualTo(1);
        assertThat(res.memoryBytes()).isEqualTo(1);
    }

    @Test
    void addsAndSubtractsComponentWiseIncludingExtendedResources() {
        Resources a = r(1000, GI, 1, Map.of("nvidia.com/gpu", 1L));
        Resources b = r(500, MI, 2, Map.of("aws.amazon.com/neuron", 2L));
        Resources sum = a.plus(b);
        assertThat(sum).isEqualTo(r(1500, GI + MI, 3, Map.of("nvidia.com/gpu", 1L, "aws.amazon.com/neuron", 2L)));
        assertThat(sum.minus(b)).isEqualTo(a);
        assertThat(a.minus(b).isNonNegative()).isFalse();
        assertThat(sum.minus(a).isNonNegative()).isTrue();
    }

    @Test
    void dropsZeroExtendedAmountsSoEqualVectorsAreEqual() {
        Resources withZero = r(1, 1, 0, Map.of("nvidia.com/gpu", 0L));
        assertThat(withZero).isEqualTo(r(1, 1, 0, Map.of())).hasSameHashCodeAs(r(1, 1, 0, Map.of()));
        assertThat(r(0, 0, 0, Map.of("x", 1L)).minus(r(0, 0, 0, Map.of("x", 1L))).isZero()).isTrue();
    }

    @Test
    void takesTheComponentWiseMaximum() {
        Resources a = r(2000, MI, 0, Map.of("nvidia.com/gpu", 1L));
        Resources b = r(500, GI, 0, Map.of("nvidia.com/gpu", 4L, "amd.com/gpu", 1L));
        assertThat(a.max(b)).isEqualTo(r(2000, GI, 0, Map.of("nvidia.com/gpu", 4L, "amd.com/gpu", 1L)));
    }

    @Test
    void multipliesEveryAmount() {
        assertThat(r(250, MI, 1, Map.of("x", 2L)).times(4)).isEqualTo(r(1000, 4 * MI, 4, Map.of("x", 8L)));
    }

    @Test
    void fitsWhenEveryRequestedAmountIsAvailable() {
        Resources node = r(4000, 16 * GI, 110, Map.of());
        assertThat(r(4000, 16 * GI, 110, Map.of()).fitsIn(node)).isTrue();
        assertThat(r(4001, GI, 1, Map.of()).fitsIn(node)).isFalse();
        assertThat(r(1, GI, 111, Map.of()).fitsIn(node)).isFalse();
        assertThat(new Resources(0, 0, 1, 0, Map.of()).fitsIn(node)).isFalse();
        assertThat(r(1, 1, 1, Map.of("nvidia.com/gpu", 1L)).fitsIn(node)).isFalse(); // a resource the node does not have
        assertThat(Resources.ZERO.fitsIn(Resources.ZERO)).isTrue();
    }

    @Test
    void namesTheFirstResourceThatDoesNotFitInAFixedOrder() {
        Resources node = r(2000, 4 * GI, 10, Map.of("nvidia.com/gpu", 1L));
        assertThat(r(3000, 8 * GI, 11, Map.of()).firstExceeding(node)).isEqualTo("cpu");
        assertThat(r(1000, 8 * GI, 11, Map.of()).firstExceeding(node)).isEqualTo("memory");
        assertThat(new Resources(0, 0, 1, 0, Map.of()).firstExceeding(node)).isEqualTo("ephemeral-storage");
        assertThat(r(1000, GI, 11, Map.of()).firstExceeding(node)).isEqualTo("pods");
        assertThat(r(1000, GI, 1, Map.of("nvidia.com/gpu", 2L)).firstExceeding(node)).isEqualTo("nvidia.com/gpu");
        assertThat(r(1000, GI, 1, Map.of("nvidia.com/gpu", 1L)).firstExceeding(node)).isNull();
    }

    @Test
    void setsOneResourceByName() {
        Resources base = Resources.of(1000, GI);
        assertThat(base.with("cpu", 2000).cpuMillis()).isEqualTo(2000);
        assertThat(base.with("memory", 1).memoryBytes()).isEqualTo(1);
        assertThat(base.with("ephemeral-storage", 5).ephemeralBytes()).isEqualTo(5);
        assertThat(base.with("pods", 7).pods()).isEqualTo(7);
        assertThat(base.with("nvidia.com/gpu", 2).get("nvidia.com/gpu")).isEqualTo(2);
    }

    @Test
    void formatsEachAmountInTheUnitPeopleWrite() {
        assertThat(Resources.format("cpu", 1500)).isEqualTo("1500m");
        assertThat(Resources.format("cpu", 2000)).isEqualTo("2");
        assertThat(Resources.format("memory", 2 * GI)).isEqualTo("2Gi");
        assertThat(Resources.format("memory", 1536 * MI)).isEqualTo("1536Mi");
        assertThat(Resources.format("memory", 1000)).isEqualTo("1000");
        assertThat(Resources.format("memory", 0)).isEqualTo("0");
        assertThat(Resources.format("ephemeral-storage", 20 * GI)).isEqualTo("20Gi");
        assertThat(Resources.format("memory", 1L << 60)).isEqualTo("1024Pi");
        assertThat(Resources.format("pods", 110)).isEqualTo("110");
    }

    @Test
    void printsNonZeroResourcesCoreFirst() {
        assertThat(new Resources(1500, 2 * GI, 0, 3, Map.of("nvidia.com/gpu", 1L)))
                .hasToString("cpu=1500m memory=2Gi pods=3 nvidia.com/gpu=1");
        assertThat(Resources.ZERO).hasToString("{}");
        assertThat(Resources.of(1000, 0).asMap()).containsExactly(Map.entry("cpu", 1000L));
    }

    /** Vectors with every amount in 0..1,000,000 and up to two of three extended resources. */
    private static final Gen<Resources> VECTORS = vectors();

    private static Gen<Resources> vectors() {
        Gen<Long> amount = biased(0L, 1_000_000L);
        Gen<Map<String, Long>> ext = maps().of(Generate.pick(List.of("nvidia.com/gpu", "amd.com/gpu", "x")), amount).ofSizeBetween(0, 2);
        return amount.zip(amount, amount, amount, ext, Resources::new);
    }

    @Test
    void subtractionUndoesAddition() {
        theory(300).forAll(VECTORS, VECTORS).checkAssert((a, b) -> {
            assertThat(a.plus(b).minus(b)).isEqualTo(a);
            assertThat(a.plus(b)).isEqualTo(b.plus(a));
        });
    }

    @Test
    void aVectorFitsInItselfPlusAnythingAndInTheMaximum() {
        theory(300).forAll(VECTORS, VECTORS).checkAssert((a, b) -> {
            assertThat(a.fitsIn(a.plus(b))).isTrue();
            assertThat(a.fitsIn(a.max(b))).isTrue();
            assertThat(a.max(b)).isEqualTo(b.max(a));
            assertThat(a.fitsIn(b)).isEqualTo(a.firstExceeding(b) == null);
            assertThat(a.fitsIn(b)).isEqualTo(b.minus(a).isNonNegative());
        });
    }
}
