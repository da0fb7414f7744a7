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
 * does: an {@code amiFamily} without {@code amiSelectorTerms} becomes the alias {@code <family>@latest}.
 */
public final class EC2NodeClassReader {
    static final String GROUP = "karpenter.k8s.aws";
    private static final Set<String> FAMILIES_V1 = Set.of("AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025");
    private static final Set<String> IGNORED = Set.of("context", "instanceStorePolicy", "capacityReservationSelectorTerms");

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
                "capacityReservationSelectorTerms");
        for (String f : IGNORED) {
            if (spec.has(f)) {
                spec.warn(f, "Gantry does not honour " + f + " yet; it is ignored");
            }
        }
        List<String> notes = new ArrayList<>();
        String family = spec.string("amiFamily");
        List<AmiSelectorTerm> ami = SelectorTerms.ami(spec);
        boolean hasAlias = ami.stream().anyMatch(t -> t.alias() != null);
        if (v1beta1) {
            if (family == null) {
                spec.require("amiFamily");
            } else if (family.equals("Ubuntu")) {
                spec.error("amiFamily", "Ubuntu was removed in karpenter.k8s.aws/v1; use amiFamily AL2 with amiSelectorTerms");
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
        NodeClass nc = new NodeClass(doc.name(), GROUP, "EC2NodeClass", family, ami,
                SelectorTerms.read(spec, "subnetSelectorTerms", "subnet", false),
                SelectorTerms.read(spec, "securityGroupSelectorTerms", "sg", true), role, profile, spec.string("userData"),
                LaunchSettings.tags(spec), LaunchSettings.blockDevices(spec), LaunchSettings.metadata(spec),
                KubeletReader.read(spec.object("kubelet")), spec.bool("associatePublicIPAddress"),
                spec.bool("detailedMonitoring"), v1beta1 ? "karpenter.k8s.aws/v1beta1 EC2NodeClass" : null);
        if (v1beta1) {
            doc.warn("converted from karpenter.k8s.aws/v1beta1 EC2NodeClass" + (notes.isEmpty() ? "" : ": " + String.join("; ", notes)));
        }
        return doc.report().hasErrors() ? null : nc;
    }
}
