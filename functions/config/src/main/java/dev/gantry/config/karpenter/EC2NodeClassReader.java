package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.AmiSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a {@code karpenter.k8s.aws/v1} EC2NodeClass, and converts a {@code v1beta1} one as the v1 migration guide
 * does: an {@code amiFamily} without {@code amiSelectorTerms} becomes the alias {@code <family>@latest}; {@code Ubuntu}
 * (removed in v1) with {@code amiSelectorTerms} keeps those AMIs and becomes {@code AL2}, with Ubuntu's
 * {@code /dev/sda1} 20Gi gp3 root volume when no block devices are given, as Karpenter v1's conversion webhook does.
 * Without {@code amiSelectorTerms} Karpenter marks such a NodeClass incompatible and never launches from it, so
 * Gantry refuses it.
 */
public final class EC2NodeClassReader {
    static final String GROUP = "karpenter.k8s.aws";
    private static final Set<String> FAMILIES_V1 = Set.of("AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025");
    /** Ubuntu's root device and volume, which Karpenter's v1beta1-to-v1 conversion writes for an Ubuntu NodeClass. */
    private static final NodeClass.BlockDeviceMapping UBUNTU_ROOT = new NodeClass.BlockDeviceMapping("/dev/sda1", true,
            new NodeClass.Ebs(dev.gantry.core.model.Quantity.parse("20Gi"), "gp3", null, null, true, null, null, null));

    private EC2NodeClassReader() {
    }

    public static NodeClass read(Doc doc, boolean v1beta1) {
        YamlObject spec = doc.spec(true);
        if (spec == null) {
            return null;
        }
        spec.allow("amiFamily", "amiSelectorTerms", "subnetSelectorTerms", "securityGroupSelectorTerms", "role",
                "instanceProfile", "userData", "tags", "blockDeviceMappings", "metadataOptions", "kubelet",
                "associatePublicIPAddress", "detailedMonitoring", "context", "instanceStorePolicy",
                "capacityReservationSelectorTerms", "networkInterfaces", "placementGroupSelector", "connectionTracking",
                "ipPrefixCount", "cpuOptions");
        UnhonouredFields.ec2(spec);
        List<String> notes = new ArrayList<>();
        boolean ubuntuRoot = false;
        String family = spec.string("amiFamily");
        List<AmiSelectorTerm> ami = SelectorTerms.ami(spec);
        boolean hasAlias = ami.stream().anyMatch(t -> t.alias() != null);
        if (v1beta1) {
            if (family == null) {
                spec.require("amiFamily");
            } else if (family.equals("Ubuntu") && ami.isEmpty()) {
                spec.error("amiFamily", "Ubuntu was removed in karpenter.k8s.aws/v1 and Karpenter ignores a converted "
                        + "Ubuntu NodeClass without amiSelectorTerms; select the Ubuntu AMIs with amiSelectorTerms "
                        + "(they are then launched as AL2)");
            } else if (family.equals("Ubuntu")) {
                // Karpenter v1's conversion: the same AMIs, AL2 user data (the formats are the same), Ubuntu's root volume.
                family = "AL2";
                notes.add("amiFamily Ubuntu -> AL2 (Ubuntu AMIs from amiSelectorTerms, bootstrapped with AL2 user data)");
                if (!spec.has("blockDeviceMappings")) {
                    ubuntuRoot = true;
                    notes.add("Ubuntu's root volume /dev/sda1 20Gi gp3 encrypted");
                }
            } else if (!FAMILIES_V1.contains(family)) {
                spec.error("amiFamily", "'" + family + "' is not an AMI family " + new java.util.TreeSet<>(FAMILIES_V1));
            } else if (ami.isEmpty() && family.equals("Custom")) {
                spec.errorHere("amiSelectorTerms", "required with amiFamily Custom");
            } else if (ami.isEmpty()) {
                String alias = family.toLowerCase(Locale.ROOT) + "@latest";
                ami = List.of(AmiSelectorTerm.alias(alias));
                notes.add("amiFamily " + family + " -> amiSelectorTerms alias " + alias);
                family = null;
            }
        } else {
            if (spec.require("amiSelectorTerms") && ami.isEmpty() && spec.value("amiSelectorTerms") != null) {
                spec.error("amiSelectorTerms", "at least one term is required");
            }
            if (family != null && !FAMILIES_V1.contains(family)) {
                spec.error("amiFamily", "'" + family + "' is not an AMI family " + new java.util.TreeSet<>(FAMILIES_V1));
            } else if (family == null && !hasAlias && !ami.isEmpty()) {
                spec.errorHere("amiFamily", "required when amiSelectorTerms has no alias");
            }
        }
        String role = spec.string("role");
        String profile = spec.string("instanceProfile");
        if (role == null && profile == null) {
            spec.errorHere("role", "exactly one of role or instanceProfile is required");
        } else if (role != null && profile != null) {
            spec.error("instanceProfile", "exactly one of role or instanceProfile is allowed, not both");
        }
        if ("".equals(role)) {
            spec.error("role", "role cannot be empty");
        }
        if ("".equals(profile)) {
            spec.error("instanceProfile", "instanceProfile cannot be empty");
        }
        NodeClass nc = new NodeClass(doc.name(), GROUP, "EC2NodeClass", family, ami,
                SelectorTerms.read(spec, "subnetSelectorTerms", "subnet", false),
                SelectorTerms.read(spec, "securityGroupSelectorTerms", "sg", true), role, profile, spec.string("userData"),
                LaunchSettings.tags(spec), ubuntuRoot ? List.of(UBUNTU_ROOT) : LaunchSettings.blockDevices(spec),
                LaunchSettings.metadata(spec),
                KubeletReader.read(spec.object("kubelet"), KubeletReader.Schema.EC2_NODE_CLASS), spec.bool("associatePublicIPAddress"),
                spec.bool("detailedMonitoring"), v1beta1 ? "karpenter.k8s.aws/v1beta1 EC2NodeClass" : null,
                // Read once checked (UnhonouredFields), so a malformed list is reported once; with errors nc is dropped.
                doc.report().hasErrors() ? List.of() : ReservationTerms.read(spec), doc.annotations(),
                spec.string("instanceStorePolicy"), spec.string("context"), LaunchSettings.networking(spec),
                LaunchSettings.cpuOptions(spec), LaunchSettings.placementGroup(spec));
        RolloutAnnotations.check(doc);
        if (v1beta1) {
            doc.warn("converted from karpenter.k8s.aws/v1beta1 EC2NodeClass" + (notes.isEmpty() ? "" : ": " + String.join("; ", notes)));
        }
        return doc.report().hasErrors() ? null : nc;
    }
}
