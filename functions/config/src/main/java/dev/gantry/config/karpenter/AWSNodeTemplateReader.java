package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.AmiSelectorTerm;
import dev.gantry.core.model.NodeClass.SelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Converts a {@code karpenter.k8s.aws/v1alpha1} AWSNodeTemplate, or a v1alpha5 Provisioner's inline {@code provider},
 * into an EC2NodeClass, as Karpenter's v1beta1 migration guide maps it: {@code subnetSelector} and
 * {@code securityGroupSelector} maps become tag terms ({@code aws-ids} becomes id terms), {@code amiSelector}
 * likewise, an {@code amiFamily} (default AL2) without an AMI selector becomes the alias {@code <family>@latest}, and
 * {@code instanceProfile} stays. Without a subnet or security group selector, the Karpenter 0.x default of cluster-tag
 * discovery is expressed as the tag {@code karpenter.sh/discovery: *}.
 */
public final class AWSNodeTemplateReader {
    private AWSNodeTemplateReader() {
    }

    public static NodeClass read(Doc doc) {
        YamlObject spec = doc.spec(true);
        NodeClass nc = spec == null ? null : fromProvider(spec, doc.name(), "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate");
        doc.warn("converted from karpenter.k8s.aws/v1alpha1 AWSNodeTemplate to EC2NodeClass");
        return doc.report().hasErrors() ? null : nc;
    }

    /** The EC2NodeClass a provider block describes. */
    static NodeClass fromProvider(YamlObject p, String name, String convertedFrom) {
        p.allow("instanceProfile", "tags", "subnetSelector", "securityGroupSelector", "amiFamily", "amiSelector",
                "userData", "metadataOptions", "blockDeviceMappings", "detailedMonitoring", "launchTemplate", "context");
        if (p.has("launchTemplate")) {
            p.error("launchTemplate", "launch templates were removed in Karpenter v1beta1; describe the node in an EC2NodeClass");
        }
        String family = p.has("amiFamily") ? p.string("amiFamily") : "AL2";
        List<AmiSelectorTerm> ami = new ArrayList<>();
        Map<String, String> amiSelector = p.stringMap("amiSelector");
        if (amiSelector != null && !amiSelector.isEmpty()) {
            for (SelectorTerm t : terms(amiSelector)) {
                ami.add(new AmiSelectorTerm(null, t.id(), null, null, t.tags(), null));
            }
        } else if (family != null) {
            ami.add(AmiSelectorTerm.alias(family.toLowerCase(Locale.ROOT) + "@latest"));
            family = null;
        }
        Map<String, String> discovery = Map.of("karpenter.sh/discovery", "*");
        Map<String, String> subnets = p.stringMap("subnetSelector");
        Map<String, String> groups = p.stringMap("securityGroupSelector");
        return new NodeClass(name, EC2NodeClassReader.GROUP, "EC2NodeClass", family, ami,
                terms(subnets == null ? discovery : subnets), terms(groups == null ? discovery : groups), null,
                p.string("instanceProfile"), p.string("userData"), LaunchSettings.tags(p), LaunchSettings.blockDevices(p, true),
                LaunchSettings.metadata(p), null, null, p.bool("detailedMonitoring"), convertedFrom);
    }

    private static List<SelectorTerm> terms(Map<String, String> selector) {
        String ids = selector.get("aws-ids");
        if (ids != null) {
            return java.util.Arrays.stream(ids.split(",")).map(String::trim).map(SelectorTerm::id).toList();
        }
        return List.of(new SelectorTerm(null, null, selector));
    }
}
