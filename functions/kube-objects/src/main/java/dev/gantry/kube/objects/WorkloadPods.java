package dev.gantry.kube.objects;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import dev.gantry.core.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods a workload manifest asks for, as its controller would create them, each then mapped by {@link PodMapper}
 * like any pod the API server returns: a Deployment, ReplicaSet or StatefulSet makes {@code spec.replicas} pods
 * (default 1), a Job {@code spec.parallelism} (default 1), named {@code <name>-0 … <name>-(n-1)} in the workload's
 * namespace ({@code default} when unset), with the template's labels and annotations and a controller owner
 * reference: a Deployment's pods are owned by a ReplicaSet that carries the Deployment's name (Gantry does not invent
 * the pod-template hash), the others by the workload itself. The pods are pending and carry no status.
 */
public final class WorkloadPods {
    private WorkloadPods() {
    }

    /** The workload's pods; empty for a kind that makes none (or a workload without a template). */
    public static List<Pod> of(HasMetadata workload) {
        return switch (workload) {
            case Deployment d -> d.getSpec() == null ? List.of()
                    : pods(workload, "ReplicaSet", d.getSpec().getTemplate(), d.getSpec().getReplicas());
            case ReplicaSet r -> r.getSpec() == null ? List.of()
                    : pods(workload, "ReplicaSet", r.getSpec().getTemplate(), r.getSpec().getReplicas());
            case StatefulSet s -> s.getSpec() == null ? List.of()
                    : pods(workload, "StatefulSet", s.getSpec().getTemplate(), s.getSpec().getReplicas());
            case Job j -> j.getSpec() == null ? List.of() : pods(workload, "Job", j.getSpec().getTemplate(), j.getSpec().getParallelism());
            case io.fabric8.kubernetes.api.model.Pod p -> List.of(PodMapper.pod(p));
            default -> List.of();
        };
    }

    /** The pod a template describes, as {@code workload}'s first replica would be (a buffer's chunk, say). */
    public static Pod fromTemplate(String namespace, String name, PodTemplateSpec template) {
        ObjectMeta meta = template == null ? null : template.getMetadata();
        return PodMapper.template(namespace, name, meta, template == null ? null : template.getSpec(), null, null);
    }

    private static List<Pod> pods(HasMetadata workload, String ownerKind, PodTemplateSpec template, Integer count) {
        if (template == null) {
            return List.of();
        }
        String ns = workload.getMetadata().getNamespace() == null ? "default" : workload.getMetadata().getNamespace();
        String name = workload.getMetadata().getName();
        int n = count == null ? 1 : count;
        ObjectMeta meta = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        List<Pod> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            var pod = new PodBuilder().withNewMetadata().withNamespace(ns).withName(name + "-" + i)
                    .withLabels(meta.getLabels()).withAnnotations(meta.getAnnotations())
                    .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(apiVersion(ownerKind)).withKind(ownerKind)
                            .withName(name).withController(true).build())
                    .endMetadata().withSpec(template.getSpec()).build();
            out.add(PodMapper.pod(pod));
        }
        return out;
    }

    private static String apiVersion(String kind) {
        return kind.equals("Job") ? "batch/v1" : "apps/v1";
    }
}
