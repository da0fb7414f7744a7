package dev.gantry.core.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each way of naming a node identity launches with (the adapter's launch and status, the simulator's account). */
class NodeRolesTest {
    private static final NodeRoles DEPLOYED = new NodeRoles("stack-profile",
            Map.of("Gantry-demo-NodeRole", "stack-profile", "KarpenterNodeRole-demo", "karpenter-profile"));

    private static NodeClass identity(String role, String instanceProfile) {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", "AL2023", List.of(), List.of(), List.of(),
                role, instanceProfile, null, Map.of(), List.of(), null, null, null, null, null, List.of(), Map.of());
    }

    @Test
    void aNamedProfileIsUsedAsItIs() {
        assertThat(DEPLOYED.of(identity(null, "custom"))).isEqualTo(new NodeRoles.InstanceProfile("custom", null));
    }

    @Test
    void aRoleTheDeploymentCanPassUsesItsProfileWrittenAsANameOrAnArn() {
        assertThat(DEPLOYED.of(identity("KarpenterNodeRole-demo", null)).name()).isEqualTo("karpenter-profile");
        assertThat(DEPLOYED.of(identity("arn:aws:iam::111122223333:role/nodes/KarpenterNodeRole-demo", null)))
                .isEqualTo(new NodeRoles.InstanceProfile("karpenter-profile", null));
    }

    @Test
    void anyOtherRoleRunsAsTheStacksOwnAndSaysSoUnlessThereIsNone() {
        NodeRoles.InstanceProfile other = DEPLOYED.of(identity("TeamNodeRole", null));
        assertThat(other).isEqualTo(new NodeRoles.InstanceProfile("stack-profile", "TeamNodeRole"));
        assertThat(other.note()).startsWith("role TeamNodeRole is not a node role of this deployment")
                .endsWith("deploy with -c nodeRoles=TeamNodeRole to launch them with it");
        assertThat(NodeRoles.only(null).of(identity("TeamNodeRole", null)))
                .isEqualTo(new NodeRoles.InstanceProfile(null, null));
    }

    @Test
    void noRoleAtAllIsTheStacksOwnWithNothingToSay() {
        assertThat(DEPLOYED.of(identity(null, null))).isEqualTo(new NodeRoles.InstanceProfile("stack-profile", null));
        assertThat(DEPLOYED.of(identity(null, null)).note()).isNull();
    }
}
