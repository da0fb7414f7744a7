package dev.gantry.core.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which image serves a type: Karpenter's variant requirements (aws amifamily {@code Variant.Requirements}). */
class ImageKeysTest {
    private static final Map<String, String> ALIAS = Map.of("amd64/standard", "std", "amd64/nvidia", "gpu",
            "amd64/neuron", "neuron", "arm64/standard", "arm");
    private static final Map<String, String> M5 = Map.of("kubernetes.io/arch", "amd64");
    private static final Map<String, String> G5 = Map.of("kubernetes.io/arch", "amd64", "karpenter.k8s.aws/instance-gpu-count", "1");
    private static final Map<String, String> INF2 = Map.of("kubernetes.io/arch", "amd64",
            "karpenter.k8s.aws/instance-accelerator-count", "1");
    private static final Map<String, String> G5G = Map.of("kubernetes.io/arch", "arm64", "karpenter.k8s.aws/instance-gpu-count", "1");

    @Test
    void anAliasServesEachTypeItsVariantAndATypeWithoutOneNothing() {
        assertThat(ImageKeys.imageFor(ALIAS, M5)).contains("std");
        assertThat(ImageKeys.imageFor(ALIAS, G5)).contains("gpu");
        assertThat(ImageKeys.imageFor(ALIAS, INF2)).contains("neuron");
        assertThat(ImageKeys.imageFor(ALIAS, G5G)).as("no arm64 NVIDIA image: not launched").isEmpty();
        assertThat(ImageKeys.imageFor(ALIAS, Map.of())).as("unlabelled: amd64").contains("std");
    }

    @Test
    void anImageKnownByItsArchitectureServesEveryTypeOfIt() {
        Map<String, String> custom = Map.of("amd64", "custom");
        assertThat(ImageKeys.imageFor(custom, G5)).contains("custom");
        assertThat(ImageKeys.imageFor(custom, INF2)).contains("custom");
        assertThat(ImageKeys.imageFor(custom, G5G)).isEmpty();
        assertThat(ImageKeys.arch("arm64/nvidia")).isEqualTo("arm64");
        assertThat(ImageKeys.arch("arm64")).isEqualTo("arm64");
    }
}
