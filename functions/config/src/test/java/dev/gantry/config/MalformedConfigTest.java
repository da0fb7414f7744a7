package dev.gantry.config;

import dev.gantry.config.source.Diagnostic;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each malformed snippet yields exactly one error, at the written line and column, with the expected message. */
class MalformedConfigTest {
    private static final String POOL = """
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
    private static final String CLASS = """
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

    static Stream<Arguments> cases() {
        return Stream.of(
                // NodePool: fields and types
                Arguments.of("unknown field with a near miss", POOL.replace("      operator: In", "      operater: In"),
                        "t.yaml:11:11: NodePool/default/spec.template.spec.requirements[0].operater: unknown field \"operater\", did you mean \"operator\"?"),
                Arguments.of("unknown field without a near miss", POOL + "  colour: blue\n",
                        "t.yaml:13:3: NodePool/default/spec.colour: unknown field \"colour\""),
                Arguments.of("weight as a string", POOL + "  weight: \"50\"\n",
                        "t.yaml:13:11: NodePool/default/spec.weight: expected an integer, got the string \"50\""),
                Arguments.of("weight above 100", POOL + "  weight: 101\n",
                        "t.yaml:13:11: NodePool/default/spec.weight: must be between 1 and 100, got 101"),
                Arguments.of("weight zero", POOL + "  weight: 0\n",
                        "t.yaml:13:11: NodePool/default/spec.weight: must be between 1 and 100, got 0"),
                Arguments.of("requirements as a mapping", POOL.replace("      requirements:\n        - key: karpenter.sh/capacity-type\n          operator: In\n          values: [\"spot\"]\n", "      requirements: {a: b}\n"),
                        "t.yaml:9:21: NodePool/default/spec.template.spec.requirements: expected a list, got a mapping"),
                Arguments.of("bad operator", POOL.replace("operator: In", "operator: Inn"),
                        "t.yaml:11:21: NodePool/default/spec.template.spec.requirements[0].operator: 'Inn' is not an operator (In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte), did you mean \"In\"?"),
                Arguments.of("Gt with a non-integer", POOL.replace("operator: In", "operator: Gt").replace("[\"spot\"]", "[\"four\"]"),
                        "t.yaml:12:19: NodePool/default/spec.template.spec.requirements[0].values: operator Gt needs an integer value, not 'four'"),
                Arguments.of("Lt with a negative", POOL.replace("operator: In", "operator: Lt").replace("[\"spot\"]", "[\"-1\"]"),
                        "t.yaml:12:19: NodePool/default/spec.template.spec.requirements[0].values: operator Lt needs a non-negative integer value, not '-1'"),
                Arguments.of("In with empty values", POOL.replace("[\"spot\"]", "[]"),
                        "t.yaml:12:19: NodePool/default/spec.template.spec.requirements[0].values: operator In needs at least one value"),
                Arguments.of("minValues above the values", POOL.replace("values: [\"spot\"]", "values: [\"spot\"]\n          minValues: 2"),
                        "t.yaml:13:22: NodePool/default/spec.template.spec.requirements[0].minValues: minValues 2 is more than the 1 values given"),
                Arguments.of("restricted label domain", POOL.replace("key: karpenter.sh/capacity-type", "key: karpenter.sh/team"),
                        "t.yaml:10:16: NodePool/default/spec.template.spec.requirements[0].key: label domain \"karpenter.sh\" is restricted"),
                Arguments.of("hostname requirement", POOL.replace("key: karpenter.sh/capacity-type", "key: kubernetes.io/hostname"),
                        "t.yaml:10:16: NodePool/default/spec.template.spec.requirements[0].key: label \"kubernetes.io/hostname\" is restricted"),
                Arguments.of("restricted template label", POOL.replace("    spec:\n      nodeClassRef", "    metadata:\n      labels: {karpenter.k8s.aws/team: a}\n    spec:\n      nodeClassRef"),
                        "t.yaml:8:16: NodePool/default/spec.template.metadata.labels.karpenter.k8s.aws/team: label domain \"karpenter.k8s.aws\" is restricted"),
                Arguments.of("missing nodeClassRef", POOL.replace("      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n", ""),
                        "t.yaml:8:7: NodePool/default/spec.template.spec.nodeClassRef: required field is missing"),
                Arguments.of("nodeClassRef without group", POOL.replace("{group: karpenter.k8s.aws, ", "{"),
                        "t.yaml:8:21: NodePool/default/spec.template.spec.nodeClassRef.group: required field is missing"),
                Arguments.of("missing name", POOL.replace("  name: default\n", "  labels: {}\n"),
                        "t.yaml:4:3: NodePool/<unnamed>/metadata.name: required field is missing"),
                Arguments.of("bad expireAfter", POOL.replace("      requirements:", "      expireAfter: 10 days\n      requirements:"),
                        "t.yaml:9:20: NodePool/default/spec.template.spec.expireAfter: '10 days' is not a duration (whole hours, minutes, seconds: 30s, 10m, 24h0m0s, or Never)"),
                Arguments.of("terminationGracePeriod Never", POOL.replace("      requirements:", "      terminationGracePeriod: Never\n      requirements:"),
                        "t.yaml:9:31: NodePool/default/spec.template.spec.terminationGracePeriod: Never is not allowed here"),
                Arguments.of("bad limit quantity", POOL + "  limits:\n    cpu: 20 cores\n",
                        "t.yaml:14:10: NodePool/default/spec.limits.cpu: '20 cores' is not a Kubernetes quantity (e.g. 250m, 1.5, 512Mi, 100Gi)"),
                Arguments.of("v1beta1 policy in v1", POOL + "  disruption:\n    consolidationPolicy: WhenUnderutilized\n    consolidateAfter: 0s\n",
                        "t.yaml:14:26: NodePool/default/spec.disruption.consolidationPolicy: 'WhenUnderutilized' is not a consolidationPolicy (WhenEmpty, WhenEmptyOrUnderutilized, Balanced) (WhenUnderutilized is the v1beta1 name of WhenEmptyOrUnderutilized)"),
                Arguments.of("budget schedule without duration", POOL + "  disruption:\n    budgets:\n      - nodes: \"0\"\n        schedule: \"0 9 * * mon-fri\"\n    consolidateAfter: 0s\n",
                        "t.yaml:16:19: NodePool/default/spec.disruption.budgets[0].schedule: a schedule needs a duration (how long the budget is active after each firing)"),
                Arguments.of("budget invalid cron", POOL + "  disruption:\n    budgets:\n      - nodes: \"0\"\n        schedule: \"61 9 * * *\"\n        duration: 8h\n    consolidateAfter: 0s\n",
                        "t.yaml:16:19: NodePool/default/spec.disruption.budgets[0].schedule: '61 9 * * *' is not a cron schedule: minute field '61' is out of range 0-59"),
                Arguments.of("budget nodes pattern", POOL + "  disruption:\n    budgets:\n      - nodes: 150%\n    consolidateAfter: 0s\n",
                        "t.yaml:15:16: NodePool/default/spec.disruption.budgets[0].nodes: '150%' is not a node count or percentage (e.g. 5, 10%, 100%)"),
                Arguments.of("budget duration with seconds", POOL + "  disruption:\n    budgets:\n      - schedule: \"@daily\"\n        duration: 90s\n    consolidateAfter: 0s\n",
                        "t.yaml:16:19: NodePool/default/spec.disruption.budgets[0].duration: '90s' is not a budget duration (hours and minutes: 8h, 30m, 1h30m)"),
                Arguments.of("budget unknown reason", POOL + "  disruption:\n    budgets:\n      - reasons: [Expired]\n    consolidateAfter: 0s\n",
                        "t.yaml:15:18: NodePool/default/spec.disruption.budgets[0].reasons: 'Expired' is not a disruption reason (Empty, Drifted, Underutilized)"),
                Arguments.of("bad taint effect", POOL.replace("      requirements:", "      taints:\n        - {key: gpu, effect: NoScheduling}\n      requirements:"),
                        "t.yaml:10:30: NodePool/default/spec.template.spec.taints[0].effect: 'NoScheduling' is not a taint effect (NoSchedule, PreferNoSchedule, NoExecute)"),
                Arguments.of("taint without key", POOL.replace("      requirements:", "      taints:\n        - {effect: NoSchedule}\n      requirements:"),
                        "t.yaml:10:11: NodePool/default/spec.template.spec.taints[0].key: required field is missing"),
                // EC2NodeClass
                Arguments.of("role and instanceProfile", CLASS + "  instanceProfile: KarpenterNodeInstanceProfile\n",
                        "t.yaml:13:20: EC2NodeClass/default/spec.instanceProfile: exactly one of role or instanceProfile is allowed, not both"),
                Arguments.of("neither role nor instanceProfile", CLASS.replace("  role: KarpenterNodeRole\n", ""),
                        "t.yaml:6:3: EC2NodeClass/default/spec.role: exactly one of role or instanceProfile is required"),
                Arguments.of("missing subnetSelectorTerms", CLASS.replace("  subnetSelectorTerms:\n    - tags: {karpenter.sh/discovery: demo}\n", ""),
                        "t.yaml:6:3: EC2NodeClass/default/spec.subnetSelectorTerms: required field is missing"),
                Arguments.of("missing amiSelectorTerms", CLASS.replace("  amiSelectorTerms:\n    - alias: al2023@latest\n", ""),
                        "t.yaml:6:3: EC2NodeClass/default/spec.amiSelectorTerms: required field is missing"),
                Arguments.of("amiSelectorTerms without alias needs amiFamily", CLASS.replace("alias: al2023@latest", "id: ami-0123456789"),
                        "t.yaml:6:3: EC2NodeClass/default/spec.amiFamily: required when amiSelectorTerms has no alias"),
                Arguments.of("unsupported alias family", CLASS.replace("al2023@latest", "ubuntu@latest"),
                        "t.yaml:7:14: EC2NodeClass/default/spec.amiSelectorTerms[0].alias: family 'ubuntu' is not supported, must be one of [al2, al2023, bottlerocket, windows2019, windows2022, windows2025]"),
                Arguments.of("bad subnet id", CLASS.replace("- tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms", "- id: sg-123\n  securityGroupSelectorTerms"),
                        "t.yaml:10:11: EC2NodeClass/default/spec.subnetSelectorTerms[0].id: 'sg-123' is not a subnet-… id"),
                Arguments.of("hop limit out of range", CLASS + "  metadataOptions:\n    httpPutResponseHopLimit: 65\n",
                        "t.yaml:14:30: EC2NodeClass/default/spec.metadataOptions.httpPutResponseHopLimit: must be between 1 and 64, got 65"),
                Arguments.of("bad volume type", CLASS + "  blockDeviceMappings:\n    - deviceName: /dev/xvda\n      ebs: {volumeSize: 20Gi, volumeType: gp9}\n",
                        "t.yaml:15:43: EC2NodeClass/default/spec.blockDeviceMappings[0].ebs.volumeType: 'gp9' is not a volume type [gp2, gp3, io1, io2, sc1, st1, standard]"),
                Arguments.of("kubelet unknown eviction signal", CLASS + "  kubelet:\n    evictionHard: {memory.free: 5%}\n",
                        "t.yaml:14:20: EC2NodeClass/default/spec.kubelet.evictionHard.memory.free: valid keys for evictionHard are [imagefs.available, imagefs.inodesFree, memory.available, nodefs.available, nodefs.inodesFree, pid.available]"),
                Arguments.of("restricted tag", CLASS + "  tags:\n    karpenter.sh/nodepool: x\n",
                        "t.yaml:14:5: EC2NodeClass/default/spec.tags.karpenter.sh/nodepool: tag 'karpenter.sh/nodepool' is restricted (Karpenter sets it)"),
                // Envelopes and files
                Arguments.of("unknown kind with a near miss", "apiVersion: karpenter.sh/v1\nkind: NodePol\nmetadata: {name: x}\n",
                        "t.yaml:2:7: kind: unknown kind \"NodePol\", did you mean \"NodePool\"?"),
                Arguments.of("unsupported apiVersion", "apiVersion: karpenter.sh/v2\nkind: NodePool\nmetadata: {name: x}\n",
                        "t.yaml:1:13: apiVersion: apiVersion karpenter.sh/v2 is not supported for NodePool (karpenter.sh/v1, karpenter.sh/v1beta1)"),
                Arguments.of("not YAML at all", "apiVersion: v1\nkind: [unclosed\n",
                        "t.yaml:3:1: not YAML: expected ',' or ']', but got <stream end>"),
                Arguments.of("a scalar document", "just some words\n",
                        "t.yaml:1:1: not a Kubernetes object: expected a mapping with apiVersion and kind, got the string \"just some words\""),
                // Older schemas
                Arguments.of("v1beta1 consolidateAfter with WhenUnderutilized", POOL.replace("karpenter.sh/v1\n", "karpenter.sh/v1beta1\n")
                                .replace("{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}", "{name: default}")
                                + "  disruption:\n    consolidationPolicy: WhenUnderutilized\n    consolidateAfter: 30s\n",
                        "t.yaml:15:23: NodePool/default/spec.disruption.consolidateAfter: cannot be combined with consolidationPolicy WhenUnderutilized"),
                Arguments.of("provisioner with provider and providerRef", """
                        apiVersion: karpenter.sh/v1alpha5
                        kind: Provisioner
                        metadata: {name: p}
                        spec:
                          provider: {instanceProfile: x}
                          providerRef: {name: y}
                        """,
                        "t.yaml:5:3: Provisioner/p/spec.provider: exactly one of provider or providerRef is required"),
                Arguments.of("workload with a bad request", """
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: p}
                        spec:
                          containers:
                            - name: c
                              resources: {requests: {memory: 1GB}}
                        """,
                        "t.yaml:7:38: Pod/p/spec.containers[0].resources.requests.memory: '1GB' is not a Kubernetes quantity (e.g. 250m, 1.5, 512Mi, 100Gi)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsTheExactLineColumnAndMessage(String name, String yaml, String expected) {
        LoadResult r = ConfigLoader.loadString("t.yaml", yaml, LoadOptions.DEFAULT);
        assertThat(r.errors()).extracting(Diagnostic::toString).containsExactly(expected);
        assertThat(r.ok()).isFalse();
    }
}
