package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Quantity;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.ConnectionTrackingSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateBlockDeviceMappingRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateInstanceNetworkInterfaceSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateTagSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.RequestLaunchTemplateData;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * Ensures a launch template exists for a {@link LaunchTemplateSpec}, creating it on first use, tagged with the
 * spec's tags (cluster, NodePool and the NodeClass's own). The name is the spec's
 * hash, so "exists" is "a template of that name exists": a name known from the last hour is used without a call,
 * otherwise CreateLaunchTemplate is sent and AlreadyExists (another Lambda, an earlier run) counts as success.
 */
public final class LaunchTemplates {
    private final Ec2Client ec2;
    private final String cluster;
    private final TtlCache<String, Boolean> known;

    public LaunchTemplates(Ec2Client ec2, String cluster, Clock clock) {
        this.ec2 = ec2;
        this.cluster = cluster;
        this.known = new TtlCache<>(clock, Duration.ofHours(1));
    }

    /** The template's name, after making sure it exists. @throws dev.gantry.core.cloud.CloudException on failure */
    public String ensure(LaunchTemplateSpec spec) {
        String name = spec.name(cluster);
        if (known.contains(name)) {
            return name;
        }
        try {
            // The template carries its instances' tags, the NodePool's included: the controller policy only lets
            // CreateLaunchTemplate create, and CreateFleet launch from, templates tagged with both gantry.dev/cluster
            // and gantry.dev/nodepool. The name hashes those tags, so each (NodeClass, NodePool) has its own template.
            ec2.createLaunchTemplate(r -> r.launchTemplateName(name).launchTemplateData(data(spec))
                    .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.LAUNCH_TEMPLATE)
                            .tags(tags(spec.tags())).build()));
        } catch (SdkException e) {
            if (Ec2Errors.classify(e) != Ec2Errors.Kind.ALREADY_EXISTS) {
                throw Ec2Errors.toCloud("CreateLaunchTemplate", e);
            }
        }
        known.put(name, Boolean.TRUE);
        return name;
    }

    /**
     * Forgets that these templates exist, so the next {@link #ensure} creates them again: for when EC2 reports one
     * missing (the sweep's {@link LaunchTemplateCollector} deleted an idle template whose name was still cached).
     */
    public void forget(List<String> names) {
        names.forEach(known::invalidate);
    }

    static RequestLaunchTemplateData data(LaunchTemplateSpec spec) {
        NodeClass.MetadataOptions m = spec.metadataOptions();
        RequestLaunchTemplateData.Builder d = RequestLaunchTemplateData.builder()
                .imageId(spec.imageId())
                .iamInstanceProfile(p -> p.name(spec.instanceProfile()))
                .metadataOptions(o -> o.httpEndpoint(m.httpEndpoint()).httpProtocolIpv6(m.httpProtocolIPv6())
                        .httpPutResponseHopLimit(m.httpPutResponseHopLimit()).httpTokens(m.httpTokens()))
                .blockDeviceMappings(blockDevices(spec.blockDeviceMappings()))
                .userData(UserData.encode(spec.userData()))
                .monitoring(mo -> mo.enabled(spec.detailedMonitoring()))
                .tagSpecifications(tagSpec(ResourceType.INSTANCE, spec.tags()), tagSpec(ResourceType.VOLUME, spec.tags()),
                        tagSpec(ResourceType.NETWORK_INTERFACE, spec.tags()));
        if (spec.reservation() != null) {
            spec.reservation().writeInto(d);
        }
        if (spec.placementGroupId() != null) {
            d.placement(p -> p.groupId(spec.placementGroupId()));
        }
        if (spec.cpuOptions().nestedVirtualization() != null) {
            d.cpuOptions(c -> c.nestedVirtualization(spec.cpuOptions().nestedVirtualization()));
        }
        List<LaunchTemplateInstanceNetworkInterfaceSpecificationRequest> interfaces = interfaces(spec);
        if (interfaces.isEmpty()) {
            d.securityGroupIds(spec.securityGroupIds());
        } else {
            d.networkInterfaces(interfaces);
        }
        return d.build();
    }

    /**
     * The template's network interfaces, as Karpenter writes them (aws {@code pkg/providers/launchtemplate}
     * {@code generateNetworkInterfaces}); none (the groups then go on the template) when EC2's default primary interface
     * does. An instance whose pods ask for EFA gets one EFA interface per network card up to its type's maximum (card 0
     * at device 0, the others at device 1). Otherwise a public-IP choice, prefixes, connection tracking or an IPv6 cluster
     * need an explicit primary interface. Each interface carries the security groups, and on an IPv6 cluster an IPv6
     * primary address, its prefixes being IPv6 ones.
     */
    static List<LaunchTemplateInstanceNetworkInterfaceSpecificationRequest> interfaces(LaunchTemplateSpec spec) {
        NodeClass.Networking net = spec.networking();
        boolean explicit = spec.associatePublicIp() != null || !net.equals(NodeClass.Networking.NONE) || spec.ipv6();
        if (spec.efaCount() == 0 && !explicit) {
            return List.of();
        }
        NodeClass.ConnectionTracking ct = net.connectionTracking();
        boolean v6 = spec.ipv6();
        List<LaunchTemplateInstanceNetworkInterfaceSpecificationRequest> out = new ArrayList<>();
        for (int card = 0; card < Math.max(1, spec.efaCount()); card++) {
            var n = LaunchTemplateInstanceNetworkInterfaceSpecificationRequest.builder()
                    .deviceIndex(card == 0 ? 0 : 1).associatePublicIpAddress(spec.associatePublicIp())
                    .groups(spec.securityGroupIds()).ipv4PrefixCount(v6 ? null : net.ipPrefixCount())
                    .ipv6PrefixCount(v6 ? net.ipPrefixCount() : null).primaryIpv6(v6 ? Boolean.TRUE : null)
                    .ipv6AddressCount(v6 ? 1 : null)
                    .connectionTrackingSpecification(ct == null ? null : ConnectionTrackingSpecificationRequest.builder()
                            .tcpEstablishedTimeout(ct.tcpEstablishedTimeout()).udpStreamTimeout(ct.udpStreamTimeout())
                            .udpTimeout(ct.udpTimeout()).build());
            if (spec.efaCount() > 0) {
                n.networkCardIndex(card).interfaceType("efa");
            }
            out.add(n.build());
        }
        return out;
    }

    private static List<LaunchTemplateBlockDeviceMappingRequest> blockDevices(List<NodeClass.BlockDeviceMapping> bdms) {
        List<LaunchTemplateBlockDeviceMappingRequest> out = new ArrayList<>();
        for (NodeClass.BlockDeviceMapping b : bdms) {
            NodeClass.Ebs e = b.ebs();
            out.add(LaunchTemplateBlockDeviceMappingRequest.builder().deviceName(b.deviceName()).ebs(x -> x
                    .volumeSize(e.volumeSize() == null ? null : gib(e.volumeSize())).volumeType(e.volumeType())
                    .iops(e.iops()).throughput(e.throughput()).encrypted(e.encrypted()).kmsKeyId(e.kmsKeyId())
                    .deleteOnTermination(e.deleteOnTermination()).snapshotId(e.snapshotId())).build());
        }
        return out;
    }

    /** EBS sizes are whole GiB: rounded up, as Karpenter does. */
    static int gib(Quantity size) {
        return (int) Math.ceil(size.value().doubleValue() / (1L << 30));
    }

    private static LaunchTemplateTagSpecificationRequest tagSpec(ResourceType type, Map<String, String> tags) {
        return LaunchTemplateTagSpecificationRequest.builder().resourceType(type).tags(tags(tags)).build();
    }

    static List<Tag> tags(Map<String, String> tags) {
        return new java.util.TreeMap<>(tags).entrySet().stream()
                .map(t -> Tag.builder().key(t.getKey()).value(t.getValue()).build()).toList();
    }
}
