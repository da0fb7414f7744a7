package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One immutable snapshot for a consolidation decision: every node with its pods, the NodePools with what they may
 * launch, the PodDisruptionBudgets, and the time. Nothing is read lazily.
 *
 * @param nodes           every node of the cluster (Gantry's and others'): others are destinations, never candidates
 * @param pools           the NodePools with their instance types (offerings priced), usage and node count
 * @param namespaceLabels labels of each namespace, for pod-affinity namespace selectors
 * @param reserved        pods bound to no node that must stay placeable on what remains: the headroom buffers' virtual
 *                        pods, and pods leaving nodes already being deleted. Each is first placed where it fits now (as if
 *                        bound there); a node holding one is not empty, and goes only if that pod fits elsewhere too.
 *                        One that fits nowhere now constrains nothing. Default none.
 * @param only            when not null, only these nodes may be candidates (validation re-decides a command on its own
 *                        nodes); the others are destinations as usual
 * @param inFlight        the NodeClaims launching without a node yet: never candidates nor destinations, but their
 *                        offerings count against their pool's dollar limit ({@link CostLimitGuard}). Default none.
 * @param launchPrices    the $/h each NodeClaim recorded at launch, by claim name ({@code CostLimit.launchPrices}), for
 *                        the dollar limit's count of a node or claim whose offering the catalogue no longer prices.
 *                        Default none.
 */
public record ConsolidationInput(List<ClusterNode> nodes, List<SchedulingInput.PoolOffer> pools, List<DaemonSet> daemonSets,
                                 List<PodDisruptionBudget> pdbs, Map<String, Map<String, String>> namespaceLabels,
                                 ConsolidationSettings settings, Instant now, List<Pod> reserved, java.util.Set<String> only,
                                 List<LaunchingClaim> inFlight, Map<String, Double> launchPrices) {
    public ConsolidationInput(List<ClusterNode> nodes, List<SchedulingInput.PoolOffer> pools, List<DaemonSet> daemonSets,
                              List<PodDisruptionBudget> pdbs, Map<String, Map<String, String>> namespaceLabels,
                              ConsolidationSettings settings, Instant now) {
        this(nodes, pools, daemonSets, pdbs, namespaceLabels, settings, now, List.of(), null, List.of());
    }

    /** Without recorded launch prices. */
    public ConsolidationInput(List<ClusterNode> nodes, List<SchedulingInput.PoolOffer> pools, List<DaemonSet> daemonSets,
                              List<PodDisruptionBudget> pdbs, Map<String, Map<String, String>> namespaceLabels,
                              ConsolidationSettings settings, Instant now, List<Pod> reserved, java.util.Set<String> only,
                              List<LaunchingClaim> inFlight) {
        this(nodes, pools, daemonSets, pdbs, namespaceLabels, settings, now, reserved, only, inFlight, Map.of());
    }

    public ConsolidationInput {
        reserved = List.copyOf(reserved == null ? List.of() : reserved);
        only = only == null ? null : java.util.Set.copyOf(only);
        nodes = List.copyOf(nodes);
        pools = List.copyOf(pools);
        daemonSets = List.copyOf(daemonSets == null ? List.of() : daemonSets);
        pdbs = List.copyOf(pdbs == null ? List.of() : pdbs);
        namespaceLabels = Map.copyOf(namespaceLabels == null ? Map.of() : namespaceLabels);
        settings = settings == null ? ConsolidationSettings.DEFAULT : settings;
        inFlight = List.copyOf(inFlight == null ? List.of() : inFlight);
        launchPrices = Map.copyOf(launchPrices == null ? Map.of() : launchPrices);
    }

    /** The same snapshot, with only {@code names} as possible candidates. */
    public ConsolidationInput restrictedTo(java.util.Set<String> names) {
        return new ConsolidationInput(nodes, pools, daemonSets, pdbs, namespaceLabels, settings, now, reserved, names, inFlight,
                launchPrices);
    }

    /** The same snapshot with {@code replaced} as its pools (offerings marked unavailable, say). */
    public ConsolidationInput withPools(List<SchedulingInput.PoolOffer> replaced) {
        return new ConsolidationInput(nodes, replaced, daemonSets, pdbs, namespaceLabels, settings, now, reserved, only, inFlight,
                launchPrices);
    }

    /** The same snapshot with {@code kept} as its reserved pods. */
    ConsolidationInput withReserved(List<Pod> kept) {
        return new ConsolidationInput(nodes, pools, daemonSets, pdbs, namespaceLabels, settings, now, kept, only, inFlight,
                launchPrices);
    }

    /** The same snapshot with {@code nodes} instead. */
    ConsolidationInput withNodes(List<ClusterNode> replaced) {
        return new ConsolidationInput(replaced, pools, daemonSets, pdbs, namespaceLabels, settings, now, List.of(), only, inFlight,
                launchPrices);
    }

    /**
     * A node, the pods bound to it, and what the NodeClaim store knows about it.
     *
     * @param claim          the NodeClaim's name, or null for a node Gantry does not manage
     * @param initializedAt  when the claim became Initialized, or null while it is not (not a candidate, not counted)
     * @param nominated      the provisioner has just planned pending pods onto it (Karpenter's nomination)
     * @param lastPodEventAt when a pod was last bound to or removed from the node (Karpenter's
     *                       {@code status.lastPodEventTime}), or null for none since it initialized;
     *                       {@code consolidateAfter} counts from this, else from {@code initializedAt}. The store keeps it
     *                       per claim: the sweep sets it when it sees the node's pod set change.
     * @param fromConsolidation the claim was launched by consolidation as a replacement (Gantry's churn guard: it is not
     *                       consolidated again until {@code consolidateAfter} has passed since it initialized)
     */
    public record ClusterNode(Node node, List<Pod> pods, String claim, Instant initializedAt, boolean nominated,
                              Instant lastPodEventAt, boolean fromConsolidation) {
        public ClusterNode {
            pods = List.copyOf(pods);
        }

        /** A managed, initialized node with no recorded pod event. */
        public static ClusterNode initialized(Node node, List<Pod> pods, Instant initializedAt) {
            return new ClusterNode(node, pods, node.name(), initializedAt, false, null, false);
        }

        public String name() {
            return node.name();
        }

        public boolean managed() {
            return claim != null && node.labels().containsKey(WellKnownLabels.NODEPOOL);
        }
    }

    /**
     * A NodeClaim in flight ({@link dev.gantry.core.provisioning.ClusterView#inFlight}: launching, its node not there
     * yet), with the offering it launches.
     *
     * @param zone         null while unknown
     * @param capacityType null while unknown
     */
    public record LaunchingClaim(String name, String nodePool, String instanceType, String zone, String capacityType) {
        /** The labels its node will carry that name its pool and offering, as the provisioner prices an in-flight claim. */
        public Map<String, String> labels() {
            return dev.gantry.core.capacity.CostLimit.labels(nodePool, instanceType, zone, capacityType);
        }
    }

    /**
     * Karpenter's IsUnderConsolidateAfter for a destination: a managed, initialized node of a pool whose
     * consolidateAfter is a positive duration that has not passed since its last pod event (else its initialization).
     */
    boolean underConsolidateAfter(ClusterNode c) {
        if (!c.managed() || c.initializedAt() == null) {
            return false;
        }
        String pool = c.node().labels().get(WellKnownLabels.NODEPOOL);
        for (SchedulingInput.PoolOffer o : pools()) {
            if (o.pool().name().equals(pool)) {
                java.util.Optional<java.time.Duration> after = o.pool().disruption().consolidateAfter();
                if (after.isEmpty() || after.get().isZero()) {
                    return false;
                }
                java.time.Instant since = c.lastPodEventAt() != null ? c.lastPodEventAt() : c.initializedAt();
                return now().isBefore(since.plus(after.get()));
            }
        }
        return false;
    }

    /** The node as the full solve must see one that is no destination: no room beyond what its pods use. */
    static dev.gantry.core.model.Node withoutRoom(dev.gantry.core.model.Node n, List<Pod> pods) {
        Resources used = Resources.ZERO;
        for (Pod p : pods) {
            used = used.plus(p.requests());
        }
        return new dev.gantry.core.model.Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), used,
                n.ready(), n.unschedulable(), n.deleting(), n.createdAt(), n.finalizers(), n.deletionTimestamp());
    }
}
