package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.testing.Ec2State;
import org.junit.jupiter.api.Test;

/** {@link Ec2CloudProvider#resolve}: an EC2NodeClass's status from the resolvers launches use, against the EC2 stub. */
class Ec2NodeClassResolutionTest extends Ec2StubTest {
    @Test
    void resolvesTheSubnetsSecurityGroupsAmisAndInstanceProfileALaunchWouldUse() {
        NodeClassStatus s = provider.status(LaunchFixtures.al2023());

        assertThat(s.subnets()).extracting(NodeClassStatus.Subnet::id)
                .containsExactly("subnet-0000000000000000a", "subnet-0000000000000000b", "subnet-0000000000000000c");
        assertThat(s.subnets()).extracting(NodeClassStatus.Subnet::zone).containsExactly("us-east-1a", "us-east-1b", "us-east-1c");
        // Id and name, as Karpenter's status.securityGroups lists them (kubectl describe ec2nodeclass).
        assertThat(s.securityGroups()).containsExactly(new NodeClassStatus.SecurityGroup("sg-0123456789abcdef0",
                "eks-cluster-sg-" + Ec2State.CLUSTER));
        // Karpenter's status.amis for an alias: each variant with its requirements (Variant.Requirements).
        assertThat(s.amis()).extracting(NodeClassStatus.Ami::id).containsExactly(Ec2State.NEURON_AMD64, Ec2State.NVIDIA_AMD64,
                "ami-0a1b2c3d4e5f60001", Ec2State.NVIDIA_ARM64, "ami-0a1b2c3d4e5f60002");
        assertThat(s.amis().get(2).requirements()).containsExactly(Requirement.of("kubernetes.io/arch", Operator.In, "amd64"),
                Requirement.of("karpenter.k8s.aws/instance-accelerator-count", Operator.DoesNotExist),
                Requirement.of("karpenter.k8s.aws/instance-gpu-count", Operator.DoesNotExist));
        assertThat(s.amis().get(1).requirements()).containsExactly(Requirement.of("kubernetes.io/arch", Operator.In, "amd64"),
                Requirement.of("karpenter.k8s.aws/instance-gpu-count", Operator.Exists));
        assertThat(s.amis().get(0).requirements()).containsExactly(Requirement.of("kubernetes.io/arch", Operator.In, "amd64"),
                Requirement.of("karpenter.k8s.aws/instance-accelerator-count", Operator.Exists));
        assertThat(s.instanceProfile()).isNotBlank();
        assertThat(s.conditions()).isEmpty();
    }
}
