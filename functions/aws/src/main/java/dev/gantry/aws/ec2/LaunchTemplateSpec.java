package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What goes into one launch template. Its {@link #name(String) name} is a hash of exactly these inputs written in a
 * canonical order (sorted maps, never a record's toString, whose map order changes between JVMs), so every Lambda
 * instance derives the same name for the same template and reuses it.
 *
 * @param userData plain text (encoded to base64 when sent)
 * @param tags     tags for the template itself and for its instances, volumes and network interfaces
 * @param reservation the capacity reservation its instances launch into, or null (one template per reservation)
 * @param networking  the primary network interface's prefix count and connection tracking ({@link NodeClass.Networking})
 * @param cpuOptions  the instance's CPU options ({@link NodeClass.CpuOptions})
 * @param ipv6        the cluster is IPv6: the primary interface gets an IPv6 primary address, and prefixes are IPv6
 * @param placementGroupId the placement group its instances launch into, or null
 * @param efaCount    how many EFA interfaces its instances launch with (0: none; one per network card)
 */
public record LaunchTemplateSpec(String amiFamily, String imageId, String instanceProfile, List<String> securityGroupIds,
                                 NodeClass.MetadataOptions metadataOptions,
                                 List<NodeClass.BlockDeviceMapping> blockDeviceMappings, String userData,
                                 boolean detailedMonitoring, Boolean associatePublicIp, Map<String, String> tags,
                                 ReservationTarget reservation, NodeClass.Networking networking,
                                 NodeClass.CpuOptions cpuOptions, boolean ipv6, String placementGroupId, int efaCount) {
    public LaunchTemplateSpec {
        securityGroupIds = List.copyOf(securityGroupIds);
        blockDeviceMappings = List.copyOf(blockDeviceMappings);
        tags = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(tags));
        networking = networking == null ? NodeClass.Networking.NONE : networking;
        cpuOptions = cpuOptions == null ? NodeClass.CpuOptions.NONE : cpuOptions;
    }

    /** A template for an IPv4 cluster whose primary network interface and CPU options are EC2's defaults. */
    public LaunchTemplateSpec(String amiFamily, String imageId, String instanceProfile, List<String> securityGroupIds,
                              NodeClass.MetadataOptions metadataOptions, List<NodeClass.BlockDeviceMapping> blockDeviceMappings,
                              String userData, boolean detailedMonitoring, Boolean associatePublicIp, Map<String, String> tags,
                              ReservationTarget reservation) {
        this(amiFamily, imageId, instanceProfile, securityGroupIds, metadataOptions, blockDeviceMappings, userData,
                detailedMonitoring, associatePublicIp, tags, reservation, null, null, false, null, 0);
    }

    /** A template that targets no capacity reservation. */
    public LaunchTemplateSpec(String amiFamily, String imageId, String instanceProfile, List<String> securityGroupIds,
                              NodeClass.MetadataOptions metadataOptions, List<NodeClass.BlockDeviceMapping> blockDeviceMappings,
                              String userData, boolean detailedMonitoring, Boolean associatePublicIp, Map<String, String> tags) {
        this(amiFamily, imageId, instanceProfile, securityGroupIds, metadataOptions, blockDeviceMappings, userData,
                detailedMonitoring, associatePublicIp, tags, null, null, null, false, null, 0);
    }

    /** {@code gantry/<cluster>/<hash>}: the hash covers everything in the template. */
    public String name(String cluster) {
        StringBuilder canonical = new StringBuilder()
                .append(amiFamily).append('\n').append(imageId).append('\n').append(instanceProfile).append('\n')
                .append(securityGroupIds).append('\n').append(metadataOptions).append('\n')
                .append(detailedMonitoring).append('\n').append(associatePublicIp).append('\n').append(tags).append('\n');
        for (NodeClass.BlockDeviceMapping b : blockDeviceMappings) {
            canonical.append(b).append('\n'); // records of scalars: their toString is stable
        }
        canonical.append(userData);
        if (reservation != null) {
            // Appended only when set: a template that targets no reservation keeps the name it always had.
            canonical.append('\n').append(reservation.canonical());
        }
        if (!networking.equals(NodeClass.Networking.NONE)) {
            // Likewise: records of scalars, whose toString is stable.
            canonical.append('\n').append(networking);
        }
        if (!cpuOptions.equals(NodeClass.CpuOptions.NONE)) {
            canonical.append('\n').append(cpuOptions);
        }
        if (ipv6) {
            canonical.append("\nipv6");
        }
        if (placementGroupId != null) {
            canonical.append("\nplacement-group=").append(placementGroupId);
        }
        if (efaCount > 0) {
            canonical.append("\nefa=").append(efaCount);
        }
        return "gantry/" + cluster + "/" + sha256(canonical.toString()).substring(0, 20);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
