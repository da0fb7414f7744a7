package dev.gantry.config;

import dev.gantry.config.source.Diagnostic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.NodePool.ConsolidationPolicy;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The three seeds' configurations, as the posts give them, convert to the v1 shapes their v1 equivalents spell out. */
class SeedConversionTest {
    private static final Path SAMPLES = Path.of("../../samples");

    private static LoadResult load(String... files) {
        return ConfigLoader.load(java.util.Arrays.stream(files).map(SAMPLES::resolve).toList(), LoadOptions.DEFAULT);
    }

    @Test
    void seed000ProvisionerBecomesAWhenEmptyPoolOfTheSevenT3aSizes() {
        LoadResult r = load("nodepools/seed000-provisioner.yaml");
        assertThat(r.errors()).isEmpty();
        NodePool pool = r.nodePools().getFirst();
        assertThat(pool.name()).isEqualTo("default");
        assertThat(pool.convertedFrom()).isEqualTo("karpenter.sh/v1alpha5 Provisioner");
        assertThat(pool.requirements().get(WellKnownLabels.CAPACITY_TYPE)).isEqualTo(ValueSet.in("on-demand"));
        assertThat(pool.requirements().get(WellKnownLabels.INSTANCE_TYPE)).isEqualTo(ValueSet.in("t3a.nano", "t3a.micro",
                "t3a.small", "t3a.medium", "t3a.large", "t3a.xlarge", "t3a.2xlarge"));
        assertThat(pool.limits()).containsEntry("cpu", Quantity.parse("20")).containsEntry("memory", Quantity.parse("100Gi"));
        assertThat(pool.disruption().consolidationPolicy()).isEqualTo(ConsolidationPolicy.WhenEmpty);
        assertThat(pool.disruption().consolidateAfter()).contains(Duration.ofSeconds(30));
        assertThat(pool.template().expireAfter()).contains(Duration.ofMinutes(10));
        NodeClass implicit = r.nodeClasses().getFirst();
        assertThat(implicit.name()).isEqualTo("default");
        assertThat(implicit.instanceProfile()).isEqualTo("KarpenterNodeInstanceProfile-karpenter-sample");
        assertThat(implicit.tags()).containsEntry("Name", "KarpenterControlNode");
        assertThat(pool.template().nodeClassRef().name()).isEqualTo("default");
        assertThat(r.warnings()).extracting(Diagnostic::toString).containsExactly(
                "../../samples/nodepools/seed000-provisioner.yaml:8:5: Provisioner/default/spec.requirements: Karpenter v0.31 "
                        + "default applied: kubernetes.io/os In [linux]",
                "../../samples/nodepools/seed000-provisioner.yaml:8:5: Provisioner/default/spec.requirements: Karpenter v0.31 "
                        + "default applied: kubernetes.io/arch In [amd64]",
                "../../samples/nodepools/seed000-provisioner.yaml:2:1: Provisioner/default: converted from karpenter.sh/v1alpha5 "
                        + "Provisioner to NodePool: provider -> EC2NodeClass/default; ttlSecondsAfterEmpty 30 -> WhenEmpty after 30s; "
                        + "ttlSecondsUntilExpired 600 -> expireAfter 10m0s; limits.resources -> limits");
    }

    @Test
    void seed000ConvertsToTheSamePoolAsItsV1Equivalent() {
        NodePool converted = load("nodepools/seed000-provisioner.yaml").nodePools().getFirst();
        NodePool v1 = load("nodepools/seed000-v1.yaml").nodePools().getFirst();
        assertThat(converted.template().requirements()).isEqualTo(v1.template().requirements());
        assertThat(converted.limits()).isEqualTo(v1.limits());
        assertThat(converted.disruption()).isEqualTo(v1.disruption());
        assertThat(converted.template().expireAfter()).isEqualTo(v1.template().expireAfter());
    }

    @Test
    void seed001AutoModeLabelsAreKarpenterLabelsAndTheNodeClassMapsWithWarnings() {
        LoadResult r = load("nodepools/seed001-auto-mode.yaml");
        assertThat(r.errors()).isEmpty();
        NodePool pool = r.nodePools().getFirst();
        NodePool v1 = load("nodepools/seed001-v1.yaml").nodePools().getFirst();
        assertThat(pool.template().requirements()).isEqualTo(v1.template().requirements());
        assertThat(pool.template().terminationGracePeriod()).contains(Duration.ofHours(24));
        assertThat(pool.template().expireAfter()).contains(Duration.ofHours(336));
        NodeClass nc = r.nodeClasses().getFirst();
        assertThat(nc.group()).isEqualTo("eks.amazonaws.com");
        assertThat(nc.kind()).isEqualTo("NodeClass");
        assertThat(nc.role()).isEqualTo("eks-workshop-auto-auto-node");
        assertThat(nc.subnetSelectorTerms()).hasSize(3);
        assertThat(nc.blockDeviceMappings()).extracting(NodeClass.BlockDeviceMapping::deviceName)
                .containsExactly("/dev/xvda", "/dev/xvdb");
        NodeClass.Ebs data = nc.blockDeviceMappings().get(1).ebs();
        assertThat(data.volumeSize()).isEqualTo(Quantity.parse("80Gi"));
        assertThat(data.iops()).isEqualTo(3000);
        assertThat(data.throughput()).isEqualTo(125);
        assertThat(r.warnings()).extracting(Diagnostic::field).containsExactlyInAnyOrder("spec.networkPolicy",
                "spec.networkPolicyEventLogs", "spec.snatPolicy");
    }

    @Test
    void seed002V1beta1ConvertsPolicyGroupAndAmiFamilyWithOneWarningEach() {
        LoadResult r = load("nodepools/seed002-v1beta1.yaml");
        assertThat(r.errors()).isEmpty();
        NodePool pool = r.nodePools().getFirst();
        assertThat(pool.disruption().consolidationPolicy()).isEqualTo(ConsolidationPolicy.WhenEmptyOrUnderutilized);
        assertThat(pool.disruption().consolidateAfter()).contains(Duration.ZERO);
        assertThat(pool.template().nodeClassRef()).isEqualTo(new NodePool.NodeClassRef("karpenter.k8s.aws", "EC2NodeClass", "default"));
        assertThat(pool.weight()).isEqualTo(50);
        assertThat(pool.template().labels()).containsEntry("scope", "karpenter-service");
        NodeClass nc = r.nodeClasses().getFirst();
        assertThat(nc.amiSelectorTerms()).containsExactly(NodeClass.AmiSelectorTerm.alias("bottlerocket@latest"));
        assertThat(nc.effectiveAmiFamily()).isEqualTo("Bottlerocket");
        assertThat(r.warnings()).hasSize(2);
        NodePool v1 = load("nodepools/seed002-v1.yaml").nodePools().getFirst();
        assertThat(pool.template().requirements()).isEqualTo(v1.template().requirements());
        assertThat(pool.disruption()).isEqualTo(v1.disruption());
    }

    @Test
    void v1beta1ExpireAfterAndKubeletMoveToTheirV1Places() {
        LoadResult r = ConfigLoader.loadString("t.yaml", """
                apiVersion: karpenter.sh/v1beta1
                kind: NodePool
                metadata: {name: p}
                spec:
                  template:
                    spec:
                      nodeClassRef: {name: c}
                      requirements: []
                      kubelet: {maxPods: 20}
                  disruption:
                    consolidationPolicy: WhenEmpty
                    consolidateAfter: 1m
                    expireAfter: Never
                ---
                apiVersion: karpenter.k8s.aws/v1beta1
                kind: EC2NodeClass
                metadata: {name: c}
                spec:
                  amiFamily: AL2023
                  role: r
                  subnetSelectorTerms: [{id: subnet-1}]
                  securityGroupSelectorTerms: [{id: sg-1}]
                """, LoadOptions.STRICT);
        assertThat(r.errors()).isEmpty();
        assertThat(r.nodePools().getFirst().template().expireAfter()).isEqualTo(Optional.empty());
        assertThat(r.nodeClasses().getFirst().kubelet().maxPods()).isEqualTo(20);
        assertThat(r.nodeClasses().getFirst().amiSelectorTerms()).containsExactly(NodeClass.AmiSelectorTerm.alias("al2023@latest"));
    }

    @Test
    void seed002DeploymentExpandsToThreePodsWithItsAffinityAndRequests() {
        LoadResult r = load("workloads/seed002-nginx.yaml");
        assertThat(r.errors()).isEmpty();
        assertThat(r.pods()).extracting(Pod::name).containsExactly("nginx-0", "nginx-1", "nginx-2");
        Pod p = r.pods().getFirst();
        assertThat(p.requests().cpuMillis()).isEqualTo(250);
        assertThat(p.requests().memoryBytes()).isEqualTo(512L << 20);
        assertThat(p.ownerKind()).isEqualTo("ReplicaSet");
        assertThat(p.nodeRequirementTerms()).hasSize(1);
        assertThat(p.nodeRequirementTerms().getFirst().get(WellKnownLabels.CAPACITY_TYPE)).isEqualTo(ValueSet.in("spot"));
    }

    @Test
    void wholeSamplesFolderLoadsWithoutErrors() {
        LoadResult r = load("nodepools", "workloads");
        assertThat(r.errors()).isEmpty();
        assertThat(r.nodePools()).extracting(NodePool::name).containsExactlyInAnyOrder("batch-labelled", "default", "gpu", "seed000",
                "general-purpose", "seed001-general-purpose", "seed002-node-pool", "karpenter-node-pool");
        NodePool fromProvisioner = r.nodePools().stream().filter(p -> p.name().equals("default")).findFirst().orElseThrow();
        assertThat(fromProvisioner.template().nodeClassRef().name()).isEqualTo("default-provider");
        assertThat(r.nodeClasses()).extracting(NodeClass::name).contains("default-provider");
        assertThat(List.of(r.ok())).containsExactly(true);
    }
}
