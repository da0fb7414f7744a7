package dev.gantry.core.disruption.drift;

import dev.gantry.core.disruption.drift.hash.DriftHashesTest;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Each drift reason, in Karpenter v1.14's order, and the hash-version migration: core
 * {@code pkg/controllers/nodeclaim/disruption/drift.go} (NodePoolDrifted, RequirementsDrifted, InstanceTypeNotFound
 * after 1 h), core {@code pkg/controllers/nodepool/hash/controller.go} (re-stamp, not drift, on a version change),
 * aws {@code pkg/cloudprovider/drift.go} (NodeClassDrift, AMIDrift, SecurityGroupDrift, SubnetDrift).
 */
class DriftCheckTest {
    static final Instant NOW = LifecycleFixtures.T0;
    static final NodePool POOL = DriftHashesTest.POOL;
    static final NodeClass CLASS = DriftHashesTest.CLASS;
    static final Map<String, String> LABELS = Map.of("node.kubernetes.io/instance-type", "m5.large",
            "topology.kubernetes.io/zone", "us-east-1a", "karpenter.sh/capacity-type", "spot", "kubernetes.io/arch", "amd64",
            "team", "a");
    static final InstanceType M5 = new InstanceType("m5.large", Map.of("kubernetes.io/arch", "amd64"),
            Resources.of(2000, 8L << 30), Resources.ZERO, List.of(Offering.of("us-east-1a", "spot", 0.04)));
    static final NodeClassResolution.Selected SELECTED = new NodeClassResolution.Selected(
            Map.of("amd64", "ami-new", "arm64", "ami-arm"), Set.of("subnet-1", "subnet-2"), Set.of("sg-1"));

    /** Launched two hours ago, stamped from POOL and CLASS. */
    static NodeClaim claim() {
        Instant at = NOW.minus(Duration.ofHours(2));
        return NodeClaim.launching("a", "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "spot", 0.04, at).launched("i-a", "m5.large", "us-east-1a", "spot", 0.04, at).registered("node-a", at)
                .initialized(at).withDrift(DriftHashes.stamp(POOL, CLASS));
    }

    static CloudInstance instance(String image, String subnet, List<String> sgs) {
        return new CloudInstance("i-a", "m5.large", "us-east-1a", "spot", "running", NOW, "ip", Map.of(), image, subnet, sgs);
    }

    static String reason(NodeClaim c, NodePool pool, NodeClass nc, CloudInstance i, List<InstanceType> offered) {
        return DriftCheck.reason(c, DriftCheck.restamp(c.drift(), pool, nc), LABELS, i,
                new DriftCheck.Current(pool, nc, offered, Optional.of(SELECTED)), NOW);
    }

    static final CloudInstance CURRENT = instance("ami-new", "subnet-1", List.of("sg-1"));

    @Test
    void aClaimLaunchedFromTheCurrentConfigIsNotDrifted() {
        assertThat(reason(claim(), POOL, CLASS, CURRENT, List.of(M5))).isNull();
    }

    @Test
    void aChangedTemplateDriftsAsNodePoolDrifted() {
        NodePool changed = DriftHashesTest.pool(DriftHashesTest.with(0, Map.of("team", "a", "tier", "web")));
        assertThat(reason(claim(), changed, CLASS, CURRENT, List.of(M5))).isEqualTo(DriftCheck.NODEPOOL);
    }

    @Test
    void requirementsDriftOnlyWhenTheLabelsNoLongerFit() {
        NodePool narrowed = DriftHashesTest.pool(DriftHashesTest.with(4,
                List.of(Requirement.of("karpenter.sh/capacity-type", Operator.In, "on-demand"))));
        assertThat(reason(claim(), narrowed, CLASS, CURRENT, List.of(M5))).isEqualTo(DriftCheck.REQUIREMENTS);
        NodePool widened = DriftHashesTest.pool(DriftHashesTest.with(4,
                List.of(Requirement.of("karpenter.sh/capacity-type", Operator.In, "spot", "on-demand", "reserved"))));
        assertThat(reason(claim(), widened, CLASS, CURRENT, List.of(M5))).as("widening never drifts").isNull();
        NodePool newKey = DriftHashesTest.pool(DriftHashesTest.with(4, List.of(Requirement.of("tier", Operator.In, "web"))));
        assertThat(reason(claim(), newKey, CLASS, CURRENT, List.of(M5))).as("a key the node lacks").isEqualTo(DriftCheck.REQUIREMENTS);
        NodePool instanceLabel = DriftHashesTest.pool(DriftHashesTest.with(4, List.of(Requirement.of("kubernetes.io/arch", Operator.In, "amd64"))));
        assertThat(reason(claim(), instanceLabel, CLASS, CURRENT, List.of(M5))).isNull();
    }

    @Test
    void instanceTypeGoneDriftsOnlyAfterAnHour() {
        InstanceType other = new InstanceType("c5.large", Map.of(), Resources.of(2000, 4L << 30), Resources.ZERO,
                List.of(Offering.of("us-east-1a", "spot", 0.03)));
        assertThat(reason(claim(), POOL, CLASS, CURRENT, List.of(other))).isEqualTo(DriftCheck.INSTANCE_TYPE);
        NodeClaim young = NodeClaim.launching("b", "general", "h", List.of(), List.of(), List.of(), "m5.large", "us-east-1a",
                "spot", 0.04, NOW.minus(Duration.ofMinutes(59))).withDrift(DriftHashes.stamp(POOL, CLASS));
        assertThat(reason(young, POOL, CLASS, CURRENT, List.of(other))).isNull();
        InstanceType unavailable = M5.withOfferings(List.of(Offering.of("us-east-1a", "spot", 0.04).unavailable()));
        assertThat(reason(claim(), POOL, CLASS, CURRENT, List.of(unavailable))).as("no capacity is not drift").isNull();
    }

    @Test
    void aChangedNodeClassDriftsAsNodeClassDrift() {
        NodeClass changed = DriftHashesTest.nodeClass("#!/bin/bash\necho bye", CLASS.tags(), null, null);
        assertThat(reason(claim(), POOL, changed, CURRENT, List.of(M5))).isEqualTo(DriftCheck.NODECLASS);
    }

    @Test
    void anImageNoLongerResolvedForItsArchitectureDriftsAsAmiDrift() {
        assertThat(reason(claim(), POOL, CLASS, instance("ami-old", "subnet-1", List.of("sg-1")), List.of(M5))).isEqualTo(DriftCheck.AMI);
        assertThat(reason(claim(), POOL, CLASS, instance("ami-arm", "subnet-1", List.of("sg-1")), List.of(M5)))
                .as("another architecture's image").isEqualTo(DriftCheck.AMI);
    }

    @Test
    void underAnAliasAGpuNodeIsJudgedAgainstItsNvidiaImageAndAStandardOneAgainstTheStandard() {
        // The node's type (named as LABELS name it) has GPUs: known from the type, the node need not carry the label.
        InstanceType gpuType = new InstanceType("m5.large", Map.of("kubernetes.io/arch", "amd64",
                "karpenter.k8s.aws/instance-gpu-count", "1"), Resources.of(4000, 16L << 30), Resources.ZERO,
                List.of(Offering.of("us-east-1a", "spot", 0.4)));
        var variants = new NodeClassResolution.Selected(Map.of("amd64/standard", "ami-std", "amd64/nvidia", "ami-gpu",
                "amd64/neuron", "ami-neuron"), Set.of("subnet-1"), Set.of("sg-1"));
        java.util.function.BiFunction<String, InstanceType, String> judge = (image, type) -> DriftCheck.reason(claim(),
                DriftCheck.restamp(claim().drift(), POOL, CLASS), LABELS, instance(image, "subnet-1", List.of("sg-1")),
                new DriftCheck.Current(POOL, CLASS, List.of(type), Optional.of(variants)), NOW);

        assertThat(judge.apply("ami-gpu", gpuType)).isNull();
        assertThat(judge.apply("ami-std", gpuType)).as("a GPU node launched on the standard image has no drivers")
                .isEqualTo(DriftCheck.AMI);
        assertThat(judge.apply("ami-std", M5)).isNull();
        assertThat(judge.apply("ami-gpu", M5)).isEqualTo(DriftCheck.AMI);
    }

    @Test
    void securityGroupsMustBeExactlyTheSelectedOnesAndTheSubnetAmongThem() {
        assertThat(reason(claim(), POOL, CLASS, instance("ami-new", "subnet-1", List.of("sg-1", "sg-2")), List.of(M5)))
                .isEqualTo(DriftCheck.SECURITY_GROUP);
        assertThat(reason(claim(), POOL, CLASS, instance("ami-new", "subnet-9", List.of("sg-1")), List.of(M5)))
                .isEqualTo(DriftCheck.SUBNET);
        assertThat(reason(claim(), POOL, CLASS, instance("ami-new", "subnet-2", List.of("sg-1")), List.of(M5))).isNull();
    }

    @Test
    void unknownDynamicFactsDecideNothing() {
        assertThat(reason(claim(), POOL, CLASS, null, List.of(M5))).isNull();
        assertThat(DriftCheck.reason(claim(), claim().drift(), LABELS, instance("ami-old", "subnet-9", List.of("sg-9")),
                new DriftCheck.Current(POOL, CLASS, null, Optional.empty()), NOW)).isNull();
    }

    @Test
    void aClaimWithoutAStampIsStampedNotDrifted() {
        NodeClaim old = LifecycleFixtures.initialized("a", "general");
        assertThat(old.drift()).isNull();
        DriftStamp s = DriftCheck.restamp(null, POOL, CLASS);
        assertThat(s).isEqualTo(DriftHashes.stamp(POOL, CLASS));
        assertThat(reason(old, POOL, CLASS, CURRENT, List.of(M5))).isNull();
    }

    @Test
    void aHashVersionChangeReStampsClaimsThatAreNotDriftedAndDriftsNothing() {
        // A claim stamped by an older Gantry: other hashes under other versions (the template changed meanwhile too).
        DriftStamp old = DriftStamp.launched("0000", "gantry-0", "1111", "gantry-0");
        DriftStamp restamped = DriftCheck.restamp(old, POOL, CLASS);
        assertThat(restamped).isEqualTo(DriftHashes.stamp(POOL, CLASS));
        NodeClaim c = LifecycleFixtures.initialized("a", "general").withDrift(old);
        assertThat(reason(c, POOL, CLASS, CURRENT, List.of(M5))).isNull();
    }

    @Test
    void aDriftedClaimKeepsItsHashThroughAVersionChange() {
        DriftStamp old = DriftStamp.launched("0000", "gantry-0", "1111", "gantry-0").drift(DriftCheck.NODEPOOL, NOW.minusSeconds(60));
        DriftStamp restamped = DriftCheck.restamp(old, POOL, CLASS);
        assertThat(restamped.nodePoolHash()).isEqualTo("0000");
        assertThat(restamped.nodePoolHashVersion()).isEqualTo(DriftHashes.NODEPOOL_VERSION);
        assertThat(restamped.drifted()).isEqualTo(DriftCheck.NODEPOOL);
        assertThat(restamped.driftedAt()).isEqualTo(NOW.minusSeconds(60));
    }
}
