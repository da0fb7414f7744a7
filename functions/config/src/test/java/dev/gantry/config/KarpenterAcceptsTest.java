package dev.gantry.config;

import dev.gantry.config.source.Diagnostic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Configurations Karpenter v1.14 (and EKS Auto Mode) accept, which Gantry once rejected: each is loaded without
 * errors, and where Gantry does not act on a field it says so in one warning naming it.
 */
class KarpenterAcceptsTest {
    static final String CLASS = """
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata:
              name: default
            spec:
              amiSelectorTerms:
                - alias: al2023@latest
              role: KarpenterNodeRole
              subnetSelectorTerms:
                - tags: {karpenter.sh/discovery: demo}
              securityGroupSelectorTerms:
                - tags: {karpenter.sh/discovery: demo}
            """;
    static final String POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata:
              name: default
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                    - key: karpenter.sh/capacity-type
                      operator: In
                      values: ["spot"]
            """;

    static LoadResult load(String yaml) {
        return ConfigLoader.loadString("t.yaml", yaml, LoadOptions.DEFAULT);
    }

    static List<String> lines(List<Diagnostic> ds) {
        return ds.stream().map(Diagnostic::toString).toList();
    }

    @Test
    void keepsAZeroLimitSoThePoolIsTurnedOff() {
        LoadResult r = load(POOL + "  limits:\n    cpu: \"0\"\n    memory: 0\n    pods: \"0\"\n");
        assertThat(lines(r.errors())).isEmpty();
        NodePool pool = r.nodePools().getFirst();
        assertThat(pool.limits()).containsEntry("cpu", Quantity.parse("0")).containsEntry("memory", Quantity.parse("0"))
                .containsEntry("pods", Quantity.parse("0"));
    }

    @Test
    void acceptsKubernetesIoAndK8sIoLabelsInANodePoolTemplate() {
        LoadResult r = load(POOL.replace("    spec:\n      nodeClassRef", "    metadata:\n"
                + "      labels: {kubernetes.io/team: a, k8s.io/owner: b, example.k8s.io/tier: c}\n    spec:\n      nodeClassRef") + """
                        - {key: kubernetes.io/team, operator: In, values: [a]}
                        - {key: storage.k8s.io/class, operator: Exists}
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodePools().getFirst().template().labels()).containsEntry("kubernetes.io/team", "a")
                .containsEntry("k8s.io/owner", "b");
    }

    @Test
    void acceptsContainerRuntimeInAProvisionersKubeletConfigurationWithAWarning() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1alpha5
                kind: Provisioner
                metadata: {name: p}
                spec:
                  providerRef: {name: default}
                  kubeletConfiguration:
                    containerRuntime: containerd
                    maxPods: 20
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).contains("t.yaml:7:23: Provisioner/p/spec.kubeletConfiguration.containerRuntime: "
                + "containerRuntime was removed in Karpenter v1beta1 (nodes run containerd); ignored");
    }

    @Test
    void acceptsAStaticNodePoolWithReplicasAndLimitsNodesWithoutAWarning() {
        // Karpenter core pkg/apis/v1/nodepool.go: replicas with only limits.nodes is a valid static NodePool.
        LoadResult r = load(POOL + "  replicas: 3\n  limits:\n    nodes: 5\n");
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodePools()).singleElement().satisfies(p -> assertThat(p.replicas()).isEqualTo(3));
        assertThat(lines(r.warnings())).noneMatch(w -> w.contains("replicas"));
    }

    @Test
    void acceptsEc2NodeClassFieldsAddedSinceV1_11WithOneWarningForEachNotHonoured() {
        LoadResult r = load(CLASS + """
                  networkInterfaces:
                    - {networkCardIndex: 0, deviceIndex: 0, interfaceType: interface}
                    - {networkCardIndex: 1, deviceIndex: 0, interfaceType: efa-only}
                  placementGroupSelector: {name: training}
                  connectionTracking: {tcpEstablishedTimeout: 3600, udpTimeout: 30}
                  ipPrefixCount: 2
                  cpuOptions: {nestedVirtualization: enabled}
                  capacityReservationSelectorTerms:
                    - {tags: {team: ml}, ownerID: "012345678901"}
                    - id: cr-0123456789abcdef0
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodeClasses()).hasSize(1);
        assertThat(lines(r.warnings())).containsExactlyInAnyOrder(
                "t.yaml:14:5: EC2NodeClass/default/spec.networkInterfaces: Gantry does not honour networkInterfaces yet; ignored at launch");
        assertThat(r.nodeClasses().getFirst().placementGroup()).isEqualTo(new NodeClass.PlacementGroupSelector("training", null));
    }

    /**
     * {@code context}, {@code ipPrefixCount}, {@code connectionTracking} and {@code cpuOptions} are read exactly and
     * honoured at launch (they were accepted with a warning that they were ignored).
     */
    @Test
    void readsContextPrefixesConnectionTrackingAndCpuOptionsWithoutAWarning() {
        LoadResult r = load(CLASS + """
                  context: ctx-0123456789
                  ipPrefixCount: 2
                  connectionTracking: {tcpEstablishedTimeout: 3600, udpTimeout: 30}
                  cpuOptions: {nestedVirtualization: enabled}
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).isEmpty();
        NodeClass nc = r.nodeClasses().getFirst();
        assertThat(nc.context()).isEqualTo("ctx-0123456789");
        assertThat(nc.networking()).isEqualTo(new NodeClass.Networking(2,
                new NodeClass.ConnectionTracking(3600, null, 30)));
        assertThat(nc.cpuOptions()).isEqualTo(new NodeClass.CpuOptions("enabled"));
        NodeClass plain = load(CLASS).nodeClasses().getFirst();
        assertThat(plain.context()).isNull();
        assertThat(plain.networking()).isEqualTo(NodeClass.Networking.NONE);
        assertThat(plain.cpuOptions()).isEqualTo(NodeClass.CpuOptions.NONE);
    }

    /** {@code instanceStorePolicy: RAID0} is read and honoured (it was accepted with a warning that it was ignored). */
    @Test
    void readsInstanceStorePolicyWithoutAWarning() {
        LoadResult r = load(CLASS + "  instanceStorePolicy: RAID0\n");
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).isEmpty();
        assertThat(r.nodeClasses().getFirst().instanceStorePolicy()).isEqualTo(NodeClass.RAID0);
        assertThat(load(CLASS).nodeClasses().getFirst().instanceStorePolicy()).isNull();
    }

    @Test
    void acceptsUpstreamKubeletFieldsBeyondKarpentersOwnWithAWarningEach() {
        LoadResult r = load(CLASS + """
                  kubelet:
                    maxPods: 50
                    registryPullQPS: 10
                    containerLogMaxSize: 50Mi
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodeClasses().getFirst().kubelet().maxPods()).isEqualTo(50);
        assertThat(lines(r.warnings())).containsExactly(
                "t.yaml:15:22: EC2NodeClass/default/spec.kubelet.registryPullQPS: Gantry does not pass kubelet.registryPullQPS to the node yet; ignored",
                "t.yaml:16:26: EC2NodeClass/default/spec.kubelet.containerLogMaxSize: Gantry does not pass kubelet.containerLogMaxSize to the node yet; ignored");
    }

    @Test
    void convertsAV1beta1UbuntuNodeClassWithAmiSelectorTermsToAl2AsKarpenterDoes() {
        LoadResult r = load("""
                apiVersion: karpenter.k8s.aws/v1beta1
                kind: EC2NodeClass
                metadata: {name: ubuntu}
                spec:
                  amiFamily: Ubuntu
                  amiSelectorTerms:
                    - {name: "ubuntu-eks/k8s_1.29/images/*", owner: "099720109477"}
                  role: KarpenterNodeRole
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                """);
        assertThat(lines(r.errors())).isEmpty();
        NodeClass nc = r.nodeClasses().getFirst();
        assertThat(nc.amiFamily()).isEqualTo("AL2");
        assertThat(nc.amiSelectorTerms()).extracting(NodeClass.AmiSelectorTerm::owner).containsExactly("099720109477");
        assertThat(nc.blockDeviceMappings()).singleElement().satisfies(b -> {
            assertThat(b.deviceName()).isEqualTo("/dev/sda1");
            assertThat(b.rootVolume()).isTrue();
            assertThat(b.ebs().volumeSize()).isEqualTo(Quantity.parse("20Gi"));
        });
        assertThat(lines(r.warnings())).containsExactly("t.yaml:1:1: EC2NodeClass/ubuntu: converted from "
                + "karpenter.k8s.aws/v1beta1 EC2NodeClass: amiFamily Ubuntu -> AL2 (Ubuntu AMIs from amiSelectorTerms, "
                + "bootstrapped with AL2 user data); Ubuntu's root volume /dev/sda1 20Gi gp3 encrypted");
    }

    @Test
    void acceptsAnAutoModeNodeClassWithoutARoleMeaningTheClustersNodeRole() {
        LoadResult r = load("""
                apiVersion: eks.amazonaws.com/v1
                kind: NodeClass
                metadata: {name: private-compute}
                spec:
                  ephemeralStorage: {size: 160Gi}
                  subnetSelectorTerms: [{tags: {Name: private-subnet}}]
                  securityGroupSelectorTerms: [{tags: {Name: eks-cluster-sg}}]
                """);
        assertThat(lines(r.errors())).isEmpty();
        NodeClass nc = r.nodeClasses().getFirst();
        assertThat(nc.role()).isNull();
        assertThat(nc.instanceProfile()).isNull();
    }

    /**
     * Regression: Auto Mode's {@code ephemeralStorage} is the Bottlerocket data volume ({@code /dev/xvdb}), where images
     * and pods live. It was mapped onto {@code /dev/xvda}, the OS volume: nodes launched with a large OS volume and the
     * image's 20GiB data volume, while scheduling counted the size written. iops, throughput and kmsKeyID were warned
     * of and dropped.
     */
    @Test
    void autoModeEphemeralStorageIsTheDataVolumeWithItsIopsThroughputAndKey() {
        LoadResult r = load("""
                apiVersion: eks.amazonaws.com/v1
                kind: NodeClass
                metadata: {name: fast}
                spec:
                  ephemeralStorage: {size: 160Gi, iops: 6000, throughput: 250, kmsKeyID: "arn:aws:kms:us-east-1:123456789012:key/k"}
                  subnetSelectorTerms: [{id: subnet-0abc}]
                  securityGroupSelectorTerms: [{id: sg-0abc}]
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).isEmpty();
        NodeClass nc = r.nodeClasses().getFirst();
        assertThat(nc.blockDeviceMappings()).containsExactly(
                new NodeClass.BlockDeviceMapping("/dev/xvda", false,
                        new NodeClass.Ebs(Quantity.parse("4Gi"), "gp3", null, null, true, null, true, null)),
                new NodeClass.BlockDeviceMapping("/dev/xvdb", false, new NodeClass.Ebs(Quantity.parse("160Gi"), "gp3",
                        6000, 250, true, "arn:aws:kms:us-east-1:123456789012:key/k", true, null)));
        var m5 = dev.gantry.config.catalog.BuiltInCatalog.load("us-east-1").instanceTypes(nc).stream()
                .filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow();
        assertThat(m5.capacity().ephemeralBytes()).as("the data volume is the ephemeral storage").isEqualTo(160L << 30);
    }

    /**
     * EKS Auto Mode's NodeClass selects reservations as an EC2NodeClass does, its owner spelt {@code owner} (EKS user
     * guide, "Control deployment of workloads into Capacity Reservations with EKS Auto Mode"). Regression: the terms
     * were checked, then dropped with a warning.
     */
    @Test
    void acceptsAutoModeCapacityReservationSelectorTermsAndInstanceProfile() {
        LoadResult r = load("""
                apiVersion: eks.amazonaws.com/v1
                kind: NodeClass
                metadata: {name: odcr}
                spec:
                  instanceProfile: AutoNodeProfile
                  subnetSelectorTerms: [{id: subnet-0abc}]
                  securityGroupSelectorTerms: [{id: sg-0abc}]
                  capacityReservationSelectorTerms:
                    - id: cr-56fac701cc1951b03
                    - tags: {app: my-app}
                      owner: "012345678901"
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodeClasses().getFirst().instanceProfile()).isEqualTo("AutoNodeProfile");
        assertThat(r.nodeClasses().getFirst().capacityReservationSelectorTerms()).containsExactly(
                NodeClass.CapacityReservationSelectorTerm.id("cr-56fac701cc1951b03"),
                new NodeClass.CapacityReservationSelectorTerm(null, "012345678901", Map.of("app", "my-app"), null));
        assertThat(lines(r.warnings())).isEmpty();
    }
}
