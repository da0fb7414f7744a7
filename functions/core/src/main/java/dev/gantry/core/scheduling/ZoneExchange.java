package dev.gantry.core.scheduling;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;

/**
 * Which replicas of a zonal spread may trade zones in {@link JointRepack}. The first passes decide each replica's zone
 * as it comes, so which of a spread's shapes sit in which zone is an accident of order; the optimum pairs them with
 * what each zone's nodes have spare. Two pods alike in everything but their requests (namespace, labels, spreads,
 * tolerations, node requirements) are selected by the same topology groups and judged by the same constraints, so
 * swapping their zones leaves every count of every group as it is, and both stay within their spread. A pod takes part
 * only if zone is the one key that matters to it: its spreads are all on zone, it has no pod affinity or anti-affinity
 * (required or preferred), no preferred node affinity, one node-selector term, and every group that counts it is
 * on zone and counts it on every node of its kind (no node filter, or the filter of one of its own spreads, which its
 * kind always meets).
 */
final class ZoneExchange {
    private ZoneExchange() {
    }

    /** The pods of one key may trade zones with one another; null if this pod may not trade. */
    static List<Object> key(Packer packer, PodConstraints c) {
        Pod p = c.pod();
        if (c.spreads().isEmpty() || !c.affinity().isEmpty() || !c.antiAffinity().isEmpty() || !c.preferredNode().isEmpty()
                || c.terms().size() != 1 || !p.hostPorts().isEmpty()) {
            return null;
        }
        List<Topology.GroupKey> own = c.spreads().stream().map(s -> Topology.spreadKey(p, s)).toList();
        for (TopologySpread s : c.spreads()) {
            if (!WellKnownLabels.normalize(s.topologyKey()).equals(WellKnownLabels.ZONE)) {
                return null;
            }
        }
        for (Topology.Group g : packer.topology.selecting(p)) {
            if (!g.id.key().equals(WellKnownLabels.ZONE) || (g.id.filter() != null && !own.contains(g.id))) {
                return null;
            }
        }
        return List.of(p.namespace(), p.labels(), c.spreads(), c.nodeRequirements(), p.tolerations(), c.toleratePreferNoSchedule());
    }
}
