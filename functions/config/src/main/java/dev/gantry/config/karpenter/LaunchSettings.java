package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass.BlockDeviceMapping;
import dev.gantry.core.model.NodeClass.Ebs;
import dev.gantry.core.model.NodeClass.MetadataOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads an EC2NodeClass's block devices, metadata options and tags under the CRD's rules. */
final class LaunchSettings {
    private static final Set<String> VOLUME_TYPES = Set.of("standard", "io1", "io2", "gp2", "sc1", "st1", "gp3");
    /** Tags Karpenter sets itself, which a NodeClass may not set. */
    private static final List<String> RESTRICTED_TAGS = List.of("karpenter.sh/nodepool", "karpenter.sh/nodeclaim",
            "karpenter.k8s.aws/ec2nodeclass", "eks:eks-cluster-name");

    private LaunchSettings() {
    }

    static List<BlockDeviceMapping> blockDevices(YamlObject spec) {
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
                ebs = new Ebs(e.quantity("volumeSize"), type, e.integer("iops"), e.integer("throughput"), e.bool("encrypted"),
                        e.string("kmsKeyID"), e.bool("deleteOnTermination"), e.string("snapshotID"));
            }
            out.add(new BlockDeviceMapping(b.string("deviceName"), root, ebs));
        }
        return out;
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
