package dev.gantry.core.model;

import java.util.List;

/**
 * A pod (anti-)affinity term: pods matching {@code selector}, in {@code namespaces} (the pod's own namespace when
 * empty and no namespace selector is given), counted per {@code topologyKey} domain.
 *
 * @param weight 1–100 for a preferred term; 0 for a required one
 */
public record PodAffinityTerm(LabelSelector selector, String topologyKey, List<String> namespaces,
                              LabelSelector namespaceSelector, int weight) {
    public PodAffinityTerm {
        namespaces = List.copyOf(namespaces == null ? List.of() : namespaces);
        selector = selector == null ? LabelSelector.NOTHING : selector;
    }

    public static PodAffinityTerm required(LabelSelector selector, String topologyKey) {
        return new PodAffinityTerm(selector, topologyKey, List.of(), null, 0);
    }

    /** Whether a pod in {@code namespace} with {@code labels} is one this term counts, for a term owned by a pod in {@code ownNamespace}. */
    public boolean selects(String ownNamespace, String namespace, java.util.Map<String, String> labels,
                           java.util.Map<String, String> namespaceLabels) {
        boolean nsOk;
        if (namespaceSelector != null) {
            nsOk = namespaces.contains(namespace) || namespaceSelector.matches(namespaceLabels == null ? java.util.Map.of() : namespaceLabels);
        } else {
            nsOk = namespaces.isEmpty() ? namespace.equals(ownNamespace) : namespaces.contains(namespace);
        }
        return nsOk && selector.matches(labels);
    }
}
