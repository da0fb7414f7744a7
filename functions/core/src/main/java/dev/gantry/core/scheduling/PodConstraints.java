package dev.gantry.core.scheduling;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A pod's constraints at one level of relaxation. The strictest level treats every preference as required; each
 * {@link #relax()} drops one preference, in Karpenter's order: another required node-affinity term, preferred pod
 * affinity, preferred pod anti-affinity, the heaviest preferred node-affinity term, a ScheduleAnyway spread, and
 * finally tolerating PreferNoSchedule taints.
 *
 * @param terms          the required node-affinity terms still to try (OR); the first one applies
 * @param preferredNode  preferred node-affinity terms, heaviest first; the first one applies as required
 * @param spreads        spread constraints still in force (DoNotSchedule always; ScheduleAnyway until relaxed)
 * @param affinity       required pod-affinity terms plus preferred ones not yet relaxed
 * @param antiAffinity   required pod-anti-affinity terms plus preferred ones not yet relaxed
 */
record PodConstraints(Pod pod, List<Requirements> terms, List<Requirements> preferredNode, List<TopologySpread> spreads,
                      List<PodAffinityTerm> affinity, List<PodAffinityTerm> antiAffinity, boolean toleratePreferNoSchedule) {

    static PodConstraints strict(Pod pod) {
        List<Requirements> preferred = pod.preferredNodeAffinity().stream()
                .sorted(Comparator.comparingInt(Pod.WeightedRequirements::weight).reversed())
                .map(Pod.WeightedRequirements::requirements).toList();
        List<PodAffinityTerm> aff = new ArrayList<>(pod.podAffinity());
        aff.addAll(byWeightDescending(pod.preferredPodAffinity()));
        List<PodAffinityTerm> anti = new ArrayList<>(pod.podAntiAffinity());
        anti.addAll(byWeightDescending(pod.preferredPodAntiAffinity()));
        return new PodConstraints(pod, pod.nodeRequirementTerms(), preferred, pod.topologySpread(), aff, anti, false);
    }

    private static List<PodAffinityTerm> byWeightDescending(List<PodAffinityTerm> terms) {
        return terms.stream().sorted(Comparator.comparingInt(PodAffinityTerm::weight).reversed()).toList();
    }

    /** The node requirements in force: the first required term, narrowed by the heaviest remaining preference. */
    Requirements nodeRequirements() {
        Requirements r = terms.get(0);
        return preferredNode.isEmpty() ? r : r.intersect(preferredNode.get(0));
    }

    Resources requests() {
        return pod.requests();
    }

    List<Toleration> tolerations() {
        return pod.tolerations();
    }

    List<HostPort> hostPorts() {
        return pod.hostPorts();
    }

    /** The first taint that blocks the pod at this level, or null. */
    Taint firstUntolerated(List<Taint> taints) {
        for (Taint t : taints) {
            if (t.effect() == Taint.Effect.PreferNoSchedule && toleratePreferNoSchedule) {
                continue;
            }
            if (!Toleration.anyTolerates(pod.tolerations(), t)) {
                return t;
            }
        }
        return null;
    }

    /** The next, looser level, or null when nothing is left to relax. */
    PodConstraints relax() {
        if (terms.size() > 1) {
            return new PodConstraints(pod, terms.subList(1, terms.size()), preferredNode, spreads, affinity, antiAffinity, toleratePreferNoSchedule);
        }
        int requiredAffinity = pod.podAffinity().size();
        if (affinity.size() > requiredAffinity) {
            return new PodConstraints(pod, terms, preferredNode, spreads, dropLast(affinity), antiAffinity, toleratePreferNoSchedule);
        }
        int requiredAnti = pod.podAntiAffinity().size();
        if (antiAffinity.size() > requiredAnti) {
            return new PodConstraints(pod, terms, preferredNode, spreads, affinity, dropLast(antiAffinity), toleratePreferNoSchedule);
        }
        if (!preferredNode.isEmpty()) {
            return new PodConstraints(pod, terms, preferredNode.subList(1, preferredNode.size()), spreads, affinity, antiAffinity, toleratePreferNoSchedule);
        }
        for (int i = 0; i < spreads.size(); i++) {
            if (!spreads.get(i).doNotSchedule()) {
                List<TopologySpread> s = new ArrayList<>(spreads);
                s.remove(i);
                return new PodConstraints(pod, terms, preferredNode, List.copyOf(s), affinity, antiAffinity, toleratePreferNoSchedule);
            }
        }
        if (!toleratePreferNoSchedule) {
            return new PodConstraints(pod, terms, preferredNode, spreads, affinity, antiAffinity, true);
        }
        return null;
    }

    /**
     * The pod with nothing but what kube-scheduler filters on: one level per required node-affinity term (a node
     * matching any of them will do), each with only the DoNotSchedule spreads and the required pod (anti-)affinity, and
     * PreferNoSchedule taints tolerated. Walking {@link #relax()} never reaches an earlier term without its preferences.
     */
    List<PodConstraints> hard() {
        List<TopologySpread> required = pod.topologySpread().stream().filter(TopologySpread::doNotSchedule).toList();
        List<PodConstraints> out = new ArrayList<>(pod.nodeRequirementTerms().size());
        for (Requirements term : pod.nodeRequirementTerms()) {
            out.add(new PodConstraints(pod, List.of(term), List.of(), required, pod.podAffinity(), pod.podAntiAffinity(), true));
        }
        return out;
    }

    /** Drops the lightest remaining preferred term (terms are required first, then preferred heaviest first). */
    private static List<PodAffinityTerm> dropLast(List<PodAffinityTerm> l) {
        return List.copyOf(l.subList(0, l.size() - 1));
    }

    /** Whether nothing at this level goes beyond the pod's hard constraints (so a failure here is final). */
    boolean hasTopology() {
        return !spreads.isEmpty() || !affinity.isEmpty() || !antiAffinity.isEmpty();
    }
}
