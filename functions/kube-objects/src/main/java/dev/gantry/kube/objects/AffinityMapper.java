package dev.gantry.kube.objects;

import static dev.gantry.kube.objects.Selectors.nonNull;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.requirements.Requirements;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A pod's {@code affinity}: node affinity as requirement sets (OR-ed terms), pod (anti-)affinity as terms. */
final class AffinityMapper {
    private AffinityMapper() {
    }

    static void map(Affinity a, Map<String, String> podLabels, Pod.Builder b) {
        NodeAffinity node = a.getNodeAffinity();
        if (node != null) {
            if (node.getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
                List<Requirements> terms = new ArrayList<>();
                for (NodeSelectorTerm t : nonNull(node.getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms())) {
                    terms.add(Selectors.nodeTerm(t));
                }
                b.requiredNodeAffinity(terms);
            }
            List<Pod.WeightedRequirements> preferred = new ArrayList<>();
            for (PreferredSchedulingTerm p : nonNull(node.getPreferredDuringSchedulingIgnoredDuringExecution())) {
                preferred.add(new Pod.WeightedRequirements(p.getWeight() == null ? 1 : p.getWeight(), Selectors.nodeTerm(p.getPreference())));
            }
            b.preferredNodeAffinity(preferred);
        }
        if (a.getPodAffinity() != null) {
            b.podAffinity(required(a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), podLabels));
            b.preferredPodAffinity(preferred(a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), podLabels));
        }
        if (a.getPodAntiAffinity() != null) {
            b.podAntiAffinity(required(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), podLabels));
            b.preferredPodAntiAffinity(preferred(a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), podLabels));
        }
    }

    private static List<PodAffinityTerm> required(List<io.fabric8.kubernetes.api.model.PodAffinityTerm> terms, Map<String, String> podLabels) {
        return nonNull(terms).stream().map(t -> term(t, 0, podLabels)).toList();
    }

    private static List<PodAffinityTerm> preferred(List<WeightedPodAffinityTerm> terms, Map<String, String> podLabels) {
        List<PodAffinityTerm> out = new ArrayList<>();
        for (WeightedPodAffinityTerm w : nonNull(terms)) {
            if (w.getPodAffinityTerm() != null) {
                out.add(term(w.getPodAffinityTerm(), w.getWeight() == null ? 1 : w.getWeight(), podLabels));
            }
        }
        return out;
    }

    /** {@code matchLabelKeys}/{@code mismatchLabelKeys} fold into the selector, as the API server does at admission. */
    private static PodAffinityTerm term(io.fabric8.kubernetes.api.model.PodAffinityTerm t, int weight, Map<String, String> podLabels) {
        LabelSelector selector = Selectors.withPodKeys(Selectors.label(t.getLabelSelector()), podLabels,
                t.getMatchLabelKeys(), t.getMismatchLabelKeys());
        // A present namespace selector, even an empty one (every namespace), differs from an absent one (own namespace).
        LabelSelector nsSelector = t.getNamespaceSelector() == null ? null : Selectors.label(t.getNamespaceSelector());
        return new PodAffinityTerm(selector, t.getTopologyKey() == null ? "" : t.getTopologyKey(), t.getNamespaces(), nsSelector, weight);
    }
}
