package dev.gantry.config.workload;

import dev.gantry.config.karpenter.TaintReader;
import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.kube.objects.DaemonSetMapper;
import dev.gantry.kube.objects.NodeMapper;
import dev.gantry.kube.objects.PdbMapper;
import dev.gantry.kube.objects.PodMapper;
import dev.gantry.kube.objects.WorkloadPods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns Kubernetes manifests a person wrote into the pods, DaemonSets, nodes and PodDisruptionBudgets the scheduler
 * sees. Two steps: the fields Gantry uses are checked where they are written ({@link PodSpecChecks}), then the manifest
 * is read into fabric8's model and mapped by {@code dev.gantry.kube.objects}, exactly as the API server's objects are.
 * A Deployment, ReplicaSet or StatefulSet expands to {@code spec.replicas} pods (default 1) and a Job to
 * {@code spec.parallelism}, as {@link WorkloadPods} describes.
 */
public final class WorkloadReader {
    /** The kinds this reader accepts, with the apiVersion each must have. */
    public static final Map<String, String> KINDS = Map.of("Pod", "v1", "Node", "v1", "Deployment", "apps/v1",
            "StatefulSet", "apps/v1", "ReplicaSet", "apps/v1", "DaemonSet", "apps/v1", "Job", "batch/v1",
            "PodDisruptionBudget", "policy/v1");
    private static final Set<String> REPLICATED = Set.of("Deployment", "StatefulSet", "ReplicaSet");

    private WorkloadReader() {
    }

    /** What one manifest yields. */
    public record Workload(List<Pod> pods, DaemonSet daemonSet, Node node, PodDisruptionBudget pdb) {
    }

    /** The manifest's values; null when it has errors (each reported on the document). */
    public static Workload read(Doc doc) {
        check(doc);
        if (doc.report().hasErrors()) {
            return null;
        }
        try {
            return switch (doc.kind()) {
                case "Pod" -> new Workload(List.of(PodMapper.pod(object(doc, io.fabric8.kubernetes.api.model.Pod.class))), null, null, null);
                case "Node" -> new Workload(List.of(), null, NodeMapper.node(object(doc, io.fabric8.kubernetes.api.model.Node.class)), null);
                case "DaemonSet" -> new Workload(List.of(), DaemonSetMapper.daemonSet(object(doc,
                        io.fabric8.kubernetes.api.model.apps.DaemonSet.class)), null, null);
                case "PodDisruptionBudget" -> new Workload(List.of(), null, null, PdbMapper.pdb(object(doc,
                        io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class)));
                case "Deployment" -> pods(doc, io.fabric8.kubernetes.api.model.apps.Deployment.class);
                case "StatefulSet" -> pods(doc, io.fabric8.kubernetes.api.model.apps.StatefulSet.class);
                case "ReplicaSet" -> pods(doc, io.fabric8.kubernetes.api.model.apps.ReplicaSet.class);
                case "Job" -> pods(doc, io.fabric8.kubernetes.api.model.batch.v1.Job.class);
                default -> null;
            };
        } catch (RuntimeException e) {
            // A value the checks let through and the model or the mapper refuses: reported on the object.
            doc.root().errorHere("", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse(""));
            return null;
        }
    }

    private static Workload pods(Doc doc, Class<? extends HasMetadata> type) {
        return new Workload(WorkloadPods.of(object(doc, type)), null, null, null);
    }

    /** The manifest as fabric8's model, in the namespace the loader settled on ({@code default} when unset). */
    private static <T extends HasMetadata> T object(Doc doc, Class<T> type) {
        T o = ManifestObjects.as(doc.root().node(), type);
        if (!doc.kind().equals("Node")) {
            o.getMetadata().setNamespace(doc.namespace());
        }
        return o;
    }

    /** The checks of the fields Gantry reads, each problem at its line. */
    private static void check(Doc doc) {
        YamlObject spec = doc.spec(false);
        switch (doc.kind()) {
            case "Pod" -> PodSpecChecks.check(spec);
            case "Node" -> node(doc, spec);
            case "PodDisruptionBudget" -> {
                if (spec != null) {
                    AffinityChecks.selector(spec, "selector");
                }
            }
            case "DaemonSet" -> {
                YamlObject template = spec == null ? null : spec.object("template");
                if (template == null) {
                    doc.root().errorHere("spec.template", "required field is missing");
                } else {
                    template(template);
                }
            }
            default -> replicated(doc, spec);
        }
    }

    private static void replicated(Doc doc, YamlObject spec) {
        if (spec == null || !spec.require("template")) {
            return;
        }
        String countField = REPLICATED.contains(doc.kind()) ? "replicas" : "parallelism";
        Integer n = spec.has(countField) ? spec.integer(countField) : Integer.valueOf(1);
        if (n != null && n < 0) {
            spec.error(countField, "must not be negative, got " + n);
        }
        YamlObject template = spec.object("template");
        if (template != null) {
            template(template);
        }
    }

    private static void template(YamlObject template) {
        YamlObject meta = template.object("metadata");
        if (meta != null) {
            meta.stringMap("labels");
            meta.stringMap("annotations");
        }
        PodSpecChecks.check(template.object("spec"));
    }

    private static void node(Doc doc, YamlObject spec) {
        if (spec != null) {
            spec.bool("unschedulable");
            spec.string("providerID");
            TaintReader.read(spec, "taints");
        }
        YamlObject meta = doc.root().object("metadata");
        if (meta != null) {
            timestamp(meta, "deletionTimestamp");
            timestamp(meta, "creationTimestamp");
            meta.strings("finalizers");
        }
        YamlObject status = doc.root().object("status");
        if (status != null) {
            status.quantityMap("allocatable");
            for (YamlObject c : status.objects("conditions")) {
                c.string("type");
                c.string("status");
            }
        }
    }

    private static void timestamp(YamlObject o, String key) {
        String v = o.string(key);
        if (v != null) {
            try {
                PodMapper.instant(v);
            } catch (java.time.format.DateTimeParseException e) {
                o.error(key, "'" + v + "' is not an RFC 3339 timestamp");
            }
        }
    }
}
