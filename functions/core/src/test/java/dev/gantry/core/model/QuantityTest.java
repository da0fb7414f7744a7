package dev.gantry.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Quantities as {@code k8s.io/apimachinery/pkg/api/resource.ParseQuantity} and the CRD quantity pattern read them. */
class QuantityTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "250m,   0.25",
            "0.25,   0.25",
            "1.5,    1.5",
            "100Gi,  107374182400",
            "512Mi,  536870912",
            "1Ki,    1024",
            "1.5Gi,  1610612736",
            "1e3,    1000",
            "1E3,    1000",
            "1E-3,   0.001",
            "1e+2,   100",
            "2k,     2000",
            "3M,     3000000",
            "1G,     1000000000",
            "1E,     1000000000000000000",
            "5n,     0.000000005",
            "7u,     0.000007",
            "+1,     1",
            "-1,     -1",
            ".5,     0.5",
            "1.,     1",
            "0,      0",
            "007,    7",
            "1.5k,   1500",
    })
    void parsesAsKubernetesDoes(String text, String value) {
        assertThat(Quantity.parse(text).value()).isEqualByComparingTo(new BigDecimal(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.2.3", "Gi", "10gb", "abc", "1K", "1ki", "1e", "1e1.5", "1 ", " 1", "1 Gi", "--1", "+-1",
            "1GiB", "0x10", "1_000", "m", ".", "1.5.Gi", "∞"})
    void rejectsWhatKubernetesRejects(String text) {
        assertThatThrownBy(() -> Quantity.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + text + "' is not a Kubernetes quantity (e.g. 250m, 1.5, 512Mi, 100Gi)");
    }

    @Test
    void rejectsAnEmptyQuantity() {
        assertThatThrownBy(() -> Quantity.parse("")).isInstanceOf(IllegalArgumentException.class).hasMessage("quantity is empty");
        assertThatThrownBy(() -> Quantity.parse(null)).isInstanceOf(IllegalArgumentException.class).hasMessage("quantity is empty");
        assertThatThrownBy(() -> Quantity.parse("   ")).isInstanceOf(IllegalArgumentException.class).hasMessage("quantity is empty");
    }

    @Test
    void rejectsAnExponentBeyondThirtyTwoBitsWithAMessage() {
        assertThatThrownBy(() -> Quantity.parse("1e99999999999")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'1e99999999999' is not a Kubernetes quantity: exponent out of range");
    }

    @ParameterizedTest(name = "{0} is {1}m")
    @CsvSource({"0.0001, 1", "250m, 250", "1, 1000", "1.0001, 1001", "0.5m, 1", "100u, 1", "1n, 1", "0, 0", "2k, 2000000"})
    void millisRoundUpAsTheApiServerRoundsRequests(String text, long millis) {
        assertThat(Quantity.parse(text).toMillis()).isEqualTo(millis);
    }

    @ParameterizedTest(name = "{0} is {1} units")
    @CsvSource({"0.5, 1", "100m, 1", "1.5Gi, 1610612736", "1Ki, 1024", "1e3, 1000", "0, 0", "1.0000001, 2"})
    void unitsRoundUp(String text, long units) {
        assertThat(Quantity.parse(text).toUnits()).isEqualTo(units);
    }

    @Test
    void equalQuantitiesWrittenDifferentlyAreEqual() {
        assertThat(Quantity.parse("1000m")).isEqualTo(Quantity.parse("1")).hasSameHashCodeAs(Quantity.parse("1"));
        assertThat(Quantity.parse("1Ki")).isEqualTo(Quantity.parse("1024")).hasSameHashCodeAs(Quantity.of(1024));
        assertThat(Quantity.parse("0.5")).isEqualTo(Quantity.ofMillis(500));
        assertThat(new Quantity(new BigDecimal("2.50"))).isEqualTo(Quantity.parse("2.5")).hasSameHashCodeAs(Quantity.parse("2.5"));
    }

    @Test
    void ordersByValue() {
        assertThat(Quantity.parse("999m")).isLessThan(Quantity.parse("1"));
        assertThat(Quantity.parse("1Gi")).isGreaterThan(Quantity.parse("1G"));
        assertThat(Quantity.parse("-1").isNegative()).isTrue();
        assertThat(Quantity.ZERO.isNegative()).isFalse();
    }

    @Test
    void printsThePlainValue() {
        assertThat(Quantity.parse("250m")).hasToString("0.25");
        assertThat(Quantity.parse("1e3")).hasToString("1000");
        assertThat(Quantity.ofMillis(1500)).hasToString("1.5");
    }
}
