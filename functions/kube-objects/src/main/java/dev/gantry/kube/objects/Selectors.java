package dev.gantry.kube.objects;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** fabric8 label selectors and node selector terms as the core's {@link LabelSelector} and {@link Requirements}. */
public final class Selectors {
    private Selectors() {
    }

    /** A label selector; null is {@link LabelSelector#NOTHING}, as Kubernetes reads a null selector in affinity terms and PDBs. */
    public static LabelSelector label(io.fabric8.kubernetes.api.model.LabelSelector s) {
        if (s == null) {
            return LabelSelector.NOTHING;
        }
        List<Requirement> exprs = new ArrayList<>();
        for (LabelSelectorRequirement r : nonNull(s.getMatchExpressions())) {
            exprs.add(new Requirement(r.getKey(), Operator.parse(r.getOperator()), nonNull(r.getValues()), null));
        }
        return new LabelSelector(s.getMatchLabels(), exprs, false);
    }

    /**
     * A node selector term's match expressions as requirements (keys normalized by the core). {@code matchFields}
     * (only {@code metadata.name}) pins a pod to an existing node by name, which no new node can satisfy; it maps to
     * the hostname label, which is what a node's name is on EKS.
     */
    static Requirements nodeTerm(NodeSelectorTerm term) {
        if (term == null) {
            return Requirements.NONE;
        }
        List<Requirement> reqs = new ArrayList<>();
        for (NodeSelectorRequirement r : nonNull(term.getMatchExpressions())) {
            reqs.add(new Requirement(r.getKey(), Operator.parse(r.getOperator()), nonNull(r.getValues()), null));
        }
        for (NodeSelectorRequirement r : nonNull(term.getMatchFields())) {
            if ("metadata.name".equals(r.getKey())) {
                reqs.add(new Requirement("kubernetes.io/hostname", Operator.parse(r.getOperator()), nonNull(r.getValues()), null));
            }
        }
        return Requirements.of(reqs);
    }

    /** The selector narrowed by the pod's own values for {@code keys} (In) and, for {@code notKeys}, excluding them. */
    static LabelSelector withPodKeys(LabelSelector selector, Map<String, String> podLabels, List<String> keys,
                                     List<String> notKeys) {
        if (selector.matchesNothing()) {
            return selector;
        }
        Map<String, String> extra = new java.util.TreeMap<>();
        for (String k : nonNull(keys)) {
            if (podLabels.containsKey(k)) {
                extra.put(k, podLabels.get(k));
            }
        }
        LabelSelector out = selector.and(extra);
        List<Requirement> mismatch = new ArrayList<>();
        for (String k : nonNull(notKeys)) {
            if (podLabels.containsKey(k)) {
                mismatch.add(Requirement.of(k, Operator.NotIn, podLabels.get(k)));
            }
        }
        if (mismatch.isEmpty()) {
            return out;
        }
        mismatch.addAll(0, out.matchExpressions());
        return new LabelSelector(out.matchLabels(), mismatch, false);
    }

    public static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    public static <K, V> Map<K, V> nonNull(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }
}
