package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.NodePool.ConsolidationPolicy;
import dev.gantry.core.model.NodePool.Disruption;
import dev.gantry.core.model.NodePool.NodeClassRef;
import dev.gantry.core.model.Quantity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@code karpenter.sh/v1} NodePool, and converts a {@code karpenter.sh/v1beta1} one as Karpenter's v1
 * migration guide maps it: {@code WhenUnderutilized} becomes {@code WhenEmptyOrUnderutilized},
 * {@code disruption.expireAfter} moves to {@code template.spec.expireAfter}, {@code nodeClassRef.apiVersion} becomes a
 * group, and {@code template.spec.kubelet} moves to the NodeClass. A conversion adds one warning line.
 */
public final class NodePoolReader {
    private NodePoolReader() {
    }

    public static NodePoolRead read(Doc doc, boolean v1beta1) {
        List<String> notes = new ArrayList<>();
        YamlObject spec = doc.spec(true);
        if (spec == null) {
            return null;
        }
        if (v1beta1) {
            spec.allow("template", "disruption", "limits", "weight");
        } else {
            spec.allow("template", "disruption", "limits", "weight", "replicas");
        }
        spec.require("template");
        YamlObject template = spec.object("template");
        NodePool.Template tmpl = null;
        NodeClass.Kubelet kubelet = null;
        YamlObject disruption = spec.object("disruption");
        Optional<Duration> v1beta1Expire = null;
        if (v1beta1 && disruption != null && disruption.has("expireAfter")) {
            v1beta1Expire = disruption.duration("expireAfter", true);
            notes.add("disruption.expireAfter -> template.spec.expireAfter");
        }
        if (template != null) {
            template.allow("metadata", "spec");
            template.require("spec");
            TemplateSpec ts = TemplateSpec.read(template, v1beta1, notes);
            if (ts != null) {
                kubelet = ts.kubelet();
                tmpl = ts.template(v1beta1Expire);
            }
        }
        Disruption d = disruption == null ? Disruption.DEFAULT : disruption(disruption, v1beta1, notes);
        Map<String, Quantity> limits = spec.quantityMap("limits");
        Integer weight = spec.integer("weight");
        if (weight != null && (weight < 1 || weight > 100)) {
            spec.error("weight", "must be between 1 and 100, got " + weight);
        }
        Integer replicas = staticPool(spec, limits);
        PoolPolicies.poolAnnotations(doc);
        CostAnnotations.check(doc);
        if (v1beta1) {
            doc.warn("converted from karpenter.sh/v1beta1 NodePool" + (notes.isEmpty() ? "" : ": " + String.join("; ", notes)));
        }
        if (doc.report().hasErrors() || tmpl == null) {
            return null;
        }
        NodePool pool = new NodePool(doc.name(), doc.annotations(), tmpl, d, limits, weight,
                v1beta1 ? "karpenter.sh/v1beta1 NodePool" : null, replicas);
        return new NodePoolRead(pool, kubelet);
    }

    /**
     * {@code spec.replicas} (static NodePools, Karpenter v1.8+, alpha): the CRD allows only {@code limits.nodes} and
     * no {@code weight} with it (core {@code pkg/apis/v1/nodepool.go}'s CEL rules; the CRD's transition rule keeps a pool
     * from switching between static and dynamic). The sweep keeps that many nodes ({@code core.staticcapacity}). Returns
     * the count, or null for a dynamic pool.
     */
    private static Integer staticPool(YamlObject spec, Map<String, Quantity> limits) {
        if (!spec.has("replicas")) {
            return null;
        }
        Integer replicas = spec.integer("replicas");
        if (replicas != null && replicas < 0) {
            spec.error("replicas", "must not be negative, got " + replicas);
            return null;
        }
        if (spec.has("weight")) {
            spec.error("weight", "'weight' is not supported on static NodePools (replicas is set)");
        }
        if (limits != null && !limits.isEmpty() && !(limits.size() == 1 && limits.containsKey("nodes"))) {
            spec.error("limits", "only 'limits.nodes' is supported on static NodePools (replicas is set)");
        }
        return replicas;
    }

    private static Disruption disruption(YamlObject d, boolean v1beta1, List<String> notes) {
        if (v1beta1) {
            d.allow("consolidationPolicy", "consolidateAfter", "expireAfter", "budgets");
        } else {
            d.allow("consolidationPolicy", "consolidateAfter", "budgets");
        }
        if (!v1beta1) {
            d.require("consolidateAfter"); // the CRD defaults it only when disruption itself is left out
        }
        String policyText = d.string("consolidationPolicy");
        ConsolidationPolicy policy = ConsolidationPolicy.WhenEmptyOrUnderutilized;
        Optional<Duration> after = d.duration("consolidateAfter", true);
        if (v1beta1 && "WhenUnderutilized".equals(policyText)) {
            if (d.has("consolidateAfter")) {
                d.error("consolidateAfter", "cannot be combined with consolidationPolicy WhenUnderutilized");
            }
            notes.add("consolidationPolicy WhenUnderutilized -> WhenEmptyOrUnderutilized");
        } else if (v1beta1 && "WhenEmpty".equals(policyText) && !d.has("consolidateAfter")) {
            d.errorHere("consolidateAfter", "required with consolidationPolicy WhenEmpty");
        } else if (policyText != null) {
            try {
                policy = ConsolidationPolicy.parse(policyText);
            } catch (IllegalArgumentException e) {
                d.error("consolidationPolicy", e.getMessage() + (policyText.equals("WhenUnderutilized")
                        ? " (WhenUnderutilized is the v1beta1 name of WhenEmptyOrUnderutilized)"
                        : dev.gantry.config.yaml.Suggest.didYouMean(policyText, java.util.Arrays.stream(ConsolidationPolicy.values()).map(Enum::name).toList())));
            }
        }
        return new Disruption(policy, after, DisruptionReader.budgets(d));
    }

    /** {@code spec.template}: its metadata and spec, shared by v1 and v1beta1. */
    private record TemplateSpec(Map<String, String> labels, Map<String, String> annotations, YamlObject spec,
                                List<dev.gantry.core.model.Taint> taints, List<dev.gantry.core.model.Taint> startupTaints,
                                List<dev.gantry.core.requirements.Requirement> requirements, NodeClassRef ref,
                                Optional<Duration> expireAfter, Optional<Duration> terminationGracePeriod,
                                NodeClass.Kubelet kubelet) {

        static TemplateSpec read(YamlObject template, boolean v1beta1, List<String> notes) {
            YamlObject meta = template.object("metadata");
            Map<String, String> labels = null;
            Map<String, String> annotations = null;
            if (meta != null) {
                meta.allow("labels", "annotations");
                labels = TemplateLabels.read(meta);
                annotations = meta.stringMap("annotations");
                PoolPolicies.templateAnnotations(meta, "annotations", annotations);
            }
            YamlObject s = template.object("spec");
            if (s == null) {
                return null;
            }
            if (v1beta1) {
                s.allow("taints", "startupTaints", "requirements", "nodeClassRef", "kubelet");
            } else {
                s.allow("taints", "startupTaints", "requirements", "nodeClassRef", "expireAfter", "terminationGracePeriod");
            }
            s.require("requirements");
            NodeClassRef ref = nodeClassRef(s, v1beta1, notes);
            NodeClass.Kubelet kubelet = null;
            if (v1beta1 && s.has("kubelet")) {
                kubelet = KubeletReader.read(s.object("kubelet"), KubeletReader.Schema.V1BETA1_NODE_POOL);
                notes.add("template.spec.kubelet -> the NodeClass's spec.kubelet");
            }
            return new TemplateSpec(labels, annotations, s, TaintReader.read(s, "taints"),
                    TaintReader.read(s, "startupTaints"), RequirementReader.forNodePool(s, "requirements"), ref,
                    s.duration("expireAfter", true), s.duration("terminationGracePeriod", false), kubelet);
        }

        NodePool.Template template(Optional<Duration> v1beta1Expire) {
            Optional<Duration> expire = v1beta1Expire != null ? v1beta1Expire : expireAfter;
            return ref == null ? null : new NodePool.Template(labels, annotations, taints, startupTaints, requirements,
                    ref, expire, terminationGracePeriod);
        }

        private static NodeClassRef nodeClassRef(YamlObject s, boolean v1beta1, List<String> notes) {
            if (!s.require("nodeClassRef")) {
                return null;
            }
            YamlObject r = s.object("nodeClassRef");
            if (r == null) {
                return null;
            }
            if (v1beta1) {
                r.allow("apiVersion", "kind", "name");
                r.require("name");
                String apiVersion = r.string("apiVersion");
                String group = apiVersion == null ? null : apiVersion.split("/", 2)[0];
                if (group == null) {
                    notes.add("nodeClassRef.group defaulted to karpenter.k8s.aws");
                }
                String name = r.string("name");
                return name == null ? null : new NodeClassRef(group, r.string("kind"), name);
            }
            r.allow("group", "kind", "name");
            boolean ok = r.require("group") & r.require("kind") & r.require("name");
            String group = r.string("group");
            if (group != null && group.contains("/")) {
                // The CRD's pattern ^[^/]*$: a group with its version would otherwise match no NodeClass at all.
                r.error("group", "'" + group + "' is not an API group: a group has no '/' (write "
                        + group.substring(0, group.indexOf('/')) + ", without the version)");
                ok = false;
            }
            String kind = r.string("kind");
            String name = r.string("name");
            return ok && group != null && kind != null && name != null ? new NodeClassRef(group, kind, name) : null;
        }
    }
}
