package dev.gantry.config;

import static dev.gantry.config.KarpenterAcceptsTest.CLASS;
import static dev.gantry.config.KarpenterAcceptsTest.POOL;
import static dev.gantry.config.KarpenterAcceptsTest.lines;
import static dev.gantry.config.KarpenterAcceptsTest.load;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Configurations the Karpenter v1.14 CRDs (or the API server) reject, which Gantry once accepted: each is an error
 * on the line that is wrong.
 */
class KarpenterRejectsTest {
    @Test
    void rejectsAnEbsVolumeSizeWrittenAsABareNumberOrInMi() {
        LoadResult r = load(CLASS + """
                  blockDeviceMappings:
                    - deviceName: /dev/xvda
                      ebs: {volumeSize: 100}
                    - deviceName: /dev/xvdb
                      ebs: {volumeSize: 2048Mi}
                    - deviceName: /dev/xvdc
                      ebs: {volumeSize: 100Gi}
                """);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:15:25: EC2NodeClass/default/spec.blockDeviceMappings[0].ebs.volumeSize: expected a string, got the integer 100",
                "t.yaml:17:25: EC2NodeClass/default/spec.blockDeviceMappings[1].ebs.volumeSize: '2048Mi' is not a volume size "
                        + "(whole Gi, G, Ti or T: 20Gi, 100G, 1Ti; at most 59000Gi, 64000G, 58Ti or 64T)");
    }

    @Test
    void rejectsAnEmptyRoleAndAVolumeInitializationRateWithoutASnapshot() {
        LoadResult r = load(CLASS.replace("role: KarpenterNodeRole", "role: \"\"") + """
                  blockDeviceMappings:
                    - deviceName: /dev/xvda
                      ebs: {volumeSize: 20Gi, volumeInitializationRate: 200}
                """);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:8:9: EC2NodeClass/default/spec.role: role cannot be empty",
                "t.yaml:15:57: EC2NodeClass/default/spec.blockDeviceMappings[0].ebs.volumeInitializationRate: snapshotID must be set when volumeInitializationRate is set");
    }

    @Test
    void rejectsANodeClassRefGroupWithAVersionOnTheGroupLine() {
        LoadResult r = load(POOL.replace("group: karpenter.k8s.aws,", "group: karpenter.k8s.aws/v1,"));
        assertThat(lines(r.errors())).containsExactly("t.yaml:8:29: NodePool/default/spec.template.spec.nodeClassRef.group: "
                + "'karpenter.k8s.aws/v1' is not an API group: a group has no '/' (write karpenter.k8s.aws, without the version)");
        assertThat(r.nodePools()).isEmpty();
    }

    @Test
    void requiresConsolidateAfterWhenAV1NodePoolWritesDisruption() {
        LoadResult r = load(POOL + "  disruption:\n    consolidationPolicy: WhenEmpty\n");
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:14:5: NodePool/default/spec.disruption.consolidateAfter: required field is missing");
    }

    @Test
    void requiresRequirementsInTheTemplateSpec() {
        LoadResult r = load(POOL.replace("""
                      requirements:
                        - key: karpenter.sh/capacity-type
                          operator: In
                          values: ["spot"]
                """, ""));
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:8:7: NodePool/default/spec.template.spec.requirements: required field is missing");
    }

    @Test
    void rejectsRequirementValuesWrittenAsNumbers() {
        LoadResult r = load(POOL + """
                        - key: karpenter.k8s.aws/instance-generation
                          operator: In
                          values: [6, "7", 8.0]
                """);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:15:20: NodePool/default/spec.template.spec.requirements[1].values[0]: expected a string, got the integer 6 (quote it: \"6\")",
                "t.yaml:15:28: NodePool/default/spec.template.spec.requirements[1].values[2]: expected a string, got the number 8.0 (quote it: \"8.0\")");
    }

    @Test
    void rejectsAStaticNodePoolWithAResourceLimitOrAWeight() {
        // Karpenter core pkg/apis/v1/nodepool.go CEL: only limits.nodes, and no weight, when replicas is set.
        LoadResult r = load(POOL + "  replicas: 2\n  weight: 10\n  limits:\n    cpu: 100\n    nodes: 4\n");
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:14:11: NodePool/default/spec.weight: 'weight' is not supported on static NodePools (replicas is set)",
                "t.yaml:16:5: NodePool/default/spec.limits: only 'limits.nodes' is supported on static NodePools (replicas is set)");
    }

    @Test
    void rejectsANegativeReplicaCount() {
        LoadResult r = load(POOL + "  replicas: -1\n");
        assertThat(lines(r.errors())).containsExactly("t.yaml:13:13: NodePool/default/spec.replicas: must not be negative, got -1");
    }

    @Test
    void stillRejectsKarpenterAndHostnameLabelsInANodePoolTemplate() {
        LoadResult r = load(POOL.replace("    spec:\n      nodeClassRef", "    metadata:\n      labels: {karpenter.sh/team: a, "
                + "kubernetes.io/hostname: h, karpenter.k8s.aws/team: c, karpenter.sh/nodepool: x}\n    spec:\n      nodeClassRef") + """
                        - {key: karpenter.sh/nodepool, operator: In, values: [x]}
                        - {key: karpenter.k8s.aws/instance-tenancy, operator: In, values: [default]}
                """);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:8:16: NodePool/default/spec.template.metadata.labels.karpenter.sh/team: label domain \"karpenter.sh\" is restricted",
                "t.yaml:8:38: NodePool/default/spec.template.metadata.labels.kubernetes.io/hostname: label \"kubernetes.io/hostname\" is restricted",
                "t.yaml:8:65: NodePool/default/spec.template.metadata.labels.karpenter.k8s.aws/team: label domain \"karpenter.k8s.aws\" is restricted",
                "t.yaml:8:92: NodePool/default/spec.template.metadata.labels.karpenter.sh/nodepool: label \"karpenter.sh/nodepool\" is restricted",
                "t.yaml:15:17: NodePool/default/spec.template.spec.requirements[1].key: label \"karpenter.sh/nodepool\" is restricted");
    }

    @Test
    void rejectsMisshapenEc2NodeClassFieldsAddedSinceV1_11() {
        LoadResult r = load(CLASS + """
                  networkInterfaces:
                    - {networkCardIndex: 0, deviceIndex: 1, interfaceType: ena}
                  placementGroupSelector: {name: a, id: pg-0abc}
                  connectionTracking: {udpTimeout: 90}
                  ipPrefixCount: -1
                  cpuOptions: {nestedVirtualization: on}
                """);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:14:60: EC2NodeClass/default/spec.networkInterfaces[0].interfaceType: must be interface or efa-only, got 'ena'",
                "t.yaml:14:5: EC2NodeClass/default/spec.networkInterfaces: networkInterfaces must include a primary interface (networkCardIndex 0, deviceIndex 0, interfaceType interface)",
                "t.yaml:15:27: EC2NodeClass/default/spec.placementGroupSelector: 'name' and 'id' are mutually exclusive",
                "t.yaml:16:36: EC2NodeClass/default/spec.connectionTracking.udpTimeout: must be between 30 and 60, got 90",
                "t.yaml:17:18: EC2NodeClass/default/spec.ipPrefixCount: must not be negative, got -1",
                "t.yaml:18:38: EC2NodeClass/default/spec.cpuOptions.nestedVirtualization: must be enabled or disabled, got 'on'");
    }

    @Test
    void suggestsTheNearestKubeletFieldForAMisspeltOne() {
        LoadResult r = load(CLASS + "  kubelet:\n    maxPod: 50\n");
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:14:5: EC2NodeClass/default/spec.kubelet.maxPod: unknown field \"maxPod\", did you mean \"maxPods\"?");
    }

    @Test
    void stillRejectsUbuntuWithoutAmiSelectorTerms() {
        LoadResult r = load("""
                apiVersion: karpenter.k8s.aws/v1beta1
                kind: EC2NodeClass
                metadata: {name: ubuntu}
                spec:
                  amiFamily: Ubuntu
                  role: KarpenterNodeRole
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                """);
        assertThat(lines(r.errors())).containsExactly("t.yaml:5:14: EC2NodeClass/ubuntu/spec.amiFamily: Ubuntu was removed "
                + "in karpenter.k8s.aws/v1 and Karpenter ignores a converted Ubuntu NodeClass without amiSelectorTerms; "
                + "select the Ubuntu AMIs with amiSelectorTerms (they are then launched as AL2)");
    }

    @Test
    void rejectsAnAutoModeNodeClassWithBothRoleAndInstanceProfile() {
        LoadResult r = load("""
                apiVersion: eks.amazonaws.com/v1
                kind: NodeClass
                metadata: {name: x}
                spec:
                  role: AutoNodeRole
                  instanceProfile: AutoNodeProfile
                  subnetSelectorTerms: [{id: subnet-0abc}]
                  securityGroupSelectorTerms: [{id: sg-0abc}]
                  capacityReservationSelectorTerms: [{id: cr-1, owner: "1"}]
                """);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:6:20: NodeClass/x/spec.instanceProfile: exactly one of role or instanceProfile is allowed, not both",
                "t.yaml:9:43: NodeClass/x/spec.capacityReservationSelectorTerms[0].id: id cannot be combined with other fields in a term",
                "t.yaml:9:56: NodeClass/x/spec.capacityReservationSelectorTerms[0].owner: '1' is not a 12-digit account id");
    }
}
