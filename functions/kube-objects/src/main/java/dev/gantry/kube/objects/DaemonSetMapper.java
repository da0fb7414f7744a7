package dev.gantry.kube.objects;

import static dev.gantry.kube.objects.Selectors.nonNull;

import dev.gantry.core.model.DaemonSet;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * DaemonSets as the core's {@link DaemonSet}: from the object's pod template, or, when a dump holds the DaemonSet's
 * pods but not the DaemonSet ({@code kubectl get nodes,pods} does not list them), from one of its pods with what the
 * DaemonSet controller added taken off again: the node it is bound to, and the {@code matchFields metadata.name} term
 * that pins each copy to its node. Either way the template is mapped by {@link PodMapper}, as every pod is.
 */
public final class DaemonSetMapper {
    private DaemonSetMapper() {
    }

    public static DaemonSet daemonSet(io.fabric8.kubernetes.api.model.apps.DaemonSet ds) {
        String ns = ds.getMetadata().getNamespace() == null ? "default" : ds.getMetadata().getNamespace();
        String name = ds.getMetadata().getName();
        var t = ds.getSpec() == null ? null : ds.getSpec().getTemplate();
        return new DaemonSet(ns, name, PodMapper.template(ns, name, t == null ? null : t.getMetadata(),
                t == null ? null : t.getSpec(), "DaemonSet", name));
    }

    /**
     * The DaemonSet that owns {@code pod}, as its pod shows it (its labels, annotations and spec, without what the
     * controller added per node); null when no DaemonSet owns the pod.
     */
    public static DaemonSet fromPod(Pod pod) {
        OwnerReference owner = PodMapper.controller(pod.getMetadata().getOwnerReferences());
        if (owner == null || !"DaemonSet".equals(owner.getKind())) {
            return null;
        }
        String ns = pod.getMetadata().getNamespace() == null ? "default" : pod.getMetadata().getNamespace();
        ObjectMeta meta = new ObjectMeta();
        meta.setLabels(pod.getMetadata().getLabels());
        meta.setAnnotations(pod.getMetadata().getAnnotations());
        return new DaemonSet(ns, owner.getName(), PodMapper.template(ns, owner.getName(), meta, unpinned(pod.getSpec()),
                "DaemonSet", owner.getName()));
    }

    /**
     * The pod's spec without its node and without the DaemonSet controller's per-node {@code matchFields} terms; the
     * pod's own objects are not changed.
     */
    static PodSpec unpinned(PodSpec spec) {
        if (spec == null) {
            return null;
        }
        Affinity affinity = spec.getAffinity();
        NodeAffinity node = affinity == null ? null : affinity.getNodeAffinity();
        NodeSelector required = node == null ? null : node.getRequiredDuringSchedulingIgnoredDuringExecution();
        PodSpecBuilder copy = new PodSpecBuilder(spec).withNodeName(null);
        if (required == null) {
            return copy.build();
        }
        List<NodeSelectorTerm> terms = new ArrayList<>();
        for (NodeSelectorTerm t : nonNull(required.getNodeSelectorTerms())) {
            var fields = nonNull(t.getMatchFields()).stream().filter(f -> !"metadata.name".equals(f.getKey())).toList();
            if (!fields.isEmpty() || !nonNull(t.getMatchExpressions()).isEmpty()) {
                terms.add(new NodeSelectorTerm(t.getMatchExpressions(), fields));
            }
        }
        NodeAffinity unpinned = new NodeAffinity(node.getPreferredDuringSchedulingIgnoredDuringExecution(),
                terms.isEmpty() ? null : new NodeSelector(terms));
        return copy.withAffinity(new Affinity(unpinned, affinity.getPodAffinity(), affinity.getPodAntiAffinity())).build();
    }
}
