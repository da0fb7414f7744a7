package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link ConsolidationInput#reserved} made concrete: each reserved pod is bound, first-fit in node order, to a node that
 * is not deleting and has the room, tolerates it and matches its node requirements, as if it ran there. Then every
 * trial must re-place it like any other pod of a removed node, so a node whose removal leaves one nowhere to go stays.
 * A reserved pod that fits nowhere now is dropped: keeping nodes cannot make it fit.
 */
final class Reserved {
    /** The annotation a bound reserved pod carries, so verdicts can tell headroom from real pods. */
    static final String MARK = "gantry.dev/reserved";

    private Reserved() {
    }

    /** The input with its reserved pods bound; the names of the nodes that got one, in {@code holders}. */
    static ConsolidationInput bind(ConsolidationInput in, Set<String> holders) {
        if (in.reserved().isEmpty()) {
            return in;
        }
        int n = in.nodes().size();
        Resources[] free = new Resources[n];
        List<List<Pod>> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ClusterNode c = in.nodes().get(i);
            pods.add(new ArrayList<>(c.pods()));
            if (c.node().deleting() || !c.node().ready()) {
                continue;
            }
            Resources used = Resources.ZERO;
            for (Pod p : c.pods()) {
                if (!p.status().isTerminal()) {
                    used = used.plus(p.requests());
                }
            }
            free[i] = c.node().allocatable().minus(used);
        }
        for (Pod p : in.reserved()) {
            for (int i = 0; i < n; i++) {
                ClusterNode c = in.nodes().get(i);
                if (free[i] == null || !p.requests().fitsIn(free[i])
                        || Toleration.firstUntolerated(p.tolerations(), c.node().effectiveTaints()) != null) {
                    continue;
                }
                Map<String, String> labels = new HashMap<>(c.node().labels());
                labels.putIfAbsent(WellKnownLabels.HOSTNAME, c.name());
                if (p.nodeRequirementTerms().stream().noneMatch(t -> t.matches(labels))) {
                    continue;
                }
                free[i] = free[i].minus(p.requests());
                Map<String, String> annotations = new HashMap<>(p.annotations());
                annotations.put(MARK, "true");
                pods.get(i).add(new Pod(p.namespace(), p.name(), p.uid(), p.labels(), annotations, p.requests(), p.nodeSelector(),
                        p.requiredNodeAffinity(), p.preferredNodeAffinity(), p.tolerations(), p.topologySpread(), p.podAffinity(),
                        p.preferredPodAffinity(), p.podAntiAffinity(), p.preferredPodAntiAffinity(), p.hostPorts(), c.name(),
                        p.ownerKind(), p.ownerName(), p.priority(), p.priorityClassName(), p.status()));
                holders.add(c.name());
                break;
            }
        }
        List<ClusterNode> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ClusterNode c = in.nodes().get(i);
            nodes.add(new ClusterNode(c.node(), pods.get(i), c.claim(), c.initializedAt(), c.nominated(), c.lastPodEventAt(),
                    c.fromConsolidation()));
        }
        return in.withNodes(nodes);
    }

    /** Whether {@code p} is a reserved pod bound by {@link #bind}. */
    static boolean marked(Pod p) {
        return "true".equals(p.annotations().get(MARK));
    }

    /** Whether a verdict's node holds only reserved pods (among its reschedulable ones). */
    static boolean onlyReserved(ClusterNode n) {
        Set<Boolean> kinds = new HashSet<>();
        n.pods().stream().filter(EvictionCost::reschedulable).forEach(p -> kinds.add("true".equals(p.annotations().get(MARK))));
        return kinds.equals(Set.of(true));
    }
}
