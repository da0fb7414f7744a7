package dev.gantry.config.workload;

import dev.gantry.config.karpenter.TaintReader;
import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns Kubernetes manifests into the pods, DaemonSets and nodes the scheduler sees. A Deployment, ReplicaSet or
 * StatefulSet expands to {@code spec.replicas} pods (default 1) and a Job to {@code spec.parallelism}, named
 * {@code <name>-0 … <name>-(n-1)}. PodDisruptionBudgets are accepted and not modelled yet.
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
    public record Workload(List<Pod> pods, DaemonSet daemonSet, Node node) {
    }

    public static Workload read(Doc doc) {
        YamlObject spec = doc.spec(false);
        Workload w = switch (doc.kind()) {
            case "Pod" -> new Workload(List.of(PodSpecReader.read(doc.namespace(), doc.name(), doc.labels(),
                    doc.annotations(), spec).build()), null, null);
            case "Node" -> new Workload(List.of(), null, node(doc, spec));
            case "DaemonSet" -> new Workload(List.of(), daemonSet(doc, spec), null);
            case "PodDisruptionBudget" -> new Workload(List.of(), null, null);
            default -> new Workload(replicas(doc, spec), null, null);
        };
        return doc.report().hasErrors() ? null : w;
    }

    private static List<Pod> replicas(Doc doc, YamlObject spec) {
        if (spec == null || !spec.require("template")) {
            return List.of();
        }
        String countField = REPLICATED.contains(doc.kind()) ? "replicas" : "parallelism";
        Integer n = spec.has(countField) ? spec.integer(countField) : Integer.valueOf(1);
        if (n != null && n < 0) {
            spec.error(countField, "must not be negative, got " + n);
            return List.of();
        }
        YamlObject template = spec.object("template");
        if (n == null || template == null) {
            return List.of();
        }
        YamlObject meta = template.object("metadata");
        Map<String, String> labels = meta == null ? null : meta.stringMap("labels");
        Map<String, String> annotations = meta == null ? null : meta.stringMap("annotations");
        Pod.Builder b = PodSpecReader.read(doc.namespace(), doc.name(), labels, annotations, template.object("spec"));
        String ownerKind = doc.kind().equals("Deployment") ? "ReplicaSet" : doc.kind();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Pod p = b.build();
            pods.add(new Pod(p.namespace(), doc.name() + "-" + i, null, p.labels(), p.annotations(), p.requests(),
                    p.nodeSelector(), p.requiredNodeAffinity(), p.preferredNodeAffinity(), p.tolerations(),
                    p.topologySpread(), p.podAffinity(), p.preferredPodAffinity(), p.podAntiAffinity(),
                    p.preferredPodAntiAffinity(), p.hostPorts(), p.nodeName(), ownerKind, doc.name(), p.priority(),
                    p.priorityClassName(), p.status()));
        }
        return pods;
    }

    private static DaemonSet daemonSet(Doc doc, YamlObject spec) {
        YamlObject template = spec == null ? null : spec.object("template");
        if (template == null) {
            doc.root().errorHere("spec.template", "required field is missing");
            return null;
        }
        YamlObject meta = template.object("metadata");
        Pod pod = PodSpecReader.read(doc.namespace(), doc.name(), meta == null ? null : meta.stringMap("labels"),
                meta == null ? null : meta.stringMap("annotations"), template.object("spec"))
                .owner("DaemonSet", doc.name()).build();
        return new DaemonSet(doc.namespace(), doc.name(), pod);
    }

    /**
     * A Node as the kube adapter maps one: deleting when it has a deletion timestamp or carries the disrupted taint, and
     * Ready by its {@code Ready} condition (absent counts as not ready).
     */
    private static Node node(Doc doc, YamlObject spec) {
        boolean unschedulable = false;
        String providerId = null;
        List<dev.gantry.core.model.Taint> taints = List.of();
        if (spec != null) {
            unschedulable = Boolean.TRUE.equals(spec.bool("unschedulable"));
            providerId = spec.string("providerID");
            taints = TaintReader.read(spec, "taints");
        }
        boolean disrupted = taints.stream().anyMatch(t -> t.key().equals(dev.gantry.core.model.Taint.DISRUPTED.key()));
        YamlObject meta = doc.root().object("metadata");
        Instant deletion = meta == null ? null : timestamp(meta, "deletionTimestamp");
        List<String> finalizers = meta == null ? List.of() : meta.strings("finalizers");
        YamlObject status = doc.root().object("status");
        Map<String, dev.gantry.core.model.Quantity> alloc = status == null ? null : status.quantityMap("allocatable");
        return new Node(doc.name(), providerId, doc.labels(), doc.annotations(), taints,
                alloc == null ? Resources.ZERO : Resources.fromQuantities(alloc), NodeConditions.ready(status), unschedulable,
                disrupted, null, finalizers, deletion);
    }

    private static Instant timestamp(YamlObject o, String key) {
        String v = o.string(key);
        if (v == null) {
            return null;
        }
        try {
            return Instant.parse(v);
        } catch (java.time.format.DateTimeParseException e) {
            o.error(key, "'" + v + "' is not an RFC 3339 timestamp");
            return null;
        }
    }
}
