package dev.gantry.config.crd;

import static dev.gantry.config.crd.CrdFixtures.REF;
import static dev.gantry.config.crd.CrdFixtures.SPOT;
import static dev.gantry.config.crd.CrdFixtures.claim;
import static dev.gantry.config.crd.CrdFixtures.claimRequirements;
import static dev.gantry.config.crd.CrdFixtures.nodeClass;
import static dev.gantry.config.crd.CrdFixtures.nodeClassWith;
import static dev.gantry.config.crd.CrdFixtures.object;
import static dev.gantry.config.crd.CrdFixtures.pool;
import static dev.gantry.config.crd.CrdFixtures.poolRequirements;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.crd.CrdValidator.Source;
import dev.gantry.config.crd.CrdValidator.Violation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code x-kubernetes-validations} rule of the three CRDs compiles with cel-java (plus {@link KubernetesCel}'s
 * {@code find}), and each is shown to evaluate: an object that breaks it is refused with its message, on create, or on
 * update for the transition rules. The table must name every rule, so a rule added to a manifest needs an example.
 */
class CrdCelRulesTest {
    /** A breaking object for one rule; {@code old} is set for transition rules (then it is an update). */
    record Example(KarpenterCrd crd, String path, String message, String yaml, String old) {
        @Override
        public String toString() {
            return crd.kind() + " " + path + ": " + message;
        }
    }

    private static final KarpenterCrd NP = KarpenterCrd.NODE_POOL;
    private static final KarpenterCrd NC = KarpenterCrd.NODE_CLAIM;
    private static final KarpenterCrd EC2 = KarpenterCrd.EC2_NODE_CLASS;

    private static Example ex(KarpenterCrd crd, String path, String message, String yaml) {
        return new Example(crd, path, message, yaml, null);
    }

    static List<Example> examples() {
        List<Example> t = new ArrayList<>();
        String tmpl = "spec.template.spec.";
        // NodePool
        t.add(new Example(NP, "spec", "Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes",
                pool("  replicas: 2\n"), pool("")));
        t.add(ex(NP, "spec", "only 'limits.nodes' is supported on static NodePools", pool("  replicas: 2\n  limits: {cpu: 100, nodes: 4}\n")));
        t.add(ex(NP, "spec", "'weight' is not supported on static NodePools", pool("  replicas: 2\n  weight: 10\n")));
        t.add(ex(NP, "spec.disruption.budgets", "'schedule' must be set with 'duration'",
                pool("  disruption: {consolidateAfter: 0s, budgets: [{nodes: \"0\", schedule: \"@daily\"}]}\n")));
        t.add(ex(NP, "spec.template.metadata.labels", "label domain \"karpenter.sh\" is restricted", pool("{karpenter.sh/team: a}", REF, SPOT, "")));
        t.add(ex(NP, "spec.template.metadata.labels", "label \"karpenter.sh/nodepool\" is restricted", pool("{karpenter.sh/nodepool: a}", REF, SPOT, "")));
        t.add(ex(NP, "spec.template.metadata.labels", "label \"kubernetes.io/hostname\" is restricted", pool("{kubernetes.io/hostname: a}", REF, SPOT, "")));
        t.add(ex(NP, "spec.template.metadata.labels", "label domain \"karpenter.k8s.aws\" is restricted", pool("{karpenter.k8s.aws/team: a}", REF, SPOT, "")));
        t.add(new Example(NP, tmpl + "nodeClassRef", "nodeClassRef.group is immutable",
                pool("", "{group: example.com, kind: EC2NodeClass, name: default}", SPOT, ""), pool("")));
        t.add(new Example(NP, tmpl + "nodeClassRef", "nodeClassRef.kind is immutable",
                pool("", "{group: karpenter.k8s.aws, kind: NodeClass, name: default}", SPOT, ""), pool("")));
        t.add(ex(NP, tmpl + "nodeClassRef.group", "group may not be empty", pool("", "{group: \"\", kind: EC2NodeClass, name: default}", SPOT, "")));
        t.add(ex(NP, tmpl + "nodeClassRef.kind", "kind may not be empty", pool("", "{group: karpenter.k8s.aws, kind: \"\", name: default}", SPOT, "")));
        t.add(ex(NP, tmpl + "nodeClassRef.name", "name may not be empty", pool("", "{group: karpenter.k8s.aws, kind: EC2NodeClass, name: \"\"}", SPOT, "")));
        t.addAll(requirementExamples(NP, tmpl + "requirements", true));
        // NodeClaim
        t.add(new Example(NC, "spec", "spec is immutable", claimRequirements("{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}"),
                claimRequirements(SPOT)));
        t.add(ex(NC, "spec.nodeClassRef.group", "group may not be empty", claim("{group: \"\", kind: EC2NodeClass, name: default}", SPOT)));
        t.add(ex(NC, "spec.nodeClassRef.kind", "kind may not be empty", claim("{group: karpenter.k8s.aws, kind: \"\", name: default}", SPOT)));
        t.add(ex(NC, "spec.nodeClassRef.name", "name may not be empty", claim("{group: karpenter.k8s.aws, kind: EC2NodeClass, name: \"\"}", SPOT)));
        t.addAll(requirementExamples(NC, "spec.requirements", false));
        // EC2NodeClass
        t.add(ex(EC2, "spec", "must specify exactly one of ['role', 'instanceProfile']", nodeClass("  instanceProfile: KarpenterNodeInstanceProfile\n")));
        for (String[] f : new String[][] {{"al2", "AL2"}, {"al2023", "AL2023"}, {"bottlerocket", "Bottlerocket"}, {"windows2019", "Windows2019"},
                {"windows2022", "Windows2022"}, {"windows2025", "Windows2025"}}) {
            String other = f[1].equals("AL2023") ? "AL2" : "AL2023";
            t.add(ex(EC2, "spec", "if set, amiFamily must be '" + f[1] + "' or 'Custom' when using a" + (f[0].equals("al2") || f[0].equals("al2023") ? "n " : " ")
                    + f[1] + " alias", nodeClass("[{alias: " + f[0] + "@latest}]", "role: R", "  amiFamily: " + other + "\n")));
        }
        t.add(ex(EC2, "spec", "must specify amiFamily if amiSelectorTerms does not contain an alias", nodeClass("[{id: ami-0123}]", "role: R", "")));
        String ami = "spec.amiSelectorTerms";
        t.add(ex(EC2, ami, "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']",
                nodeClass("[{owner: self}]", "role: R", "  amiFamily: AL2023\n")));
        t.add(ex(EC2, ami, "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
                nodeClass("[{id: ami-0123, name: x}]", "role: R", "  amiFamily: AL2023\n")));
        t.add(ex(EC2, ami, "'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
                nodeClass("[{alias: al2023@latest, owner: self}]", "role: R", "")));
        t.add(ex(EC2, ami, "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms",
                nodeClass("[{alias: al2023@latest}, {name: x}]", "role: R", "")));
        t.add(ex(EC2, ami + "[].alias", "'alias' is improperly formatted, must match the format 'family@version'", nodeClass("[{alias: al2023}]", "role: R", "")));
        t.add(ex(EC2, ami + "[].alias", "family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', 'windows2019', 'windows2022', 'windows2025'",
                nodeClass("[{alias: ubuntu@latest}]", "role: R", "")));
        t.add(ex(EC2, ami + "[].alias", "windows families may only specify version 'latest'", nodeClass("[{alias: windows2022@v20250101}]", "role: R", "")));
        t.add(ex(EC2, ami + "[].tags", "empty tag keys or values aren't supported", nodeClass("[{tags: {Name: \"\"}}]", "role: R", "  amiFamily: AL2023\n")));
        t.add(ex(EC2, "spec.blockDeviceMappings", "must have only one blockDeviceMappings with rootVolume",
                nodeClass("  blockDeviceMappings: [{deviceName: /dev/xvda, rootVolume: true, ebs: {volumeSize: 20Gi}}, "
                        + "{deviceName: /dev/xvdb, rootVolume: true, ebs: {volumeSize: 20Gi}}]\n")));
        t.add(ex(EC2, "spec.blockDeviceMappings[].ebs", "snapshotID or volumeSize must be defined",
                nodeClass("  blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeType: gp3}}]\n")));
        t.add(ex(EC2, "spec.blockDeviceMappings[].ebs", "snapshotID must be set when volumeInitializationRate is set",
                nodeClass("  blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 20Gi, volumeInitializationRate: 200}}]\n")));
        String cr = "spec.capacityReservationSelectorTerms";
        t.add(ex(EC2, cr, "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']",
                nodeClass("  capacityReservationSelectorTerms: [{ownerID: \"123456789012\"}]\n")));
        t.add(ex(EC2, cr, "'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term",
                nodeClass("  capacityReservationSelectorTerms: [{id: cr-0123, ownerID: \"123456789012\"}]\n")));
        t.add(ex(EC2, cr + "[].tags", "empty tag keys or values aren't supported", nodeClass("  capacityReservationSelectorTerms: [{tags: {team: \"\"}}]\n")));
        t.add(ex(EC2, "spec.connectionTracking", "at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set",
                nodeClass("  connectionTracking: {}\n")));
        t.add(ex(EC2, "spec.instanceProfile", "instanceProfile cannot be empty", nodeClass("[{alias: al2023@latest}]", "instanceProfile: \"\"", "")));
        t.add(ex(EC2, "spec.networkInterfaces", "networkInterfaces must include a primary interface with interfaceType='interface'",
                nodeClass("  networkInterfaces: [{networkCardIndex: 0, deviceIndex: 1, interfaceType: interface}]\n")));
        t.add(ex(EC2, "spec.networkInterfaces", "networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can have at most one efa device per network card",
                nodeClass("  networkInterfaces: [{networkCardIndex: 0, deviceIndex: 0, interfaceType: interface}, "
                        + "{networkCardIndex: 0, deviceIndex: 0, interfaceType: interface}]\n")));
        t.add(ex(EC2, "spec.placementGroupSelector", "expected at least one, got none, ['name', 'id']", nodeClass("  placementGroupSelector: {}\n")));
        t.add(ex(EC2, "spec.placementGroupSelector", "'name' and 'id' are mutually exclusive", nodeClass("  placementGroupSelector: {name: a, id: pg-0abc}\n")));
        t.add(ex(EC2, "spec.role", "role cannot be empty", nodeClass("[{alias: al2023@latest}]", "role: \"\"", "")));
        String sg = "spec.securityGroupSelectorTerms";
        t.add(ex(EC2, sg, "securityGroupSelectorTerms cannot be empty", nodeClassWith("securityGroupSelectorTerms", "[]")));
        t.add(ex(EC2, sg, "expected at least one, got none, ['tags', 'id', 'name']", nodeClassWith("securityGroupSelectorTerms", "[{}]")));
        t.add(ex(EC2, sg, "'id' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
                nodeClassWith("securityGroupSelectorTerms", "[{id: sg-0abc, tags: {a: b}}]")));
        t.add(ex(EC2, sg, "'name' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
                nodeClassWith("securityGroupSelectorTerms", "[{name: web, tags: {a: b}}]")));
        t.add(ex(EC2, sg + "[].tags", "empty tag keys or values aren't supported", nodeClassWith("securityGroupSelectorTerms", "[{tags: {a: \"\"}}]")));
        String sn = "spec.subnetSelectorTerms";
        t.add(ex(EC2, sn, "subnetSelectorTerms cannot be empty", nodeClassWith("subnetSelectorTerms", "[]")));
        t.add(ex(EC2, sn, "expected at least one, got none, ['tags', 'id']", nodeClassWith("subnetSelectorTerms", "[{}]")));
        t.add(ex(EC2, sn, "'id' is mutually exclusive, cannot be set with a combination of other fields in a subnet selector term",
                nodeClassWith("subnetSelectorTerms", "[{id: subnet-0abc, tags: {a: b}}]")));
        t.add(ex(EC2, sn + "[].tags", "empty tag keys or values aren't supported", nodeClassWith("subnetSelectorTerms", "[{tags: {a: \"\"}}]")));
        t.add(ex(EC2, "spec.tags", "empty tag keys aren't supported", nodeClass("  tags: {\"\": x}\n")));
        for (String[] tag : new String[][] {{"eks:eks-cluster-name", "eks:eks-cluster-name"}, {"kubernetes.io/cluster/demo", "kubernetes.io/cluster/"},
                {"karpenter.sh/nodepool", "karpenter.sh/nodepool"}, {"karpenter.sh/nodeclaim", "karpenter.sh/nodeclaim"},
                {"karpenter.k8s.aws/ec2nodeclass", "karpenter.k8s.aws/ec2nodeclass"}}) {
            t.add(ex(EC2, "spec.tags", "tag contains a restricted tag matching " + tag[1], nodeClass("  tags: {" + tag[0] + ": x}\n")));
        }
        return t;
    }

    private static List<Example> requirementExamples(KarpenterCrd crd, String path, boolean nodePoolRule) {
        java.util.function.Function<String, String> with = crd == NP ? CrdFixtures::poolRequirements : CrdFixtures::claimRequirements;
        List<Example> t = new ArrayList<>(List.of(
                ex(crd, path, "requirements with operator 'In' must have a value defined", with.apply("{key: karpenter.sh/capacity-type, operator: In, values: []}")),
                ex(crd, path, "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
                        with.apply("{key: karpenter.k8s.aws/instance-generation, operator: Gt, values: [\"5\", \"6\"]}")),
                ex(crd, path, "requirements with 'minValues' must have at least that many values specified in the 'values' field",
                        with.apply("{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large], minValues: 2}")),
                ex(crd, path + "[].key", "label domain \"karpenter.sh\" is restricted", with.apply("{key: karpenter.sh/team, operator: Exists}")),
                ex(crd, path + "[].key", "label \"kubernetes.io/hostname\" is restricted", with.apply("{key: kubernetes.io/hostname, operator: Exists}")),
                ex(crd, path + "[].key", "label domain \"karpenter.k8s.aws\" is restricted", with.apply("{key: karpenter.k8s.aws/team, operator: Exists}"))));
        if (nodePoolRule) {
            t.add(ex(crd, path + "[].key", "label \"karpenter.sh/nodepool\" is restricted", with.apply("{key: karpenter.sh/nodepool, operator: Exists}")));
        }
        return t;
    }

    static Stream<CrdValidator.Rule> allRules(KarpenterCrd crd) {
        return CrdValidator.of(crd).rules().stream();
    }

    @Test
    void everyRuleCompilesSoNoneIsSilentlySkipped() {
        List<String> failed = Arrays.stream(KarpenterCrd.values()).flatMap(CrdCelRulesTest::allRules).filter(r -> !r.compiled().ok())
                .map(r -> r.path() + ": " + r.compiled().rule() + " -> " + r.compiled().error()).toList();
        assertThat(failed).isEmpty();
        assertThat(allRules(NP)).hasSize(20);
        assertThat(allRules(NC)).hasSize(10);
        assertThat(allRules(EC2)).hasSize(44);
    }

    @Test
    void everyRuleHasABreakingExample() {
        Set<String> covered = examples().stream().map(e -> e.crd() + " " + e.path() + " " + e.message()).collect(Collectors.toSet());
        List<String> missing = Arrays.stream(KarpenterCrd.values()).flatMap(c -> allRules(c).map(r -> c + " " + r.path() + " " + r.message()))
                .filter(k -> !covered.contains(k)).toList();
        assertThat(missing).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void refusesAnObjectThatBreaksTheRule(Example e) {
        CrdValidator v = CrdValidator.of(e.crd());
        List<Violation> found = e.old() == null ? v.validateCreate(object(e.yaml())) : v.validateUpdate(object(e.old()), object(e.yaml()));
        assertThat(found).filteredOn(x -> x.source() == Source.CEL && x.path().replaceAll("\\[\\d+]", "[]").equals(e.path()))
                .extracting(x -> x.message().substring(0, Math.min(x.message().length(), e.message().length())))
                .contains(e.message());
        if (e.old() != null) {
            // A transition rule never runs on create: the same object is accepted as new.
            assertThat(v.validateCreate(object(e.yaml()))).isEmpty();
        }
    }

    @Test
    void theFixturesThemselvesPass() {
        assertThat(CrdValidator.of(NP).validateCreate(object(pool("")))).isEmpty();
        assertThat(CrdValidator.of(NC).validateCreate(object(claimRequirements(SPOT)))).isEmpty();
        assertThat(CrdValidator.of(EC2).validateCreate(object(nodeClass("")))).isEmpty();
        assertThat(CrdValidator.of(NP).validateUpdate(object(pool("")), object(pool("  weight: 10\n")))).isEmpty();
    }

    @Test
    void keepsKarpentersAllQuirkOnSelectorTermExclusivity() {
        // Karpenter writes these exclusivity rules as !self.all(...): one bad term among good ones gets through.
        String mixed = nodeClassWith("securityGroupSelectorTerms", "[{id: sg-0abc, tags: {a: b}}, {tags: {c: d}}]");
        assertThat(CrdValidator.of(EC2).validateCreate(object(mixed))).isEmpty();
    }

    @Test
    void aGtRequirementWithAWordIsRefusedBecauseTheRuleFailsToEvaluate() {
        List<Violation> found = CrdValidator.of(NP).validateCreate(object(poolRequirements("{key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: [four]}")));
        assertThat(found).extracting(Violation::toString).singleElement().asString()
                .startsWith("CEL spec.template.spec.requirements: requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value (evaluation error");
    }

}
