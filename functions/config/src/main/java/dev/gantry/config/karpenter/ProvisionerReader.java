package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.NodePool.ConsolidationPolicy;
import dev.gantry.core.model.NodePool.Disruption;
import dev.gantry.core.model.NodePool.NodeClassRef;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Converts a {@code karpenter.sh/v1alpha5} Provisioner into a v1 NodePool, following Karpenter's v1beta1 migration
 * guide: {@code ttlSecondsAfterEmpty: N} becomes {@code WhenEmpty} with {@code consolidateAfter: Ns};
 * {@code consolidation.enabled} becomes {@code WhenEmptyOrUnderutilized}; with neither, nothing was ever consolidated,
 * which is {@code WhenEmpty} with {@code consolidateAfter: Never}; {@code ttlSecondsUntilExpired: N} becomes
 * {@code expireAfter: Ns} (absent: {@code Never}, as nodes never expired); {@code limits.resources} becomes
 * {@code limits}; {@code providerRef} becomes {@code nodeClassRef}; an inline {@code provider} becomes an implicit
 * EC2NodeClass named after the provisioner; {@code kubeletConfiguration} moves to the NodeClass. The requirements
 * Karpenter v0.31's defaulting webhook added are added too (see {@link #withDefaults}).
 */
public final class ProvisionerReader {
    private ProvisionerReader() {
    }

    /** The converted pool and, for an inline provider, its implicit EC2NodeClass (else null). */
    public record Converted(NodePoolRead read, NodeClass implicitNodeClass) {
    }

    public static Converted read(Doc doc) {
        YamlObject spec = doc.spec(true);
        if (spec == null) {
            return null;
        }
        spec.allow("requirements", "labels", "annotations", "taints", "startupTaints", "limits", "provider", "providerRef",
                "ttlSecondsAfterEmpty", "ttlSecondsUntilExpired", "consolidation", "weight", "kubeletConfiguration");
        List<String> notes = new ArrayList<>();
        NodeClass implicit = null;
        NodeClassRef ref = null;
        if (spec.has("provider") == spec.has("providerRef")) {
            spec.errorHere("provider", "exactly one of provider or providerRef is required");
        } else if (spec.has("provider")) {
            YamlObject p = spec.object("provider");
            if (p != null) {
                implicit = AWSNodeTemplateReader.fromProvider(p, doc.name(), "karpenter.sh/v1alpha5 Provisioner.spec.provider");
                ref = new NodeClassRef(EC2NodeClassReader.GROUP, "EC2NodeClass", doc.name());
                notes.add("provider -> EC2NodeClass/" + doc.name());
            }
        } else {
            YamlObject r = spec.object("providerRef");
            if (r != null) {
                r.allow("apiVersion", "kind", "name");
                String name = r.require("name") ? r.string("name") : null;
                ref = name == null ? null : new NodeClassRef(EC2NodeClassReader.GROUP, "EC2NodeClass", name);
                notes.add("providerRef -> nodeClassRef");
            }
        }
        Disruption disruption = disruption(spec, notes);
        Optional<Duration> expire = Optional.empty();
        Integer ttlExpired = nonNegative(spec, "ttlSecondsUntilExpired");
        if (ttlExpired != null) {
            expire = Optional.of(Duration.ofSeconds(ttlExpired));
            notes.add("ttlSecondsUntilExpired " + ttlExpired + " -> expireAfter " + dev.gantry.core.model.KubeDuration.format(expire.get()));
        }
        Map<String, Quantity> limits = null;
        YamlObject l = spec.object("limits");
        if (l != null) {
            l.allow("resources");
            limits = l.quantityMap("resources");
            notes.add("limits.resources -> limits");
        }
        Integer weight = spec.integer("weight");
        if (weight != null && (weight < 1 || weight > 100)) {
            spec.error("weight", "must be between 1 and 100, got " + weight);
        }
        NodeClass.Kubelet kubelet = null;
        if (spec.has("kubeletConfiguration")) {
            kubelet = KubeletReader.read(spec.object("kubeletConfiguration"), KubeletReader.Schema.V1ALPHA5_PROVISIONER);
            notes.add("kubeletConfiguration -> the NodeClass's spec.kubelet");
        }
        Map<String, String> labels = TemplateLabels.read(spec);
        List<Requirement> requirements = withDefaults(spec, RequirementReader.forNodePool(spec, "requirements"));
        Map<String, String> annotations = spec.stringMap("annotations");
        PoolPolicies.templateAnnotations(spec, "annotations", annotations);
        PoolPolicies.poolAnnotations(doc);
        var template = new NodePool.Template(labels, annotations, TaintReader.read(spec, "taints"),
                TaintReader.read(spec, "startupTaints"), requirements, ref, expire, Optional.empty());
        doc.warn("converted from karpenter.sh/v1alpha5 Provisioner to NodePool: " + String.join("; ", notes));
        if (doc.report().hasErrors() || ref == null) {
            return null;
        }
        NodePool pool = new NodePool(doc.name(), doc.annotations(), template, disruption, limits, weight,
                "karpenter.sh/v1alpha5 Provisioner");
        return new Converted(new NodePoolRead(pool, kubelet), implicit);
    }

    /**
     * The requirements Karpenter v0.31's defaulting webhook ({@code Provisioner.SetDefaults} in the AWS provider) added
     * to every Provisioner that left them out: {@code kubernetes.io/os In [linux]}, {@code kubernetes.io/arch In
     * [amd64]}, {@code karpenter.sh/capacity-type In [on-demand]}, and, with no instance type, family, category or
     * generation requirement, {@code instance-category In [c, m, r]} and {@code instance-generation Gt 2}. Without
     * them a converted Provisioner would allow every type in the catalogue, which it never did. One warning each.
     */
    private static List<Requirement> withDefaults(YamlObject spec, List<Requirement> written) {
        java.util.Set<String> keys = new java.util.HashSet<>();
        written.forEach(r -> keys.add(r.key()));
        List<Requirement> out = new ArrayList<>(written);
        List<Requirement> defaults = new ArrayList<>();
        if (!keys.contains(WellKnownLabels.OS)) {
            defaults.add(new Requirement(WellKnownLabels.OS, Operator.In, List.of("linux"), null));
        }
        if (!keys.contains(WellKnownLabels.ARCH)) {
            defaults.add(new Requirement(WellKnownLabels.ARCH, Operator.In, List.of("amd64"), null));
        }
        if (!keys.contains(WellKnownLabels.CAPACITY_TYPE)) {
            defaults.add(new Requirement(WellKnownLabels.CAPACITY_TYPE, Operator.In, List.of("on-demand"), null));
        }
        if (java.util.stream.Stream.of(WellKnownLabels.INSTANCE_TYPE, WellKnownLabels.INSTANCE_FAMILY,
                WellKnownLabels.INSTANCE_CATEGORY, WellKnownLabels.INSTANCE_GENERATION).noneMatch(keys::contains)) {
            defaults.add(new Requirement(WellKnownLabels.INSTANCE_CATEGORY, Operator.In, List.of("c", "m", "r"), null));
            defaults.add(new Requirement(WellKnownLabels.INSTANCE_GENERATION, Operator.Gt, List.of("2"), null));
        }
        for (Requirement d : defaults) {
            spec.warn("requirements", "Karpenter v0.31 default applied: " + d.key() + " " + d.operator() + " " + d.values());
            out.add(d);
        }
        return out;
    }

    private static Disruption disruption(YamlObject spec, List<String> notes) {
        Integer ttlEmpty = nonNegative(spec, "ttlSecondsAfterEmpty");
        boolean consolidation = false;
        YamlObject c = spec.object("consolidation");
        if (c != null) {
            c.allow("enabled");
            consolidation = Boolean.TRUE.equals(c.bool("enabled"));
        }
        if (consolidation && ttlEmpty != null) {
            spec.error("ttlSecondsAfterEmpty", "cannot be combined with consolidation.enabled");
        }
        if (consolidation) {
            notes.add("consolidation.enabled -> WhenEmptyOrUnderutilized");
            return new Disruption(ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO), null);
        }
        if (ttlEmpty != null) {
            notes.add("ttlSecondsAfterEmpty " + ttlEmpty + " -> WhenEmpty after " + ttlEmpty + "s");
            return new Disruption(ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ofSeconds(ttlEmpty)), null);
        }
        notes.add("no consolidation -> WhenEmpty, consolidateAfter Never");
        return new Disruption(ConsolidationPolicy.WhenEmpty, Optional.empty(), null);
    }

    private static Integer nonNegative(YamlObject spec, String key) {
        Integer v = spec.integer(key);
        if (v != null && v < 0) {
            spec.error(key, "must not be negative, got " + v);
            return null;
        }
        return v;
    }
}
