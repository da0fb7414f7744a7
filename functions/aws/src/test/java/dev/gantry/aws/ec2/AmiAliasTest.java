package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Alias → SSM parameter paths and the variants each image serves, as Karpenter v1.14's AMI families read them. */
class AmiAliasTest {
    @Test
    void al2023NamesStandardAndNvidiaForBothArchitecturesAndNeuronForX86() {
        String p = "/aws/service/eks/optimized-ami/1.30/amazon-linux-2023/";
        assertThat(AmiAlias.parse("al2023@v20240807").ssmParameters("1.30")).isEqualTo(Map.of(
                p + "x86_64/standard/amazon-eks-node-al2023-x86_64-standard-1.30-v20240807/image_id", List.of("standard"),
                p + "x86_64/nvidia/amazon-eks-node-al2023-x86_64-nvidia-1.30-v20240807/image_id", List.of("nvidia"),
                p + "x86_64/neuron/amazon-eks-node-al2023-x86_64-neuron-1.30-v20240807/image_id", List.of("neuron"),
                p + "arm64/standard/amazon-eks-node-al2023-arm64-standard-1.30-v20240807/image_id", List.of("standard"),
                p + "arm64/nvidia/amazon-eks-node-al2023-arm64-nvidia-1.30-v20240807/image_id", List.of("nvidia")));
        assertThat(AmiAlias.parse("al2023@latest").ssmParameters("1.33"))
                .containsEntry("/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/nvidia/recommended/image_id",
                        List.of("nvidia"));
    }

    @Test
    void bottlerocketVersionLosesItsLeadingVAndItsStandardX86ImageServesNeuron() {
        assertThat(AmiAlias.parse("bottlerocket@v1.20.3").ssmParameters("1.29")).isEqualTo(Map.of(
                "/aws/service/bottlerocket/aws-k8s-1.29/x86_64/1.20.3/image_id", List.of("standard", "neuron"),
                "/aws/service/bottlerocket/aws-k8s-1.29/arm64/1.20.3/image_id", List.of("standard"),
                "/aws/service/bottlerocket/aws-k8s-1.29-nvidia/x86_64/1.20.3/image_id", List.of("nvidia"),
                "/aws/service/bottlerocket/aws-k8s-1.29-nvidia/arm64/1.20.3/image_id", List.of("nvidia")));
    }

    @Test
    void al2UsesTheArchSpecificParameterTreesAndOneGpuImageForNvidiaAndNeuron() {
        assertThat(AmiAlias.parse("al2@latest").ssmParameters("1.29")).isEqualTo(Map.of(
                "/aws/service/eks/optimized-ami/1.29/amazon-linux-2/recommended/image_id", List.of("standard"),
                "/aws/service/eks/optimized-ami/1.29/amazon-linux-2-arm64/recommended/image_id", List.of("standard"),
                "/aws/service/eks/optimized-ami/1.29/amazon-linux-2-gpu/recommended/image_id", List.of("neuron", "nvidia")));
        assertThat(AmiAlias.parse("al2@v20240807").ssmParameters("1.29"))
                .containsEntry("/aws/service/eks/optimized-ami/1.29/amazon-linux-2/amazon-eks-node-1.29-v20240807/image_id",
                        List.of("standard"))
                .containsEntry("/aws/service/eks/optimized-ami/1.29/amazon-linux-2-gpu/amazon-eks-gpu-node-1.29-v20240807/image_id",
                        List.of("neuron", "nvidia"));
    }

    @Test
    void rejectsMalformedAndUnknownAliases() {
        assertThatThrownBy(() -> AmiAlias.parse("al2023")).hasMessageContaining("family@version");
        assertThatThrownBy(() -> AmiAlias.parse("windows2022@latest")).hasMessageContaining("not supported");
    }
}
