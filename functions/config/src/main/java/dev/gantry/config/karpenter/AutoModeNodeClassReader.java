package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.AmiSelectorTerm;
import dev.gantry.core.model.NodeClass.BlockDeviceMapping;
import dev.gantry.core.model.NodeClass.Ebs;
import dev.gantry.core.model.Quantity;
import java.util.List;

/**
 * Reads EKS Auto Mode's {@code eks.amazonaws.com/v1} NodeClass into the same NodeClass record, kind {@code NodeClass}
 * and group {@code eks.amazonaws.com}. Auto Mode nodes run Bottlerocket, so the AMI is {@code bottlerocket@latest};
 * {@code ephemeralStorage} (size, iops, throughput, kmsKeyID) becomes Bottlerocket's data volume {@code /dev/xvdb},
 * which holds images and pods and so is the node's ephemeral storage, beside the 4Gi OS volume {@code /dev/xvda};
 * without {@code ephemeralStorage}, Bottlerocket's defaults. Fields that only EKS's managed data plane can act on are
 * accepted with one warning each.
 *
 * <p><b>Without {@code role} or {@code instanceProfile}</b> (AWS's own examples leave both out), Auto Mode gives nodes
 * the node role of the cluster's compute configuration ({@code computeConfig.nodeRoleArn}). Gantry reads such a
 * NodeClass with neither set, and the launcher then uses the deployment's default node instance profile
 * ({@code Ec2LauncherConfig.defaultInstanceProfile}), which plays that part for Gantry. The two fields are mutually
 * exclusive, as in an EC2NodeClass.
 *
 * <p>Its annotations are kept, so Gantry's AMI rollout settings ({@code gantry.dev/drift-canary}, {@code -soak} and
 * {@code -resume}) work on it as on an EC2NodeClass: Auto Mode's NodeClass launches {@code bottlerocket@latest}, whose
 * releases roll through the canary too.
 *
 * <p>{@code capacityReservationSelectorTerms} are honoured as in an EC2NodeClass (EKS's "Control deployment of
 * workloads into Capacity Reservations with EKS Auto Mode"): the reservations they select are capacity type
 * {@code reserved}, prioritised over on-demand and spot, and a NodeClass without terms uses none.
 */
public final class AutoModeNodeClassReader {
    public static final String GROUP = "eks.amazonaws.com";
    private static final List<String> NOT_HONOURED = List.of("networkPolicy", "networkPolicyEventLogs", "snatPolicy",
            "podSubnetSelectorTerms", "podSecurityGroupSelectorTerms", "advancedNetworking", "advancedSecurity",
            "certificateBundles");

    /** Bottlerocket's OS volume, as Karpenter's Bottlerocket defaults size it. */
    private static final Ebs OS_VOLUME = new Ebs(Quantity.parse("4Gi"), "gp3", null, null, true, null, true, null);
    /** The data volume's size when {@code ephemeralStorage} names none: what EKS's own default NodeClass writes. */
    private static final Quantity DEFAULT_SIZE = Quantity.parse("80Gi");

    private AutoModeNodeClassReader() {
    }

    public static NodeClass read(Doc doc) {
        YamlObject spec = doc.spec(true);
        if (spec == null) {
            return null;
        }
        spec.allow("role", "instanceProfile", "capacityReservationSelectorTerms", "subnetSelectorTerms",
                "securityGroupSelectorTerms", "ephemeralStorage", "networkPolicy",
                "networkPolicyEventLogs", "snatPolicy", "tags", "podSubnetSelectorTerms", "podSecurityGroupSelectorTerms",
                "advancedNetworking", "advancedSecurity", "certificateBundles");
        for (String f : NOT_HONOURED) {
            if (spec.has(f)) {
                spec.warn(f, "Gantry cannot honour " + f + " (EKS Auto Mode manages it); ignored");
            }
        }
        String role = spec.string("role");
        String profile = spec.string("instanceProfile");
        if (role != null && profile != null) {
            spec.error("instanceProfile", "exactly one of role or instanceProfile is allowed, not both");
        }
        UnhonouredFields.capacityReservations(spec, "owner");
        List<BlockDeviceMapping> devices = List.of();
        YamlObject storage = spec.object("ephemeralStorage");
        if (storage != null) {
            storage.allow("size", "iops", "throughput", "kmsKeyID");
            Quantity size = storage.quantity("size");
            devices = List.of(new BlockDeviceMapping("/dev/xvda", false, OS_VOLUME),
                    new BlockDeviceMapping("/dev/xvdb", false, new Ebs(size == null ? DEFAULT_SIZE : size, "gp3",
                            storage.integer("iops"), storage.integer("throughput"), true, storage.string("kmsKeyID"),
                            true, null)));
        }
        NodeClass nc = new NodeClass(doc.name(), GROUP, "NodeClass", null, List.of(AmiSelectorTerm.alias("bottlerocket@latest")),
                SelectorTerms.read(spec, "subnetSelectorTerms", "subnet", false),
                SelectorTerms.read(spec, "securityGroupSelectorTerms", "sg", true), role, profile, null,
                LaunchSettings.tags(spec), devices, null, null, null, null, null,
                doc.report().hasErrors() ? List.of() : ReservationTerms.readAutoMode(spec), doc.annotations());
        RolloutAnnotations.check(doc);
        return doc.report().hasErrors() ? null : nc;
    }
}
