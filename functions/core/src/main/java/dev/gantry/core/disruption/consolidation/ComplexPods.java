package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.TopologySpread;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which pods a consolidation trial cannot place first-fit ({@link Simulation}): a pod with topology of its own (spread,
 * pod (anti-)affinity, preferences, host ports, more than one node-selector term), and a pod some other pod's spread or
 * affinity selects (conservatively: a selector matching its labels in any namespace).
 */
final class ComplexPods {
    private ComplexPods() {
    }

    /** The pods of {@code all} that are not simple (by identity). */
    static Set<Pod> of(List<Pod> all) {
        Set<Pod> complex = Collections.newSetFromMap(new IdentityHashMap<>());
        List<TopologySpread> spreads = new ArrayList<>();
        List<PodAffinityTerm> terms = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        for (Pod p : all) {
            spreads.addAll(p.topologySpread());
            for (List<PodAffinityTerm> l : List.of(p.podAffinity(), p.podAntiAffinity(), p.preferredPodAffinity(), p.preferredPodAntiAffinity())) {
                for (PodAffinityTerm t : l) {
                    terms.add(t);
                    owners.add(p.namespace());
                }
            }
        }
        Set<Map<String, String>> simpleLabels = new HashSet<>();
        Set<Map<String, String>> selectedLabels = new HashSet<>();
        for (Pod p : all) {
            boolean own = !p.topologySpread().isEmpty() || !p.podAffinity().isEmpty() || !p.podAntiAffinity().isEmpty()
                    || !p.preferredPodAffinity().isEmpty() || !p.preferredPodAntiAffinity().isEmpty() || !p.hostPorts().isEmpty()
                    || !p.preferredNodeAffinity().isEmpty() || p.nodeRequirementTerms().size() > 1;
            if (own) {
                complex.add(p);
                continue;
            }
            if (spreads.isEmpty() && terms.isEmpty()) {
                continue;
            }
            Map<String, String> key = p.labels();
            boolean selected;
            if (simpleLabels.contains(key)) {
                selected = false;
            } else if (selectedLabels.contains(key)) {
                selected = true;
            } else {
                // Conservative: a selector matching the labels in any namespace makes the pod count for someone.
                selected = spreads.stream().anyMatch(s -> s.selector().matches(key)) || terms.stream().anyMatch(t -> t.selector().matches(key));
                (selected ? selectedLabels : simpleLabels).add(key);
            }
            if (selected) {
                complex.add(p);
            }
        }
        return complex;
    }
}
