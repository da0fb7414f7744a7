package dev.gantry.config.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NodeOverlay CRD Gantry installs (facts of Karpenter v1.14.1, kubernetes-sigs/karpenter
 * {@code pkg/apis/v1alpha1/nodeoverlay.go}): its CEL rules compile, and every variant it refuses the reader refuses too.
 */
class NodeOverlayCrdTest {
    private static final CrdValidator CRD = CrdValidator.of(AttachCrds.all().stream()
            .filter(m -> m.name().equals(AttachCrds.NODE_OVERLAY_NAME)).findFirst().orElseThrow().yaml());

    static String overlay(String spec) {
        return "apiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata: {name: o}\nspec: " + spec + "\n";
    }

    @Test
    void theManifestIsGantrysForKarpenters1141Api() {
        Map<String, Object> m = CRD.manifest();
        assertThat(Yaml.at(m, "metadata", "name")).isEqualTo("nodeoverlays.karpenter.sh");
        assertThat(Yaml.at(m, "metadata", "annotations")).isEqualTo(Map.of(KarpenterCrd.API_VERSION_ANNOTATION,
                KarpenterCrd.KARPENTER_RELEASE));
        assertThat(Yaml.at(m, "spec", "versions", 0, "name")).isEqualTo("v1alpha1");
        assertThat(CRD.rules()).hasSize(5).allSatisfy(r -> assertThat(r.compiled().ok()).as(r.message()).isTrue());
    }

    @Test
    void eachVariantTheCrdRefusesTheReaderRefusesToo() {
        Map<String, String> broken = new LinkedHashMap<>();
        broken.put("price and priceAdjustment", "{requirements: [], price: \"1\", priceAdjustment: \"+1\"}");
        broken.put("percentage below -100%", "{requirements: [], priceAdjustment: \"-101%\"}");
        broken.put("unsigned percentage", "{requirements: [], priceAdjustment: \"10%\"}");
        broken.put("negative price", "{requirements: [], price: \"-1\"}");
        broken.put("cpu capacity", "{requirements: [], capacity: {cpu: \"1\"}}");
        broken.put("pods capacity", "{requirements: [], capacity: {pods: \"1\"}}");
        broken.put("weight 0", "{requirements: [], price: \"1\", weight: 0}");
        broken.put("weight 10001", "{requirements: [], price: \"1\", weight: 10001}");
        broken.put("In without values", "{requirements: [{key: a, operator: In, values: []}], price: \"1\"}");
        broken.put("no requirements", "{price: \"1\"}");
        broken.forEach((what, spec) -> {
            String yaml = overlay(spec);
            assertThat(CRD.validateCreate(Yaml.map(Yaml.all(yaml).getFirst()))).as("CRD refuses " + what).isNotEmpty();
            assertThat(ConfigLoader.loadString(what, yaml, LoadOptions.DEFAULT).errors()).as("reader refuses " + what).isNotEmpty();
        });
        for (String good : new String[] {"{requirements: [], priceAdjustment: \"-100%\", weight: 10000}",
                "{requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}], price: \"0.5\", capacity: {example.com/nic: 2}}"}) {
            assertThat(CRD.validateCreate(Yaml.map(Yaml.all(overlay(good)).getFirst()))).as(good).isEmpty();
            assertThat(ConfigLoader.loadString("good", overlay(good), LoadOptions.DEFAULT).errors()).as(good).isEmpty();
        }
    }
}
