package dev.gantry.core.disruption.drift.hash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The static hashes: what drifts and what does not, as Karpenter v1.14 draws the line (core
 * {@code pkg/apis/v1/nodepool.go}: requirements and budgets {@code hash:"ignore"}, only {@code spec.template} hashed;
 * aws {@code pkg/apis/v1/ec2nodeclass.go}: selector terms, amiFamily and kubelet ignored in the struct, the resolved
 * family and the kubelet hashed beside it; docs {@code concepts/disruption.md}: behavioural fields never drift,
 * expireAfter and terminationGracePeriod do).
 */
public class DriftHashesTest {
    public static final NodePool.Template TEMPLATE = new NodePool.Template(Map.of("team", "a"), Map.of("note", "x"),
            List.of(new Taint("dedicated", "gpu", Taint.Effect.NoSchedule)), List.of(),
            List.of(Requirement.of("karpenter.sh/capacity-type", Operator.In, "spot", "on-demand")),
            new NodePool.NodeClassRef(null, null, "default"), null, Optional.empty());
    public static final NodePool POOL = new NodePool("general", Map.of(), TEMPLATE, null, Map.of(), null, null);

    public static NodeClass nodeClass(String userData, Map<String, String> tags, NodeClass.MetadataOptions md, String family) {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", family,
                List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")), List.of(NodeClass.SelectorTerm.id("subnet-1")),
                List.of(NodeClass.SelectorTerm.id("sg-1")), "NodeRole", null, userData, tags, List.of(), md, null, null, null, null);
    }

    public static final NodeClass CLASS = nodeClass("#!/bin/bash\necho hi", Map.of("env", "prod", "team", "a"), null, null);

    public static NodePool pool(NodePool.Template t) {
        return new NodePool("general", Map.of(), t, null, Map.of(), null, null);
    }

    static NodePool.Template template(UnaryOperator<List<Object>> change) {
        List<Object> f = new java.util.ArrayList<>(List.of(TEMPLATE.labels(), TEMPLATE.annotations(), TEMPLATE.taints(),
                TEMPLATE.startupTaints(), TEMPLATE.requirements(), TEMPLATE.nodeClassRef(), TEMPLATE.expireAfter(),
                TEMPLATE.terminationGracePeriod()));
        f = change.apply(f);
        @SuppressWarnings("unchecked")
        NodePool.Template t = new NodePool.Template((Map<String, String>) f.get(0), (Map<String, String>) f.get(1),
                (List<Taint>) f.get(2), (List<Taint>) f.get(3), (List<Requirement>) f.get(4), (NodePool.NodeClassRef) f.get(5),
                (Optional<Duration>) f.get(6), (Optional<Duration>) f.get(7));
        return t;
    }

    public static NodePool.Template with(int index, Object value) {
        return template(f -> {
            f.set(index, value);
            return f;
        });
    }

    @Test
    void hashIsStableAcrossMapOrderAndTaintOrder() {
        Map<String, String> reversed = new LinkedHashMap<>();
        reversed.put("team", "a");
        reversed.put("env", "prod");
        Map<String, String> ordered = new LinkedHashMap<>();
        ordered.put("env", "prod");
        ordered.put("team", "a");
        assertThat(DriftHashes.nodeClass(nodeClass("u", reversed, null, null)))
                .isEqualTo(DriftHashes.nodeClass(nodeClass("u", ordered, null, null)));
        Taint a = new Taint("a", "1", Taint.Effect.NoSchedule);
        Taint b = new Taint("b", "", Taint.Effect.NoExecute);
        assertThat(DriftHashes.nodePool(pool(with(2, List.of(a, b))))).isEqualTo(DriftHashes.nodePool(pool(with(2, List.of(b, a)))));
    }

    @Test
    void defaultsWrittenOrOmittedHashTheSame() {
        // expireAfter: unset is Karpenter's 720h; metadataOptions: unset is IMDSv2 required, hop limit 1
        assertThat(DriftHashes.nodePool(pool(with(6, null))))
                .isEqualTo(DriftHashes.nodePool(pool(with(6, Optional.of(Duration.ofHours(720))))));
        assertThat(DriftHashes.nodeClass(nodeClass("u", Map.of(), null, null)))
                .isEqualTo(DriftHashes.nodeClass(nodeClass("u", Map.of(), new NodeClass.MetadataOptions("enabled", "disabled", 1, "required"), null)));
        // amiFamily is hashed as resolved: writing AL2023 beside al2023@latest is no change (aws ec2nodeclass.go Hash)
        assertThat(DriftHashes.nodeClass(nodeClass("u", Map.of(), null, "AL2023")))
                .isEqualTo(DriftHashes.nodeClass(nodeClass("u", Map.of(), null, null)));
    }

    @Test
    void everyTemplateFieldOutsideRequirementsDrifts() {
        String base = DriftHashes.nodePool(POOL);
        assertThat(DriftHashes.nodePool(pool(with(0, Map.of("team", "b"))))).isNotEqualTo(base);
        assertThat(DriftHashes.nodePool(pool(with(1, Map.of("note", "y"))))).isNotEqualTo(base);
        assertThat(DriftHashes.nodePool(pool(with(2, List.of())))).isNotEqualTo(base);
        assertThat(DriftHashes.nodePool(pool(with(3, List.of(new Taint("boot", "", Taint.Effect.NoSchedule)))))).isNotEqualTo(base);
        assertThat(DriftHashes.nodePool(pool(with(5, new NodePool.NodeClassRef(null, null, "other"))))).isNotEqualTo(base);
        assertThat(DriftHashes.nodePool(pool(with(6, Optional.of(Duration.ofHours(24)))))).isNotEqualTo(base);
        assertThat(DriftHashes.nodePool(pool(with(6, Optional.empty())))).as("expireAfter: Never").isNotEqualTo(base);
        assertThat(DriftHashes.nodePool(pool(with(7, Optional.of(Duration.ofMinutes(30)))))).isNotEqualTo(base);
    }

    @Test
    void requirementsAndBehaviouralFieldsNeverDrift() {
        String base = DriftHashes.nodePool(POOL);
        assertThat(DriftHashes.nodePool(pool(with(4, List.of())))).isEqualTo(base);
        NodePool.Disruption d = new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ofHours(1)),
                List.of(new NodePool.Budget("1", Optional.empty(), Optional.empty(), List.of(NodePool.Reason.Drifted))));
        NodePool behaviour = new NodePool("general", Map.of("a", "b"), TEMPLATE, d, Map.of("cpu", Quantity.of(10)), 50, null);
        assertThat(DriftHashes.nodePool(behaviour)).isEqualTo(base);
    }

    @Test
    void everyStaticNodeClassFieldDriftsAndSelectorsDoNot() {
        String base = DriftHashes.nodeClass(CLASS);
        NodeClass c = CLASS;
        List<NodeClass> changed = List.of(
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), "other", c.tags(), c.blockDeviceMappings(),
                        c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), c.detailedMonitoring(), null),
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), Map.of("env", "dev"),
                        c.blockDeviceMappings(), c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), c.detailedMonitoring(), null),
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(),
                        List.of(new NodeClass.BlockDeviceMapping("/dev/xvda", true, new NodeClass.Ebs(Quantity.parse("100Gi"), "gp3",
                                null, null, true, null, true, null))), c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(),
                        c.detailedMonitoring(), null),
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(), c.blockDeviceMappings(),
                        new NodeClass.MetadataOptions("enabled", "disabled", 2, "required"), c.kubelet(), c.associatePublicIPAddress(),
                        c.detailedMonitoring(), null),
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(), c.blockDeviceMappings(),
                        c.metadataOptions(), new NodeClass.Kubelet(110, null, null, null, null, null, null, null, null, null, null),
                        c.associatePublicIPAddress(), c.detailedMonitoring(), null),
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(), c.blockDeviceMappings(),
                        c.metadataOptions(), c.kubelet(), true, c.detailedMonitoring(), null),
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(), c.blockDeviceMappings(),
                        c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), true, null),
                new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), "OtherRole", c.instanceProfile(), c.userData(), c.tags(), c.blockDeviceMappings(),
                        c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), c.detailedMonitoring(), null),
                new NodeClass(c.name(), c.group(), c.kind(), "Bottlerocket", List.of(), c.subnetSelectorTerms(),
                        c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(), c.blockDeviceMappings(),
                        c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), c.detailedMonitoring(), null),
                c.withInstanceStorePolicy(NodeClass.RAID0),
                c.withContext("ctx-0123"),
                c.withNetworking(new NodeClass.Networking(null, new NodeClass.ConnectionTracking(3600, null, null))),
                c.withNetworking(new NodeClass.Networking(null, new NodeClass.ConnectionTracking(null, null, 30))),
                c.withCpuOptions(new NodeClass.CpuOptions("enabled")),
                c.withPlacementGroup(new NodeClass.PlacementGroupSelector("training", null)),
                c.withPlacementGroup(new NodeClass.PlacementGroupSelector(null, "pg-0123456789abcdef0")));
        for (NodeClass x : changed) {
            assertThat(DriftHashes.nodeClass(x)).as(x.toString()).isNotEqualTo(base);
        }
        NodeClass selectors = new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(),
                List.of(NodeClass.AmiSelectorTerm.alias("al2023@v20260101")), List.of(NodeClass.SelectorTerm.id("subnet-2")),
                List.of(NodeClass.SelectorTerm.id("sg-2")), c.role(), c.instanceProfile(), c.userData(), c.tags(),
                c.blockDeviceMappings(), c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), c.detailedMonitoring(), "v1beta1");
        assertThat(DriftHashes.nodeClass(selectors)).as("selector terms are dynamic drift").isEqualTo(base);
        NodeClass reservations = new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(),
                c.subnetSelectorTerms(), c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(),
                c.blockDeviceMappings(), c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), c.detailedMonitoring(),
                null, List.of(NodeClass.CapacityReservationSelectorTerm.id("cr-1")), Map.of());
        assertThat(DriftHashes.nodeClass(reservations)).as("reservation terms are dynamic drift").isEqualTo(base);
        assertThat(DriftHashes.nodeClass(c.withNetworking(new NodeClass.Networking(4, null))))
                .as("ipPrefixCount is not hashed, as in Karpenter").isEqualTo(base);
    }

    @Test
    void quantitiesHashByValue() {
        NodeClass.Ebs gi = new NodeClass.Ebs(Quantity.parse("1Gi"), "gp3", null, null, null, null, null, null);
        NodeClass.Ebs mi = new NodeClass.Ebs(Quantity.parse("1024Mi"), "gp3", null, null, null, null, null, null);
        assertThat(DriftHashes.nodeClass(withDevice(gi))).isEqualTo(DriftHashes.nodeClass(withDevice(mi)));
    }

    private static NodeClass withDevice(NodeClass.Ebs ebs) {
        NodeClass c = CLASS;
        return new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(),
                List.of(new NodeClass.BlockDeviceMapping("/dev/xvda", true, ebs)), c.metadataOptions(), c.kubelet(),
                c.associatePublicIPAddress(), c.detailedMonitoring(), null);
    }
}
