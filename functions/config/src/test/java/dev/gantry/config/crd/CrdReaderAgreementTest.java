package dev.gantry.config.crd;

import static dev.gantry.config.crd.CrdFixtures.REF;
import static dev.gantry.config.crd.CrdFixtures.SPOT;
import static dev.gantry.config.crd.CrdFixtures.nodeClass;
import static dev.gantry.config.crd.CrdFixtures.nodeClassWith;
import static dev.gantry.config.crd.CrdFixtures.pool;
import static dev.gantry.config.crd.CrdFixtures.poolRequirements;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.crd.CrdValidator.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Gantry's readers ({@link ConfigLoader}, what {@code gantry validate} and the handlers use) and the CRDs (what the API
 * server enforces) judge a table of objects alike: each row says whether each side refuses it, and a row where only
 * one side refuses says why, so every disagreement is a known one. The invalid rows are the broken variants of
 * MalformedConfigTest, KarpenterRejectsTest and friends that these CRDs serve (older schemas are not served).
 *
 * <p>Known disagreements, in the table below:
 * <ul>
 *   <li>Only the readers refuse: a cron schedule that has five fields but a bad one (the CRD's pattern counts fields);
 *       kubelet field names and eviction signals (the v1.14 CRD keeps {@code spec.kubelet} open and Karpenter checks
 *       it at run time, setting ValidationSucceeded=False); a selector term mixing {@code id} with other fields next to
 *       a good term (Karpenter's rules are written {@code !self.all(...)}, so they catch it only when every term is
 *       mixed).</li>
 *   <li>Only the CRDs refuse: what the API server checks beyond the schema's types and rules: a name that is not a
 *       DNS subdomain, and a budget reason listed twice (a list of type set).</li>
 * </ul>
 */
class CrdReaderAgreementTest {
    record Case(String name, String yaml, boolean readerRefuses, boolean crdRefuses, String why) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case both(String name, String yaml) {
        return new Case(name, yaml, true, true, "");
    }

    private static Case neither(String name, String yaml) {
        return new Case(name, yaml, false, false, "");
    }

    private static Case onlyReader(String name, String yaml, String why) {
        return new Case(name, yaml, true, false, why);
    }

    private static Case onlyCrd(String name, String yaml, String why) {
        return new Case(name, yaml, false, true, why);
    }

    static List<Case> cases() {
        String pool = pool("");
        String cls = nodeClass("");
        String disruption = "  disruption:\n    consolidateAfter: 0s\n    budgets:\n      - ";
        List<Case> t = new ArrayList<>();
        // Valid objects
        t.add(neither("a plain NodePool", pool));
        t.add(neither("a plain EC2NodeClass", cls));
        t.add(neither("zero limits turn a pool off", pool("  limits: {cpu: \"0\", memory: 0, pods: \"0\"}\n")));
        t.add(neither("kubernetes.io and k8s.io labels", pool("{kubernetes.io/team: a, k8s.io/owner: b, example.k8s.io/tier: c}", REF, SPOT, "")));
        t.add(neither("a static NodePool with limits.nodes", pool("  replicas: 3\n  limits: {nodes: 5}\n")));
        t.add(neither("a pool of an Auto Mode NodeClass", pool("", "{group: eks.amazonaws.com, kind: NodeClass, name: default}", SPOT, "")));
        t.add(neither("budgets with schedule, duration and reasons", pool(disruption
                + "{nodes: \"0\", schedule: \"0 9 * * mon-fri\", duration: 8h, reasons: [Drifted]}\n      - nodes: 10%\n")));
        t.add(neither("a pool with taints, startup taints, expiry and grace", pool("  template: {}\n").replace("  template: {}\n", "")
                .replace("      requirements:", "      taints: [{key: gpu, value: \"true\", effect: NoSchedule}]\n"
                        + "      startupTaints: [{key: cilium.io/agent-not-ready, effect: NoExecute}]\n      expireAfter: 336h\n"
                        + "      terminationGracePeriod: 24h\n      requirements:")));
        t.add(neither("Gte and Lte requirements with minValues on In", poolRequirements(
                "{key: karpenter.k8s.aws/instance-cpu, operator: Gte, values: [\"4\"]}, {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5, m6i, c6i], minValues: 2}")));
        t.add(neither("EC2NodeClass fields added since v1.11", nodeClass("""
                  networkInterfaces: [{networkCardIndex: 0, deviceIndex: 0, interfaceType: interface}, {networkCardIndex: 1, deviceIndex: 0, interfaceType: efa-only}]
                  placementGroupSelector: {name: training}
                  connectionTracking: {tcpEstablishedTimeout: 3600, udpTimeout: 30}
                  ipPrefixCount: 2
                  cpuOptions: {nestedVirtualization: enabled}
                  capacityReservationSelectorTerms: [{id: cr-0123456789abcdef0}, {tags: {team: ml}, ownerID: "123456789012"}]
                """)));
        t.add(neither("upstream kubelet fields beyond Karpenter's own", nodeClass("  kubelet: {maxPods: 50, registryPullQPS: 10, containerLogMaxSize: 50Mi}\n")));
        t.add(neither("AMIs by id with an amiFamily, disks and metadata options", nodeClass("[{id: ami-0123456789abcdef0}]", "instanceProfile: KarpenterNodeInstanceProfile", """
                  amiFamily: AL2023
                  blockDeviceMappings: [{deviceName: /dev/xvda, rootVolume: true, ebs: {volumeSize: 100Gi, volumeType: gp3, encrypted: true}}]
                  metadataOptions: {httpTokens: required, httpPutResponseHopLimit: 2}
                  tags: {team: platform}
                """)));
        // NodePool: fields and types (MalformedConfigTest)
        t.add(both("misspelt requirement field", pool.replace("operator: In", "operater: In")));
        t.add(both("unknown spec field", pool("  colour: blue\n")));
        t.add(both("weight as a string", pool("  weight: \"50\"\n")));
        t.add(both("weight above 100", pool("  weight: 101\n")));
        t.add(both("weight zero", pool("  weight: 0\n")));
        t.add(both("requirements as a mapping", pool.replace("requirements: [" + SPOT + "]", "requirements: {a: b}")));
        t.add(both("bad operator", pool.replace("operator: In", "operator: Inn")));
        t.add(both("Gt with a non-integer", poolRequirements("{key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: [four]}")));
        t.add(both("Lt with a negative", poolRequirements("{key: karpenter.k8s.aws/instance-cpu, operator: Lt, values: [\"-1\"]}")));
        t.add(both("In with empty values", poolRequirements("{key: karpenter.sh/capacity-type, operator: In, values: []}")));
        t.add(both("minValues above the values", poolRequirements("{key: karpenter.sh/capacity-type, operator: In, values: [spot], minValues: 2}")));
        t.add(both("restricted label domain in a requirement", poolRequirements("{key: karpenter.sh/team, operator: Exists}")));
        t.add(both("hostname requirement", poolRequirements("{key: kubernetes.io/hostname, operator: Exists}")));
        t.add(both("nodepool requirement", poolRequirements("{key: karpenter.sh/nodepool, operator: In, values: [x]}")));
        t.add(both("restricted template labels", pool("{karpenter.sh/team: a, kubernetes.io/hostname: h, karpenter.k8s.aws/team: c, karpenter.sh/nodepool: x}", REF, SPOT, "")));
        t.add(both("missing nodeClassRef", pool.replace("      nodeClassRef: " + REF + "\n", "")));
        t.add(both("nodeClassRef without group", pool.replace("{group: karpenter.k8s.aws, ", "{")));
        t.add(both("nodeClassRef group with a version", pool.replace("group: karpenter.k8s.aws,", "group: karpenter.k8s.aws/v1,")));
        t.add(both("missing name", pool.replace("metadata: {name: default}", "metadata: {labels: {}}")));
        t.add(both("bad expireAfter", pool.replace("      requirements:", "      expireAfter: 10 days\n      requirements:")));
        t.add(both("terminationGracePeriod Never", pool.replace("      requirements:", "      terminationGracePeriod: Never\n      requirements:")));
        t.add(both("bad limit quantity", pool("  limits: {cpu: 20 cores}\n")));
        t.add(both("v1beta1 policy name in v1", pool("  disruption: {consolidationPolicy: WhenUnderutilized, consolidateAfter: 0s}\n")));
        t.add(both("disruption without consolidateAfter", pool("  disruption: {consolidationPolicy: WhenEmpty}\n")));
        t.add(both("missing requirements", pool.replace("      requirements: [" + SPOT + "]\n", "")));
        t.add(both("requirement values written as numbers", poolRequirements("{key: karpenter.k8s.aws/instance-generation, operator: In, values: [6, \"7\", 8.0]}")));
        t.add(both("budget schedule without duration", pool(disruption + "{nodes: \"0\", schedule: \"0 9 * * mon-fri\"}\n")));
        t.add(onlyReader("budget cron with a minute out of range", pool(disruption + "{nodes: \"0\", schedule: \"61 9 * * *\", duration: 8h}\n"),
                "the CRD's pattern only counts five fields; Karpenter fails to parse the schedule at run time"));
        t.add(both("budget nodes above 100%", pool(disruption + "{nodes: 150%}\n")));
        t.add(both("budget duration with seconds", pool(disruption + "{schedule: \"@daily\", duration: 90s}\n")));
        t.add(onlyCrd("budget reason twice", pool(disruption + "{nodes: \"1\", reasons: [Empty, Empty]}\n"),
                "reasons is a list of type set, whose duplicates the API server refuses; the readers read it as a set"));
        t.add(both("budget unknown reason", pool(disruption + "{reasons: [Expired]}\n")));
        t.add(both("bad taint effect", pool.replace("      requirements:", "      taints: [{key: gpu, effect: NoScheduling}]\n      requirements:")));
        t.add(both("taint without key", pool.replace("      requirements:", "      taints: [{effect: NoSchedule}]\n      requirements:")));
        t.add(both("static pool with a weight and a cpu limit", pool("  replicas: 2\n  weight: 10\n  limits: {cpu: 100, nodes: 4}\n")));
        t.add(both("negative replicas", pool("  replicas: -1\n")));
        // Both let it through: the CRD's label-value pattern sits on the list, where it checks nothing, and the readers
        // do not check values; Karpenter's controller refuses it at run time (ValidationSucceeded=False).
        t.add(neither("a requirement value that is not a label value", poolRequirements("{key: team, operator: In, values: [\"a b\"]}")));
        t.add(both("a template label value that is not a label value", pool("{team: \"a b\"}", REF, SPOT, "")));
        t.add(both("a taint value with a space", pool.replace("      requirements:", "      taints: [{key: gpu, value: \"a b\", effect: NoSchedule}]\n      requirements:")));
        t.add(both("a requirement key with two slashes", poolRequirements("{key: example.com/a/b, operator: Exists}")));
        // EC2NodeClass
        t.add(both("role and instanceProfile", nodeClass("  instanceProfile: KarpenterNodeInstanceProfile\n")));
        t.add(both("neither role nor instanceProfile", nodeClass("[{alias: al2023@latest}]", "", "")));
        t.add(both("empty role", nodeClass("[{alias: al2023@latest}]", "role: \"\"", "")));
        t.add(both("missing subnetSelectorTerms", cls.replaceFirst("(?m)^  subnetSelectorTerms: .*\n", "")));
        t.add(both("missing amiSelectorTerms", cls.replaceFirst("(?m)^  amiSelectorTerms: .*\n", "")));
        t.add(both("AMI ids without amiFamily", nodeClass("[{id: ami-0123456789}]", "role: R", "")));
        t.add(both("unsupported alias family", nodeClass("[{alias: ubuntu@latest}]", "role: R", "")));
        t.add(both("a security group id as a subnet id", nodeClassWith("subnetSelectorTerms", "[{id: sg-123}]")));
        t.add(both("hop limit out of range", nodeClass("  metadataOptions: {httpPutResponseHopLimit: 65}\n")));
        t.add(both("bad volume type", nodeClass("  blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 20Gi, volumeType: gp9}}]\n")));
        t.add(both("volume size as a bare number", nodeClass("  blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 100}}]\n")));
        t.add(both("volume size in Mi", nodeClass("  blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 2048Mi}}]\n")));
        t.add(both("volumeInitializationRate without a snapshot", nodeClass("  blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 20Gi, volumeInitializationRate: 200}}]\n")));
        t.add(both("restricted tag", nodeClass("  tags: {karpenter.sh/nodepool: x}\n")));
        t.add(both("interface type ena", nodeClass("  networkInterfaces: [{networkCardIndex: 0, deviceIndex: 0, interfaceType: ena}]\n")));
        t.add(both("no primary interface", nodeClass("  networkInterfaces: [{networkCardIndex: 0, deviceIndex: 1, interfaceType: interface}]\n")));
        t.add(both("placement group by name and id", nodeClass("  placementGroupSelector: {name: a, id: pg-0abc}\n")));
        t.add(both("udpTimeout out of range", nodeClass("  connectionTracking: {udpTimeout: 90}\n")));
        t.add(both("negative ipPrefixCount", nodeClass("  ipPrefixCount: -1\n")));
        t.add(both("nestedVirtualization on", nodeClass("  cpuOptions: {nestedVirtualization: on}\n")));
        t.add(onlyReader("misspelt kubelet field", nodeClass("  kubelet: {maxPod: 50}\n"),
                "v1.14's CRD leaves spec.kubelet open; Karpenter checks it at run time (ValidationSucceeded=False)"));
        t.add(onlyReader("unknown eviction signal", nodeClass("  kubelet: {evictionHard: {memory.free: 5%}}\n"),
                "v1.14's CRD leaves spec.kubelet open; Karpenter checks it at run time (ValidationSucceeded=False)"));
        t.add(onlyReader("a mixed security group term beside a good one", nodeClassWith("securityGroupSelectorTerms", "[{id: sg-0abc, tags: {a: b}}, {tags: {c: d}}]"),
                "Karpenter's exclusivity rules are !self.all(...): they refuse mixed terms only when every term is mixed"));
        // Envelopes
        t.add(both("unknown kind", "apiVersion: karpenter.sh/v1\nkind: NodePol\nmetadata: {name: x}\n"));
        t.add(both("unsupported apiVersion", "apiVersion: karpenter.sh/v2\nkind: NodePool\nmetadata: {name: x}\n"));
        t.add(onlyCrd("a name with capitals", pool.replace("name: default", "name: Default"),
                "the API server requires a DNS subdomain name; the readers take any name"));
        return t;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readersAndCrdsJudgeAlikeOrTheDifferenceIsKnown(Case c) {
        LoadResult read = ConfigLoader.loadString("t.yaml", c.yaml(), LoadOptions.DEFAULT);
        List<String> crd = crdVerdict(c.yaml());
        assertThat(!read.ok()).as("readers refuse; errors: %s", read.errors()).isEqualTo(c.readerRefuses());
        assertThat(!crd.isEmpty()).as("CRDs refuse; violations: %s", crd).isEqualTo(c.crdRefuses());
        assertThat(c.readerRefuses() == c.crdRefuses() || !c.why().isBlank()).as("a disagreement says why").isTrue();
    }

    /** What the API server says to a create of this object: empty if it is stored. */
    static List<String> crdVerdict(String yaml) {
        Map<String, Object> object = Yaml.one(yaml);
        Optional<KarpenterCrd> crd = KarpenterCrd.serving(String.valueOf(object.get("apiVersion")), String.valueOf(object.get("kind")));
        if (crd.isEmpty()) {
            return List.of("no resource serves " + object.get("apiVersion") + " " + object.get("kind"));
        }
        return CrdValidator.of(crd.get()).validateCreate(object).stream().map(Violation::toString).toList();
    }
}
