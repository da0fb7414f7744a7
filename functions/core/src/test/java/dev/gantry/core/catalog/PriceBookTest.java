package dev.gantry.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PriceBookTest {
    private final PriceBook book = PriceBook.of(Map.of("us-east-1", Map.of("m5.large", 0.096),
            "cn-north-1", Map.of("m5.large", 0.642)), Map.of("cn-north-1", "CNY"));

    @Test
    void pricesARegionFromItsOwnTableWithoutWarning() {
        var p = book.forRegion("cn-north-1");
        assertThat(p.sourceRegion()).isEqualTo("cn-north-1");
        assertThat(p.price("m5.large")).hasValue(0.642);
        assertThat(p.currency()).isEqualTo("CNY");
        assertThat(p.warning()).isEmpty();
    }

    @Test
    void fallsBackToUsEast1ForAMissingRegionAndSaysSo() {
        var p = book.forRegion("eu-west-1");
        assertThat(p.sourceRegion()).isEqualTo("us-east-1");
        assertThat(p.price("m5.large")).hasValue(0.096);
        assertThat(p.warning()).hasValueSatisfying(w -> assertThat(w).contains("eu-west-1", "us-east-1"));
    }

    @Test
    void aTypeWithoutAPriceHasNone() {
        assertThat(book.onDemand("us-east-1", "m7i.large")).isEmpty();
    }

    @Test
    void rejectsNegativePrices() {
        assertThatThrownBy(() -> PriceBook.of(Map.of("us-east-1", Map.of("m5.large", -1.0))))
                .hasMessageContaining("us-east-1/m5.large");
    }
}
