package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.BlockDeviceMapping;
import dev.gantry.core.model.NodeClass.Ebs;
import dev.gantry.core.model.NodeClass.MetadataOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an EC2NodeClass's block devices, metadata options, tags, primary-interface settings and CPU options under the
 * CRD's rules.
 */
final class LaunchSettings {
    /**
     * The CRD's pattern for {@code volumeSize}, as written there (its empty alternatives included): whole
     * {@code Gi}/{@code G}/{@code Ti}/{@code T} up to EBS's largest volume.
     */
    private static final java.util.regex.Pattern VOLUME_SIZE = java.util.regex.Pattern.compile(
            "^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G"
                    + "|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$");
    private static final Set<String> VOLUME_TYPES = Set.of("standard", "io1", "io2", "gp2", "sc1", "st1", "gp3");
    /** Tags Karpenter sets itself, which a NodeClass may not set. */
    private static final List<String> RESTRICTED_TAGS = List.of("karpenter.sh/nodepool", "karpenter.sh/nodeclaim",
            "karpenter.k8s.aws/ec2nodeclass", "eks:eks-cluster-name");

    private LaunchSettings() {
    }

    /** An EC2NodeClass's block devices: {@code volumeSize} is a string in the CRD's pattern. */
    static List<BlockDeviceMapping> blockDevices(YamlObject spec) {
        return blockDevices(spec, false);
    }

    /**
     * Block devices; {@code anyQuantity} for the v1alpha1 AWSNodeTemplate, whose {@code volumeSize} was any quantity
     * (integer or string).
     */
    static List<BlockDeviceMapping> blockDevices(YamlObject spec, boolean anyQuantity) {
        List<BlockDeviceMapping> out = new ArrayList<>();
        int roots = 0;
        for (YamlObject b : spec.objects("blockDeviceMappings")) {
            b.allow("deviceName", "ebs", "rootVolume");
            boolean root = Boolean.TRUE.equals(b.bool("rootVolume"));
            if (root && ++roots > 1) {
                b.error("rootVolume", "only one blockDeviceMapping may be the rootVolume");
            }
            YamlObject e = b.object("ebs");
            Ebs ebs = null;
            if (e != null) {
                e.allow("volumeSize", "volumeType", "iops", "throughput", "encrypted", "kmsKeyID", "deleteOnTermination",
                        "snapshotID", "volumeInitializationRate");
                String type = e.string("volumeType");
                if (type != null && !VOLUME_TYPES.contains(type)) {
                    e.error("volumeType", "'" + type + "' is not a volume type " + new java.util.TreeSet<>(VOLUME_TYPES));
                }
                if (!e.has("volumeSize") && !e.has("snapshotID")) {
                    e.errorHere(null, "snapshotID or volumeSize must be defined");
                }
                Integer rate = e.integer("volumeInitializationRate");
                if (rate != null && (rate < 100 || rate > 300)) {
                    e.error("volumeInitializationRate", "must be between 100 and 300 (MiB/s), got " + rate);
                } else if (rate != null && (e.string("snapshotID") == null || e.string("snapshotID").isEmpty())) {
                    e.error("volumeInitializationRate", "snapshotID must be set when volumeInitializationRate is set");
                }
                ebs = new Ebs(anyQuantity ? e.quantity("volumeSize") : volumeSize(e), type, e.integer("iops"),
                        e.integer("throughput"), e.bool("encrypted"), e.string("kmsKeyID"), e.bool("deleteOnTermination"),
                        e.string("snapshotID"));
            }
            out.add(new BlockDeviceMapping(b.string("deviceName"), root, ebs));
        }
        return out;
    }

    /** {@code ebs.volumeSize}: a string (a bare {@code 100} is refused by the API server) matching the CRD's pattern. */
    private static dev.gantry.core.model.Quantity volumeSize(YamlObject ebs) {
        String size = ebs.strictString("volumeSize");
        if (size == null) {
            return null;
        }
        if (!VOLUME_SIZE.matcher(size).matches()) {
            ebs.error("volumeSize", "'" + size + "' is not a volume size (whole Gi, G, Ti or T: 20Gi, 100G, 1Ti; "
                    + "at most 59000Gi, 64000G, 58Ti or 64T)");
            return null;
        }
        return ebs.quantity("volumeSize");
    }

    static MetadataOptions metadata(YamlObject spec) {
        YamlObject m = spec.object("metadataOptions");
        if (m == null) {
            return null;
        }
        m.allow("httpEndpoint", "httpProtocolIPv6", "httpPutResponseHopLimit", "httpTokens");
        String endpoint = oneOf(m, "httpEndpoint", "enabled", "disabled");
        String ipv6 = oneOf(m, "httpProtocolIPv6", "enabled", "disabled");
        String tokens = oneOf(m, "httpTokens", "required", "optional");
        Integer hops = m.integer("httpPutResponseHopLimit");
        if (hops != null && (hops < 1 || hops > 64)) {
            m.error("httpPutResponseHopLimit", "must be between 1 and 64, got " + hops);
        }
        return new MetadataOptions(endpoint, ipv6, hops, tokens);
    }

    /**
     * {@code ipPrefixCount} and {@code connectionTracking}, read once {@link UnhonouredFields#ec2} has checked them
     * (a value out of range is an error there, and the class is dropped).
     */
    static NodeClass.Networking networking(YamlObject spec) {
        YamlObject ct = spec.object("connectionTracking");
        NodeClass.ConnectionTracking tracking = ct == null ? null : new NodeClass.ConnectionTracking(
                ct.integer("tcpEstablishedTimeout"), ct.integer("udpStreamTimeout"), ct.integer("udpTimeout"));
        return new NodeClass.Networking(spec.integer("ipPrefixCount"), tracking);
    }

    /** {@code placementGroupSelector}, checked by {@link UnhonouredFields#ec2}: null when absent or malformed. */
    static NodeClass.PlacementGroupSelector placementGroup(YamlObject spec) {
        YamlObject pg = spec.object("placementGroupSelector");
        if (pg == null) {
            return null;
        }
        String name = pg.string("name");
        String id = pg.string("id");
        return (name == null) == (id == null) ? null : new NodeClass.PlacementGroupSelector(name, id);
    }

    /** {@code cpuOptions}, checked by {@link UnhonouredFields#ec2}. */
    static NodeClass.CpuOptions cpuOptions(YamlObject spec) {
        YamlObject cpu = spec.object("cpuOptions");
        return cpu == null ? null : new NodeClass.CpuOptions(cpu.string("nestedVirtualization"));
    }

    static Map<String, String> tags(YamlObject spec) {
        Map<String, String> tags = spec.stringMap("tags");
        if (tags != null) {
            YamlObject t = spec.object("tags");
            for (String k : tags.keySet()) {
                if (k.isEmpty()) {
                    t.errorAtKey(k, "empty tag keys aren't supported");
                } else if (RESTRICTED_TAGS.contains(k) || k.startsWith("kubernetes.io/cluster/")) {
                    t.errorAtKey(k, "tag '" + k + "' is restricted (Karpenter sets it)");
                }
            }
        }
        return tags;
    }

    private static String oneOf(YamlObject o, String key, String a, String b) {
        String v = o.string(key);
        if (v != null && !v.equals(a) && !v.equals(b)) {
            o.error(key, "must be " + a + " or " + b + ", got '" + v + "'");
        }
        return v;
    }
}
