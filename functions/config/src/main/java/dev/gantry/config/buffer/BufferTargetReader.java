package dev.gantry.config.buffer;

import dev.gantry.config.workload.PodSpecChecks;
import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.Report;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.model.Pod;

/**
 * Reads what a buffer can refer to: a {@code v1 PodTemplate} (its top-level {@code template}), and the pod template
 * and replica count of a Deployment, StatefulSet or ReplicaSet.
 */
public final class BufferTargetReader {
    private BufferTargetReader() {
    }

    /** A PodTemplate; null when it has errors (reported on the document). */
    public static BufferTargets.Target podTemplate(Doc doc) {
        YamlObject template = doc.root().object("template");
        if (template == null) {
            doc.root().require("template");
            return null;
        }
        template.allow("metadata", "spec");
        Pod pod = pod(doc, template);
        return doc.report().hasErrors() ? null : new BufferTargets.Target(doc.namespace(), "PodTemplate", doc.name(), pod, 0);
    }

    /**
     * A scalable workload, for a {@code scalableRef}: read again, with its own report, after the workload reader has
     * accepted the document (so its problems are reported once, by that reader). Null for other kinds.
     */
    public static BufferTargets.Target scalable(Doc doc) {
        if (!CapacityBufferReader.SCALABLE.containsKey(doc.kind())) {
            return null;
        }
        Report quiet = new Report(doc.report().path(), doc.report().object());
        YamlObject root = YamlObject.of(doc.root().node(), "", quiet);
        YamlObject spec = root == null ? null : root.object("spec");
        YamlObject template = spec == null ? null : spec.object("template");
        if (template == null) {
            return null;
        }
        Integer replicas = spec.has("replicas") ? spec.integer("replicas") : Integer.valueOf(1);
        Pod pod = pod(doc, template);
        return replicas == null || quiet.hasErrors() ? null
                : new BufferTargets.Target(doc.namespace(), doc.kind(), doc.name(), pod, replicas);
    }

    /**
     * The template's pod: its spec checked where written (problems go to the template's report), then read by the
     * kube-objects mapper as any pod template is.
     */
    private static Pod pod(Doc doc, YamlObject template) {
        YamlObject meta = template.object("metadata");
        if (meta != null) {
            meta.stringMap("labels");
            meta.stringMap("annotations");
        }
        PodSpecChecks.check(template.object("spec"));
        if (template.report().hasErrors()) {
            return null;
        }
        return dev.gantry.kube.objects.WorkloadPods.fromTemplate(doc.namespace(), doc.name(),
                dev.gantry.config.workload.ManifestObjects.as(template.node(), io.fabric8.kubernetes.api.model.PodTemplateSpec.class));
    }
}
