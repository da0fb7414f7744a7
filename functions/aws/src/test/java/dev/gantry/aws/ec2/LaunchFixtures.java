package dev.gantry.aws.ec2;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.JsonResponses;
import java.util.List;
import java.util.Map;

/**
 * Defaults for launch tests: the stub's cluster, a deployment whose node role is the stub's, an AL2023 NodeClass naming
 * that role and selecting the stub's default resources.
 */
final class LaunchFixtures {
    static final JsonResponses.EksCluster CLUSTER = JsonResponses.EksCluster.defaults();

    private LaunchFixtures() {}

    static Ec2LauncherConfig config(java.time.Clock clock) {
        return new Ec2LauncherConfig(Ec2State.CLUSTER, "1.33", CLUSTER.endpoint(), CLUSTER.caData(),
                CLUSTER.serviceCidr(), Ec2State.NODE_INSTANCE_PROFILE, clock,
                Map.of(Ec2State.NODE_ROLE, Ec2State.NODE_INSTANCE_PROFILE));
    }

    static NodeClass al2023() {
        Map<String, String> discovery = Map.of(Ec2State.DISCOVERY_TAG, Ec2State.CLUSTER);
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", null,
                List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")),
                List.of(new NodeClass.SelectorTerm(null, null, discovery)),
                List.of(new NodeClass.SelectorTerm(null, null, discovery)),
                Ec2State.NODE_ROLE, null, null, Map.of("team", "platform"), List.of(), null, null, null, null, null);
    }

    /** {@code base} selecting its images by {@code terms} instead. */
    static NodeClass withAmis(NodeClass base, List<NodeClass.AmiSelectorTerm> terms) {
        return copy(base, terms, base.blockDeviceMappings());
    }

    /** {@code base} with one encrypted gp3 {@code /dev/xvda} of {@code size} ({@code 2Gi}) as its block devices. */
    static NodeClass withRootVolume(NodeClass base, String size) {
        return copy(base, base.amiSelectorTerms(), List.of(new NodeClass.BlockDeviceMapping("/dev/xvda", true,
                new NodeClass.Ebs(dev.gantry.core.model.Quantity.parse(size), "gp3", null, null, true, null, true, null))));
    }

    /** {@code base} naming {@code role} or {@code instanceProfile} (one of them null) as what its nodes run as. */
    static NodeClass withIdentity(NodeClass base, String role, String instanceProfile) {
        return new NodeClass(base.name(), base.group(), base.kind(), base.amiFamily(), base.amiSelectorTerms(),
                base.subnetSelectorTerms(), base.securityGroupSelectorTerms(), role, instanceProfile, base.userData(),
                base.tags(), base.blockDeviceMappings(), base.metadataOptions(), base.kubelet(),
                base.associatePublicIPAddress(), base.detailedMonitoring(), base.convertedFrom(),
                base.capacityReservationSelectorTerms(), base.annotations());
    }

    private static NodeClass copy(NodeClass base, List<NodeClass.AmiSelectorTerm> terms,
                                  List<NodeClass.BlockDeviceMapping> devices) {
        return new NodeClass(base.name(), base.group(), base.kind(), base.amiFamily(), terms, base.subnetSelectorTerms(),
                base.securityGroupSelectorTerms(), base.role(), base.instanceProfile(), base.userData(), base.tags(), devices,
                base.metadataOptions(), base.kubelet(), base.associatePublicIPAddress(), base.detailedMonitoring(),
                base.convertedFrom(), base.capacityReservationSelectorTerms(), base.annotations());
    }

    static NodePool pool(String name, Map<String, String> labels, List<Taint> taints, List<Taint> startupTaints) {
        return new NodePool(name, Map.of(), new NodePool.Template(labels, Map.of(), taints, startupTaints, List.of(),
                new NodePool.NodeClassRef(null, null, "default"), null, null), null, Map.of(), null, null);
    }

    static NodePool pool() {
        return pool("general", Map.of("team", "web"), List.of(), List.of());
    }

    /** Catalogue types by name, in the order given, under {@code nodeClass}, offered in the stub's zones. */
    static List<InstanceType> types(NodeClass nodeClass, String... names) {
        var catalog = BuiltInCatalog.load("us-east-1", Ec2State.ZONES);
        Map<String, InstanceType> byName = new java.util.HashMap<>();
        catalog.instanceTypes(nodeClass).forEach(t -> byName.put(t.name(), t));
        return java.util.Arrays.stream(names).map(byName::get).toList();
    }

    static LaunchRequest request(String claim, NodePool pool, NodeClass nodeClass, List<InstanceType> options,
                                 List<String> capacityTypes, List<String> zones) {
        Requirements reqs = pool.requirements()
                .with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(capacityTypes))
                .with(WellKnownLabels.ZONE, ValueSet.in(zones));
        List<Taint> taints = new java.util.ArrayList<>(pool.template().taints());
        taints.addAll(pool.template().startupTaints());
        return new LaunchRequest(claim, pool, nodeClass, options, reqs, pool.template().labels(), taints);
    }

    static LaunchRequest request(String claim, List<String> capacityTypes) {
        NodeClass nc = al2023();
        return request(claim, pool(), nc, types(nc, "c5.large", "m5.large"), capacityTypes, Ec2State.ZONES);
    }
}
