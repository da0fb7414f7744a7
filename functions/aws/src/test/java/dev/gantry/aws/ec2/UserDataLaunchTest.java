package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.MutableClock;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Resources.Image;
import dev.gantry.testing.Ec2Resources.SecurityGroup;
import dev.gantry.testing.Ec2Resources.Subnet;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.JsonResponses;
import dev.gantry.testing.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The user data that reaches EC2, decoded from the recorded CreateLaunchTemplate and asserted whole. */
class UserDataLaunchTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    private AwsStub stub;
    private StubClients clients;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        clients = StubClients.of(stub);
    }

    @AfterEach
    void stop() {
        clients.close();
        stub.close();
    }

    private static String userData(RecordedRequest createLaunchTemplate) {
        return new String(Base64.getDecoder().decode(createLaunchTemplate.param("LaunchTemplateData.UserData")),
                StandardCharsets.UTF_8);
    }

    @Test
    void al2023NodeClassGetsANodeadmNodeConfigAfterItsOwnScript() {
        NodeClass base = LaunchFixtures.al2023();
        NodeClass nc = new NodeClass(base.name(), base.group(), base.kind(), "AL2023", base.amiSelectorTerms(),
                base.subnetSelectorTerms(), base.securityGroupSelectorTerms(), base.role(), null,
                "#!/bin/bash\necho hello > /etc/motd\n", base.tags(), List.of(), null,
                new NodeClass.Kubelet(null, null, Map.of("cpu", dev.gantry.core.model.Quantity.parse("100m")),
                        Map.of(), Map.of("memory.available", "5%"), Map.of(), Map.of(), List.of(), null, null, null),
                null, null, null);
        NodePool pool = LaunchFixtures.pool("gpu", Map.of("team", "ml"),
                List.of(new Taint("nvidia.com/gpu", "true", Taint.Effect.NoSchedule)),
                List.of(new Taint("example.com/agent-not-ready", "", Taint.Effect.NoExecute)));
        var provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));

        provider.launch(LaunchFixtures.request("gpu-x1y2z", pool, nc, LaunchFixtures.types(nc, "m5.large", "m5.xlarge"),
                List.of("on-demand"), Ec2State.ZONES));

        String ca = LaunchFixtures.CLUSTER.caData();
        assertThat(userData(stub.requests("CreateLaunchTemplate").getFirst())).isEqualTo("""
                MIME-Version: 1.0
                Content-Type: multipart/mixed; boundary="//"

                --//
                Content-Type: text/x-shellscript; charset="us-ascii"

                #!/bin/bash
                echo hello > /etc/motd

                --//
                Content-Type: application/node.eks.aws

                # Gantry generated NodeConfig
                apiVersion: node.eks.aws/v1alpha1
                kind: NodeConfig
                spec:
                  cluster:
                    apiServerEndpoint: https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com
                    certificateAuthority: %s
                    cidr: 172.20.0.0/16
                    name: test-cluster
                  kubelet:
                    config:
                      clusterDNS:
                      - 172.20.0.10
                      evictionHard:
                        memory.available: 5%%
                      kubeReserved:
                        cpu: 100m
                      maxPods: 29
                      registerWithTaints:
                      - effect: NoSchedule
                        key: nvidia.com/gpu
                        value: 'true'
                      - effect: NoExecute
                        key: example.com/agent-not-ready
                    flags:
                    - --node-labels="karpenter.k8s.aws/instance-capability-flex=false,karpenter.k8s.aws/instance-category=m,\
                karpenter.k8s.aws/instance-cpu=2,karpenter.k8s.aws/instance-cpu-manufacturer=intel,\
                karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz=3100,karpenter.k8s.aws/instance-ebs-bandwidth=4750,\
                karpenter.k8s.aws/instance-encryption-in-transit-supported=false,karpenter.k8s.aws/instance-family=m5,\
                karpenter.k8s.aws/instance-generation=5,karpenter.k8s.aws/instance-hypervisor=nitro,\
                karpenter.k8s.aws/instance-memory=8192,karpenter.k8s.aws/instance-network-bandwidth=750,\
                karpenter.k8s.aws/instance-size=large,karpenter.sh/capacity-type=on-demand,karpenter.sh/nodepool=gpu,\
                kubernetes.io/arch=amd64,kubernetes.io/os=linux,node.kubernetes.io/instance-type=m5.large,team=ml"

                --//--
                """.formatted(ca));
        // m5.xlarge takes more pods, so it has its own template (Karpenter groups templates by max pods).
        assertThat(stub.requests("CreateLaunchTemplate")).hasSize(2);
        assertThat(userData(stub.lastRequest("CreateLaunchTemplate"))).contains("      maxPods: 58\n")
                .contains("node.kubernetes.io/instance-type=m5.xlarge");
        assertThat(stub.lastRequest("CreateFleet").params())
                .containsEntry("LaunchTemplateConfigs.1.Overrides.1.InstanceType", "m5.large")
                .containsEntry("LaunchTemplateConfigs.2.Overrides.1.InstanceType", "m5.xlarge");
    }

    /**
     * Regression (#21): every label of the request went to the kubelet, and a kubelet given a {@code kubernetes.io} or
     * {@code k8s.io} label outside its own set does not start ("unknown 'kubernetes.io' or 'k8s.io' labels specified
     * with --node-labels"), so the node never joined. Those labels stay out of the user data (the sweep's registration
     * sets them on the Node); the kubelet's own namespaces stay in.
     */
    /** A RAID0 class's launch template has nodeadm stripe the instance store (it launched as if the policy were absent). */
    @Test
    void aRaid0NodeClassesLaunchTemplateStripesTheInstanceStore() {
        NodeClass nc = LaunchFixtures.al2023().withInstanceStorePolicy(NodeClass.RAID0);
        NodePool pool = LaunchFixtures.pool("nvme", Map.of(), List.of(), List.of());
        var provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));

        provider.launch(LaunchFixtures.request("nvme-a1b2c", pool, nc, LaunchFixtures.types(nc, "m6id.large"),
                List.of("on-demand"), Ec2State.ZONES));

        assertThat(userData(stub.requests("CreateLaunchTemplate").getFirst()))
                .contains("  instance:\n    localStorage:\n      strategy: RAID0\n");
    }

    /**
     * EC2 refuses a launch template whose user data is over 16,384 bytes decoded ("User data is limited to 16384
     * bytes"; the stub too, now): the launch fails for the configuration, not as a capacity shortage, with EC2's words,
     * and no fleet is asked for.
     */
    @Test
    void userDataOverEc2sLimitFailsTheLaunchWithEc2sWords() {
        NodeClass b = LaunchFixtures.al2023();
        String script = "#!/bin/bash\n" + "echo 'a line of the user's own bootstrap script, forty-odd bytes'\n".repeat(300);
        NodeClass nc = new NodeClass(b.name(), b.group(), b.kind(), b.amiFamily(), b.amiSelectorTerms(),
                b.subnetSelectorTerms(), b.securityGroupSelectorTerms(), b.role(), b.instanceProfile(), script, b.tags(),
                b.blockDeviceMappings(), b.metadataOptions(), b.kubelet(), b.associatePublicIPAddress(),
                b.detailedMonitoring(), b.convertedFrom());
        NodePool pool = LaunchFixtures.pool("big", Map.of(), List.of(), List.of());
        var provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("big-a1b2c", pool,
                        nc, LaunchFixtures.types(nc, "m5.large"), List.of("on-demand"), Ec2State.ZONES)))
                .isInstanceOfSatisfying(dev.gantry.core.cloud.CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("InvalidUserData.Malformed");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("User data is limited to 16384 bytes");
                });
        assertThat(stub.requests("CreateFleet")).isEmpty();
    }

    @Test
    void labelsTheKubeletRefusesStayOutOfTheUserDataAndItsOwnNamespacesStayIn() {
        NodeClass nc = LaunchFixtures.al2023();
        NodePool pool = LaunchFixtures.pool("workers", Map.of("node-role.kubernetes.io/worker", "",
                "node-restriction.kubernetes.io/tier", "gold", "example.k8s.io/rack", "r1",
                "node.kubernetes.io/lifecycle", "normal", "team", "ml"), List.of(), List.of());
        var provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));

        provider.launch(LaunchFixtures.request("workers-x1y2z", pool, nc, LaunchFixtures.types(nc, "m5.large"),
                List.of("on-demand"), Ec2State.ZONES));

        String flags = userData(stub.lastRequest("CreateLaunchTemplate")).lines()
                .filter(l -> l.contains("--node-labels=")).findFirst().orElseThrow();
        Map<String, String> labels = new java.util.TreeMap<>();
        for (String kv : flags.substring(flags.indexOf('"') + 1, flags.lastIndexOf('"')).split(",")) {
            labels.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        assertThat(labels).containsEntry("team", "ml").containsEntry("node.kubernetes.io/lifecycle", "normal")
                .doesNotContainKeys("node-role.kubernetes.io/worker", "node-restriction.kubernetes.io/tier",
                        "example.k8s.io/rack");
        assertThat(dev.gantry.core.cloud.KubeletLabels.refusal(labels)).as("what the kubelet would say").isNull();
    }

    @Test
    void seed002BottlerocketNodeClassGetsKubernetesSettingsInToml() throws Exception {
        Path seed = Path.of("../../samples/nodepools/seed002-v1beta1.yaml");
        LoadResult loaded = ConfigLoader.loadString(seed.toString(), Files.readString(seed), LoadOptions.DEFAULT);
        NodePool pool = loaded.nodePools().getFirst();
        NodeClass nodeClass = loaded.nodeClasses().getFirst();
        List<String> zones = List.of("ap-northeast-2a", "ap-northeast-2b");
        Ec2State ec2 = Ec2State.empty()
                .addSubnet(new Subnet("subnet-01aaaaaaaaaaaaaaa", zones.get(0), "apne2-az1", "vpc-1", "10.1.0.0/20", 4000, Map.of()))
                .addSubnet(new Subnet("subnet-02aaaaaaaaaaaaaaa", zones.get(1), "apne2-az2", "vpc-1", "10.1.16.0/20", 4000, Map.of()))
                .addSecurityGroup(new SecurityGroup("sg-0aaaaaaaaaaaaaaa1", "nodes", "vpc-1",
                        Map.of("kubernetes.io/cluster/my-cluster", "owned")))
                .addSecurityGroup(new SecurityGroup("sg-0bbbbbbbbbbbbbbb2", "other", "vpc-1", Map.of()))
                .addImage(new Image("ami-0b0000000000000a1", "bottlerocket-aws-k8s-1.33-x86_64-v1.40.0", "x86_64",
                        Instant.parse("2025-05-01T00:00:00Z"), "092701018921", Map.of()))
                .addImage(new Image("ami-0b0000000000000b1", "bottlerocket-aws-k8s-1.33-aarch64-v1.40.0", "arm64",
                        Instant.parse("2025-05-01T00:00:00Z"), "092701018921", Map.of()));
        stub.close();
        clients.close();
        stub = AwsStub.start(ec2, clock);
        clients = StubClients.of(stub, "provisioner@my-cluster");
        stub.onTarget("AmazonSSM.GetParameter", JsonResponses.ssmParameters(Map.of(
                "/aws/service/bottlerocket/aws-k8s-1.33/x86_64/latest/image_id", "ami-0b0000000000000a1",
                "/aws/service/bottlerocket/aws-k8s-1.33/arm64/latest/image_id", "ami-0b0000000000000b1")));
        var cluster = LaunchFixtures.CLUSTER;
        var config = new Ec2LauncherConfig("my-cluster", "1.33", cluster.endpoint(), cluster.caData(), "10.100.0.0/16",
                "gantry-node-profile", clock);
        var catalog = BuiltInCatalog.load("ap-northeast-2", zones);
        Map<String, InstanceType> byName = new java.util.HashMap<>();
        catalog.instanceTypes(nodeClass).forEach(t -> byName.put(t.name(), t));
        List<InstanceType> options = List.of(byName.get("m6g.large"), byName.get("m6i.large"), byName.get("m6a.large"));

        new Ec2CloudProvider(clients.ec2(), clients.ssm(), config).launch(LaunchFixtures.request("karpenter-node-pool-q7w8e",
                pool, nodeClass, options, List.of("on-demand", "spot"), zones));

        assertThat(stub.requests("AmazonSSM.GetParameter")).extracting(RecordedRequest::body).containsExactlyInAnyOrder(
                "{\"Name\":\"/aws/service/bottlerocket/aws-k8s-1.33/x86_64/latest/image_id\"}",
                "{\"Name\":\"/aws/service/bottlerocket/aws-k8s-1.33/arm64/latest/image_id\"}",
                "{\"Name\":\"/aws/service/bottlerocket/aws-k8s-1.33-nvidia/x86_64/latest/image_id\"}",
                "{\"Name\":\"/aws/service/bottlerocket/aws-k8s-1.33-nvidia/arm64/latest/image_id\"}");
        List<RecordedRequest> templates = stub.requests("CreateLaunchTemplate");
        assertThat(templates).extracting(r -> r.param("LaunchTemplateData.ImageId"))
                .containsExactly("ami-0b0000000000000b1", "ami-0b0000000000000a1");
        RecordedRequest amd64 = templates.get(1);
        assertThat(amd64.params()).containsEntry("LaunchTemplateData.IamInstanceProfile.Name", "gantry-node-profile")
                .containsEntry("LaunchTemplateData.SecurityGroupId.1", "sg-0aaaaaaaaaaaaaaa1")
                .doesNotContainKey("LaunchTemplateData.SecurityGroupId.2")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.DeviceName", "/dev/xvda")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.Ebs.VolumeSize", "2")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.Ebs.VolumeType", "gp3")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.Ebs.DeleteOnTermination", "true")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.2.DeviceName", "/dev/xvdb")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.2.Ebs.VolumeSize", "20")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.2.Ebs.VolumeType", "gp3");
        // Bottlerocket reads the TOML, not its layout (Jackson writes dotted keys, Karpenter [table] headers):
        // the text EC2 receives must parse back to exactly these settings.
        assertThat(TomlTrees.parse(userData(amd64))).isEqualTo(TomlTrees.parse("""
                [settings.kubernetes]
                cluster-name = "my-cluster"
                api-server = "https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com"
                cluster-certificate = "%s"
                cluster-dns-ip = "10.100.0.10"
                max-pods = 29

                [settings.kubernetes.node-labels]
                "karpenter.k8s.aws/instance-capability-flex" = "false"
                "karpenter.k8s.aws/instance-category" = "m"
                "karpenter.k8s.aws/instance-cpu" = "2"
                "karpenter.k8s.aws/instance-ebs-bandwidth" = "10000"
                "karpenter.k8s.aws/instance-encryption-in-transit-supported" = "true"
                "karpenter.k8s.aws/instance-generation" = "6"
                "karpenter.k8s.aws/instance-hypervisor" = "nitro"
                "karpenter.k8s.aws/instance-memory" = "8192"
                "karpenter.k8s.aws/instance-network-bandwidth" = "781"
                "karpenter.k8s.aws/instance-size" = "large"
                "karpenter.sh/capacity-type" = "spot"
                "karpenter.sh/nodepool" = "karpenter-node-pool"
                "kubernetes.io/arch" = "amd64"
                "kubernetes.io/os" = "linux"
                scope = "karpenter-service"
                """.formatted(cluster.caData())));
        assertThat(stub.lastRequest("CreateFleet").params())
                .containsEntry("TargetCapacitySpecification.DefaultTargetCapacityType", "spot")
                .containsEntry("LaunchTemplateConfigs.1.Overrides.1.InstanceType", "m6g.large")
                .containsEntry("LaunchTemplateConfigs.1.Overrides.1.SubnetId", "subnet-01aaaaaaaaaaaaaaa")
                .containsEntry("LaunchTemplateConfigs.2.Overrides.1.InstanceType", "m6i.large")
                .containsEntry("LaunchTemplateConfigs.2.Overrides.3.InstanceType", "m6a.large");
    }
}
