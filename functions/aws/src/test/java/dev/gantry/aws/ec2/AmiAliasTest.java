package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Alias → SSM parameter paths, as Karpenter's AMI families read them. */
class AmiAliasTest {
    @Test
    void pinnedAl2023VersionNamesTheReleaseParameter() {
        assertThat(AmiAlias.parse("al2023@v20240807").ssmParameters("1.30")).isEqualTo(Map.of(
                "amd64", "/aws/service/eks/optimized-ami/1.30/amazon-linux-2023/x86_64/standard/"
                        + "amazon-eks-node-al2023-x86_64-standard-1.30-v20240807/image_id",
                "arm64", "/aws/service/eks/optimized-ami/1.30/amazon-linux-2023/arm64/standard/"
                        + "amazon-eks-node-al2023-arm64-standard-1.30-v20240807/image_id"));
    }

    @Test
    void bottlerocketVersionLosesItsLeadingV() {
        assertThat(AmiAlias.parse("bottlerocket@v1.20.3").ssmParameters("1.29"))
                .containsEntry("amd64", "/aws/service/bottlerocket/aws-k8s-1.29/x86_64/1.20.3/image_id")
                .containsEntry("arm64", "/aws/service/bottlerocket/aws-k8s-1.29/arm64/1.20.3/image_id");
    }

    @Test
    void al2UsesTheArchSpecificParameterTrees() {
        assertThat(AmiAlias.parse("al2@latest").ssmParameters("1.29"))
                .containsEntry("amd64", "/aws/service/eks/optimized-ami/1.29/amazon-linux-2/recommended/image_id")
                .containsEntry("arm64", "/aws/service/eks/optimized-ami/1.29/amazon-linux-2-arm64/recommended/image_id");
        assertThat(AmiAlias.parse("al2@v20240807").ssmParameters("1.29")).containsEntry("amd64",
                "/aws/service/eks/optimized-ami/1.29/amazon-linux-2/amazon-eks-node-1.29-v20240807/image_id");
    }

    @Test
    void rejectsMalformedAndUnknownAliases() {
        assertThatThrownBy(() -> AmiAlias.parse("al2023")).hasMessageContaining("family@version");
        assertThatThrownBy(() -> AmiAlias.parse("windows2022@latest")).hasMessageContaining("not supported");
    }
}
