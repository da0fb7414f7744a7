package dev.gantry.config.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.source.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Gantry's own NodePool annotation gantry.dev/spot-percentage, checked at its line by the one reader. */
class CostAnnotationsTest {
    static List<String> errors(String value) {
        return ConfigLoader.loadString("p.yaml", """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: mixed
                  annotations:
                    gantry.dev/spot-percentage: "%s"
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}]
                """.formatted(value), LoadOptions.DEFAULT).errors().stream().map(Diagnostic::toString).toList();
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
}
