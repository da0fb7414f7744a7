package dev.gantry.config.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.core.catalog.overlay.NodeOverlay;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NodeOverlay read with the rules of Karpenter v1.14.1's CRD (kubernetes-sigs/karpenter
 * {@code pkg/apis/v1alpha1/nodeoverlay.go}: requirements' CEL rules and MaxItems 100, the price and priceAdjustment
 * patterns and their mutual exclusion, restricted capacity, weight 1–10000), each mistake at file:line:column.
 */
class NodeOverlayLoadingTest {
    private static LoadResult load(String spec) {
        return ConfigLoader.loadString("o.yaml", """
                apiVersion: karpenter.sh/v1alpha1
                kind: NodeOverlay
                metadata:
                  name: graviton
                spec:
                """ + spec.indent(2), LoadOptions.DEFAULT);
    }

    private static List<String> errors(String spec) {
        return load(spec).errors().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void aValidOverlayIsRead() {
        LoadResult r = load("""
                requirements:
                  - {key: kubernetes.io/arch, operator: In, values: [arm64]}
                priceAdjustment: "-20%"
                capacity: {example.com/nic: "2"}
                weight: 10
                """);
        assertThat(r.errors()).isEmpty();
        NodeOverlay o = r.overlays().getFirst();
        assertThat(o.name()).isEqualTo("graviton");
        assertThat(o.price().percent()).isTrue();
        assertThat(o.price().apply(1.0)).isEqualTo(0.8);
        assertThat(o.capacity()).isEqualTo(Map.of("example.com/nic", 2L));
        assertThat(o.weight()).isEqualTo(10);
        assertThat(r.object("NodeOverlay", "graviton")).isNotNull();
    }

    @Test
    void priceAndPriceAdjustmentAreMutuallyExclusive() {
        assertThat(errors("""
                requirements: []
                price: "0.5"
                priceAdjustment: "+1"
                """)).singleElement().asString().startsWith("o.yaml:6:3:").contains("cannot set both 'price' and 'priceAdjustment'");
    }

    @Test
    void pricesFollowTheCrdPatterns() {
        assertThat(errors("requirements: []\npriceAdjustment: \"-120%\"\n")).singleElement().asString()
                .startsWith("o.yaml:7:20:").contains("spec.priceAdjustment").contains("at least -100%");
        assertThat(errors("requirements: []\npriceAdjustment: \"15%\"\n")).hasSize(1);
        assertThat(errors("requirements: []\nprice: \"-0.5\"\n")).singleElement().asString().contains("spec.price");
        assertThat(errors("requirements: []\npriceAdjustment: \"-100%\"\n")).isEmpty();
    }

    @Test
    void capacityRefusesStandardResources() {
        assertThat(errors("""
                requirements: []
                capacity:
                  cpu: "4"
                  pods: "10"
                  hugepages-2Mi: 1Gi
                """)).hasSize(2).allSatisfy(e -> assertThat(e).contains("invalid resource restricted"))
                .anySatisfy(e -> assertThat(e).startsWith("o.yaml:8:5:"));
    }

    @Test
    void weightIsOneToTenThousand() {
        assertThat(errors("requirements: []\nprice: \"1\"\nweight: 0\n")).singleElement().asString().contains("between 1 and 10000");
        assertThat(errors("requirements: []\nprice: \"1\"\nweight: 10001\n")).hasSize(1);
        assertThat(load("requirements: []\nprice: \"1\"\n").overlays().getFirst().weight()).isZero();
    }

    @Test
    void requirementsFollowTheCrdRules() {
        assertThat(errors("requirements:\n  - {key: kubernetes.io/arch, operator: In, values: []}\nprice: \"1\"\n")).hasSize(1);
        StringBuilder many = new StringBuilder("requirements:\n");
        for (int i = 0; i < 101; i++) {
            many.append("  - {key: k").append(i).append(", operator: Exists}\n");
        }
        assertThat(errors(many + "price: \"1\"\n")).singleElement().asString().contains("at most 100 requirements");
    }

    @Test
    void anOverlayThatChangesNothingIsAWarning() {
        LoadResult r = load("requirements: []\n");
        assertThat(r.errors()).isEmpty();
        assertThat(r.warnings()).singleElement().asString().contains("changes nothing");
    }
}
