package dev.gantry.cli.drift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.model.NodeClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code gantry drift --image}: what an alias resolves to now, per architecture and, for accelerated nodes, variant. */
class ImagesTest {
    private static final NodeClass CLASS = new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", null,
            List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")), List.of(), List.of(), "role", null, null, Map.of(),
            List.of(), null, null, null, null, null);

    @Test
    void aVariantImageServesItsNodesAndThePlainArchitectureTheRest() {
        Images images = Images.parse(List.of("al2023@latest=ami-0aaaaaaaaaaaaaaa1", "al2023@latest/amd64/nvidia=ami-0bbbbbbbbbbbbbbb2",
                "al2023@latest/arm64=ami-0ccccccccccccccc3"));

        Map<String, String> resolved = images.images(CLASS).orElseThrow();
        assertThat(resolved).isEqualTo(Map.of("amd64", "ami-0aaaaaaaaaaaaaaa1", "amd64/nvidia", "ami-0bbbbbbbbbbbbbbb2",
                "arm64", "ami-0ccccccccccccccc3"));
        Map<String, String> gpuNode = Map.of("kubernetes.io/arch", "amd64", "karpenter.k8s.aws/instance-gpu-count", "1");
        Map<String, String> neuronNode = Map.of("kubernetes.io/arch", "amd64", "karpenter.k8s.aws/instance-accelerator-count", "1");
        assertThat(ImageKeys.imageFor(resolved, gpuNode)).contains("ami-0bbbbbbbbbbbbbbb2");
        assertThat(ImageKeys.imageFor(resolved, neuronNode)).as("no neuron image given: the architecture's")
                .contains("ami-0aaaaaaaaaaaaaaa1");
    }

    @Test
    void anUnknownVariantIsRefusedWithTheChoices() {
        assertThatThrownBy(() -> Images.parse(List.of("al2023@latest/amd64/cuda=ami-0bbbbbbbbbbbbbbb2")))
                .hasMessage("--image al2023@latest/amd64/cuda=ami-0bbbbbbbbbbbbbbb2: the variant after the architecture is "
                        + "standard, nvidia or neuron");
        assertThatThrownBy(() -> Images.parse(List.of("al2023@latest/x86_64=ami-0bbbbbbbbbbbbbbb2")))
                .hasMessageContaining("architecture 'x86_64' is amd64 or arm64");
    }
}
