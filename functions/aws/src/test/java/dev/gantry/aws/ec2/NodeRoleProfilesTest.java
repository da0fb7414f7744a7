package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.status.Condition;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.testing.Ec2State;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What an EC2NodeClass's {@code spec.role} launches with: the instance profile the deployment made for that role
 * ({@code -c nodeRoles=}), or, for a role it cannot pass, its own node role's, said in the class's
 * {@code InstanceProfileReady} condition. Before, every role launched silently with the deployment's own profile.
 * Against the EC2 stub, which knows each profile's role (the provisioner's launches here are evaluated against the
 * synthesized policy by infra's IamContractTest, PassRole of {@value #KARPENTER_ROLE} included).
 */
class NodeRoleProfilesTest extends Ec2StubTest {
    static final String KARPENTER_ROLE = "KarpenterNodeRole-demo";
    private static final String KARPENTER_PROFILE = "karpenter-node-profile";

    @Override
    protected Ec2State state() {
        return Ec2State.withDefaults().addInstanceProfile(KARPENTER_PROFILE, KARPENTER_ROLE);
    }

    @Override
    protected Ec2LauncherConfig config() {
        Ec2LauncherConfig base = LaunchFixtures.config(clock);
        return new Ec2LauncherConfig(base.clusterName(), base.kubernetesVersion(), base.endpoint(),
                base.certificateAuthority(), base.serviceCidr(), Ec2State.NODE_INSTANCE_PROFILE, clock,
                Map.of(Ec2State.NODE_ROLE, Ec2State.NODE_INSTANCE_PROFILE, KARPENTER_ROLE, KARPENTER_PROFILE));
    }

    private String launchedProfile(NodeClass nc, String claim) {
        provider.launch(LaunchFixtures.request(claim, LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "c5.large", "m5.large"), List.of("on-demand"), Ec2State.ZONES));
        return stub.lastRequest("CreateLaunchTemplate").param("LaunchTemplateData.IamInstanceProfile.Name");
    }

    @Test
    void aRoleTheDeploymentCanPassLaunchesWithTheProfileMadeForIt() {
        NodeClass nc = LaunchFixtures.withIdentity(LaunchFixtures.al2023(), KARPENTER_ROLE, null);

        assertThat(launchedProfile(nc, "general-role1")).isEqualTo(KARPENTER_PROFILE);
        assertThat(stub.ec2().instances()).hasSize(1);
        NodeClassStatus s = provider.status(nc);
        assertThat(s.instanceProfile()).isEqualTo(KARPENTER_PROFILE);
        assertThat(s.conditions()).isEmpty();
    }

    @Test
    void aRoleWrittenAsAnArnIsTheRoleOfThatName() {
        NodeClass nc = LaunchFixtures.withIdentity(LaunchFixtures.al2023(),
                "arn:aws:iam::" + Ec2State.ACCOUNT + ":role/" + KARPENTER_ROLE, null);

        assertThat(launchedProfile(nc, "general-role2")).isEqualTo(KARPENTER_PROFILE);
    }

    @Test
    void aRoleTheDeploymentCannotPassLaunchesAsItsOwnAndTheClassSaysSo() {
        NodeClass nc = LaunchFixtures.withIdentity(LaunchFixtures.al2023(), "TeamNodeRole", null);

        assertThat(launchedProfile(nc, "general-role3")).isEqualTo(Ec2State.NODE_INSTANCE_PROFILE);
        NodeClassStatus s = provider.status(nc);
        assertThat(s.instanceProfile()).isEqualTo(Ec2State.NODE_INSTANCE_PROFILE);
        assertThat(s.conditions()).singleElement().satisfies(c -> {
            assertThat(c.type()).isEqualTo("InstanceProfileReady");
            assertThat(c.status()).isEqualTo(Condition.Status.True);
            assertThat(c.reason()).isEqualTo("DeploymentNodeRole");
            assertThat(c.message()).isEqualTo("role TeamNodeRole is not a node role of this deployment, so nodes run "
                    + "as its own (instance profile gantry-node-profile); deploy with -c nodeRoles=TeamNodeRole to "
                    + "launch them with it");
        });
    }

    @Test
    void aNamedInstanceProfileIsUsedAsItIsAndOneIamDoesNotKnowIsRefusedAtLaunch() {
        NodeClass known = LaunchFixtures.withIdentity(LaunchFixtures.al2023(), null, KARPENTER_PROFILE);
        assertThat(launchedProfile(known, "general-prof1")).isEqualTo(KARPENTER_PROFILE);

        NodeClass unknown = LaunchFixtures.withIdentity(LaunchFixtures.al2023(), null, "no-such-profile");
        assertThatThrownBy(() -> launchedProfile(unknown, "general-prof2"))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("Invalid IAM Instance Profile name");
                });
        assertThat(stub.ec2().instances()).hasSize(1);
    }
}
