package dev.gantry.config.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.source.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Gantry's own NodePool annotations (spot-percentage, limit-cost-per-hour), checked at their line by the one reader. */
class CostAnnotationsTest {
    static List<String> errors(String value) {
        return errors(value, "10");
    }

    static List<String> errors(String value, String cost) {
        return ConfigLoader.loadString("p.yaml", """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: mixed
                  annotations:
                    gantry.dev/spot-percentage: "%s"
                    gantry.dev/limit-cost-per-hour: "%s"
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}]
                """.formatted(value, cost), LoadOptions.DEFAULT).errors().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void aWholePercentageIsRead() {
        assertThat(errors("70")).isEmpty();
        assertThat(errors("0")).isEmpty();
        assertThat(errors("100")).isEmpty();
    }

    @Test
    void anythingElseIsAnErrorAtItsLine() {
        assertThat(errors("70%")).singleElement().asString()
                .startsWith("p.yaml:6:33: NodePool/mixed/metadata.annotations.gantry.dev/spot-percentage: '70%' is not a spot percentage");
        assertThat(errors("101")).hasSize(1);
        assertThat(errors("-5")).hasSize(1);
        assertThat(errors("0.5")).hasSize(1);
    }

    @Test
    void aCostLimitIsDollarsPerHour() {
        assertThat(errors("70", "12.50")).isEmpty();
        assertThat(errors("70", "$12")).singleElement().asString()
                .startsWith("p.yaml:7:37: NodePool/mixed/metadata.annotations.gantry.dev/limit-cost-per-hour: '$12' is not a cost limit");
        assertThat(errors("70", "-1")).hasSize(1);
    }
}
