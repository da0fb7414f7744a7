package dev.gantry.config.buffer;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.model.Quantity;
import java.util.Map;

/**
 * Reads an {@code autoscaling.x-k8s.io/v1beta1} CapacityBuffer (the API Cluster Autoscaler and Karpenter share) with
 * the rules its CRD enforces: exactly one of {@code podTemplateRef} and {@code scalableRef}; a {@code podTemplateRef}
 * needs {@code replicas} or {@code limits}; {@code replicas} and {@code percentage} at least 0; {@code percentage} only
 * with a {@code scalableRef}. Gantry's schedule and prediction annotations are read by {@link BufferAnnotations}.
 */
public final class CapacityBufferReader {
    public static final String API_VERSION = "autoscaling.x-k8s.io/v1beta1";
    /** The scalable kinds Gantry can resolve, from the bundle or the cluster, with their API group. */
    static final Map<String, String> SCALABLE = Map.of("Deployment", "apps", "StatefulSet", "apps", "ReplicaSet", "apps");

    private CapacityBufferReader() {
    }

    /** The buffer, or null when the document has errors (each reported on its {@link Doc#report()}). */
    public static BufferRead read(Doc doc) {
        YamlObject spec = doc.spec(true);
        BufferAnnotations.Read extensions = BufferAnnotations.read(doc);
        if (spec == null) {
            return null;
        }
        spec.allow("provisioningStrategy", "podTemplateRef", "scalableRef", "replicas", "percentage", "limits");
        String strategy = spec.strictString("provisioningStrategy");
        CapacityBuffer.Target target = target(spec);
        Integer replicas = nonNegative(spec, "replicas");
        Integer percentage = nonNegative(spec, "percentage");
        Map<String, Quantity> limits = spec.quantityMap("limits");
        if (limits != null) {
            YamlObject l = spec.object("limits");
            limits.forEach((k, v) -> {
                if (v.isNegative()) {
                    l.error(k, "must not be negative, got " + v);
                } else if (k.equals("pods")) {
                    l.warn(k, "a pods limit bounds nothing: a pod does not request pods (limit cpu or memory)");
                }
            });
        }
        if (spec.has("podTemplateRef") && !spec.has("replicas") && !spec.has("limits")) {
            spec.errorHere(null, "with podTemplateRef, replicas or limits must also be set");
        }
        if (percentage != null && !spec.has("scalableRef")) {
            spec.error("percentage", "percentage applies only with scalableRef (a percentage of its replicas)");
        }
        if (extensions.prediction() != null && limits == null) {
            spec.errorHere(null, "a predicted buffer (" + BufferAnnotations.MODE + ": predicted) needs limits to bound it");
        }
        if (strategy != null && !strategy.equals(CapacityBuffer.ACTIVE_CAPACITY)) {
            spec.warn("provisioningStrategy", "provisioning strategy " + strategy + " is not "
                    + CapacityBuffer.ACTIVE_CAPACITY + ": Gantry keeps no capacity for this buffer");
        }
        if (doc.report().hasErrors() || target == null) {
            return null;
        }
        CapacityBuffer b = new CapacityBuffer(doc.namespace(), doc.name(), target, replicas, percentage, limits, strategy,
                extensions.schedule(), extensions.prediction());
        return new BufferRead(b, doc.kind() + "/" + doc.name(), doc.report().location(doc.root().node()),
                doc.report().fields());
    }

    private static CapacityBuffer.Target target(YamlObject spec) {
        boolean template = spec.has("podTemplateRef");
        boolean scalable = spec.has("scalableRef");
        if (template && scalable) {
            spec.errorHere(null, "set either podTemplateRef or scalableRef, not both");
            return null;
        }
        if (!template && !scalable) {
            spec.errorHere(null, "one of podTemplateRef or scalableRef is required (what one chunk of the buffer looks like)");
            return null;
        }
        if (template) {
            YamlObject ref = spec.object("podTemplateRef");
            if (ref == null) {
                return null;
            }
            ref.allow("name");
            String name = nonEmpty(ref, "name");
            return name == null ? null : new CapacityBuffer.PodTemplateRef(name);
        }
        YamlObject ref = spec.object("scalableRef");
        if (ref == null) {
            return null;
        }
        ref.allow("apiGroup", "kind", "name");
        String group = ref.strictString("apiGroup");
        String kind = nonEmpty(ref, "kind");
        String name = nonEmpty(ref, "name");
        if (kind == null || name == null) {
            return null;
        }
        String expected = SCALABLE.get(kind);
        if (expected == null) {
            ref.error("kind", "Gantry sizes buffers from " + String.join(", ", new java.util.TreeSet<>(SCALABLE.keySet()))
                    + ", not " + kind);
            return null;
        }
        if (!expected.equals(group == null ? "" : group)) {
            ref.error(group == null ? "kind" : "apiGroup", kind + " is in apiGroup " + expected
                    + (group == null ? " (apiGroup is unset, which means the core group)" : ", not " + (group.isEmpty() ? "the core group" : group)));
            return null;
        }
        return new CapacityBuffer.ScalableRef(group, kind, name);
    }

    private static String nonEmpty(YamlObject o, String key) {
        if (!o.require(key)) {
            return null;
        }
        String s = o.strictString(key);
        if (s != null && s.isEmpty()) {
            o.error(key, "must not be empty");
            return null;
        }
        return s;
    }

    private static Integer nonNegative(YamlObject spec, String key) {
        Integer v = spec.integer(key);
        if (v != null && v < 0) {
            spec.error(key, "must be at least 0, got " + v);
            return null;
        }
        return v;
    }
}
