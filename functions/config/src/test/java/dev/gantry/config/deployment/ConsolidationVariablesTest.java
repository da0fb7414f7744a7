package dev.gantry.config.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsolidationVariablesTest {
    private static final ConsolidationSettings KARPENTER_SPOT = new ConsolidationSettings(true,
            ConsolidationSettings.Strategy.KARPENTER);

    private static ConsolidationSettings read(Map<String, String> env) {
        return ConsolidationVariables.read(k -> Optional.ofNullable(env.get(k)), ConsolidationSettings.DEFAULT);
    }

    @Test
    void theVariablesWrittenForASettingReadBackAsThatSetting() {
        assertThat(read(ConsolidationVariables.of(KARPENTER_SPOT))).isEqualTo(KARPENTER_SPOT);
        assertThat(read(ConsolidationVariables.of(ConsolidationSettings.DEFAULT))).isEqualTo(ConsolidationSettings.DEFAULT);
        assertThat(ConsolidationVariables.of(KARPENTER_SPOT)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "GANTRY_SPOT_TO_SPOT_CONSOLIDATION", "true", "GANTRY_CONSOLIDATION_STRATEGY", "karpenter"));
    }

    @Test
    void anUnsetVariableMeansTheFallback() {
        assertThat(read(Map.of())).isEqualTo(ConsolidationSettings.DEFAULT);
        assertThat(read(Map.of(ConsolidationVariables.SPOT_TO_SPOT, "true")))
                .isEqualTo(new ConsolidationSettings(true, ConsolidationSettings.Strategy.GANTRY));
    }

    @Test
    void aValueOutsideTheWordsFailsNamingTheVariable() {
        assertThatThrownBy(() -> read(Map.of(ConsolidationVariables.SPOT_TO_SPOT, "yes")))
                .hasMessage("environment variable GANTRY_SPOT_TO_SPOT_CONSOLIDATION: expected true or false, got 'yes'");
        assertThatThrownBy(() -> read(Map.of(ConsolidationVariables.STRATEGY, "Gantry")))
                .hasMessage("environment variable GANTRY_CONSOLIDATION_STRATEGY: expected gantry or karpenter, got 'Gantry'");
    }
}
