package dev.gantry.core.disruption.execution;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One read of the cluster and the store, turned into the consolidation engine's input. Pure once read. The sweep builds
 * it from the API server and the NodeClaim store; {@code gantry consolidate} from a cluster dump and the NodeClaims the
 * store would hold for its nodes, so the what-if decides on the same input.
 * <ul>
 *   <li>A node whose claim is deleting, or is a candidate of another consolidation command still under way, is given
 *       to the engine as deleting: not a candidate, not a destination, and counted against the budgets.</li>
 *   <li>Reserved (must stay placeable): the headroom's virtual pods, the pending pods, and the pods of nodes being
 *       deleted, which are about to need a home.</li>
 *   <li>In flight: the claims launching without a node yet ({@link ClaimsByNode#inFlight}, the provisioner's rule in
 *       {@link ClusterView#inFlight}), which count against their pool's dollar limit. A claim whose node is here is
 *       that node, never also in flight. The replacements of the command being validated are left out: a redelivered
 *       validation that recorded them before its leader moved on decides its replacements again, and would count them
 *       twice.</li>
 * </ul>
 */
public final class ClusterSnapshot {
    private final ClusterView view;
    private final List<dev.gantry.core.model.PodDisruptionBudget> pdbs;
    private final List<NodeClaim> claims;
    private ClaimsByNode index;
    /** Claims whose node's pods changed since their recorded fingerprint: their last pod event is now, written or not. */
    private final java.util.Set<String> podEventsNow = new java.util.HashSet<>();

    public ClusterSnapshot(ClusterView view, List<dev.gantry.core.model.PodDisruptionBudget> pdbs, List<NodeClaim> claims) {
        this.view = view;
        this.pdbs = List.copyOf(pdbs);
        this.claims = List.copyOf(claims);
    }

    public ClusterView view() {
        return view;
    }

    public List<dev.gantry.core.model.PodDisruptionBudget> pdbs() {
        return pdbs;
    }

    /** A pod event seen now for the claim (its fingerprint changed), whether or not the store recorded it yet. */
    void podEventNow(String claim) {
        podEventsNow.add(claim);
    }

    public static ClusterSnapshot read(ClusterReader reader, List<NodeClaim> claims) {
        return new ClusterSnapshot(ClusterView.read(reader), reader.podDisruptionBudgets(), claims);
    }

    /** The claim a node belongs to, by {@link ClaimsByNode}'s rule (instance id, then its claim label, then node name). */
    public Optional<NodeClaim> claimOf(Node n) {
        return index().claimOf(n);
    }

    private ClaimsByNode index() {
        if (index == null) {
            index = new ClaimsByNode(claims);
        }
        return index;
    }

    /** Non-terminal pods per node name. */
    public Map<String, List<Pod>> podsByNode() {
        Map<String, List<Pod>> out = new HashMap<>();
        for (Pod p : view.pods()) {
            if (p.isBound() && !p.status().isTerminal()) {
                out.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        return out;
    }

    /**
     * @param exceptCommand a command whose own candidates are <em>not</em> deleting (its validation), or null
     * @param activeLeaders the commands under way, by id (their candidates are treated as deleting)
     */
    public ConsolidationInput input(List<SchedulingInput.PoolOffer> pools, List<Pod> headroom, ConsolidationSettings settings,
                                    Instant now, String exceptCommand, java.util.Set<String> activeCommands) {
        Map<String, List<Pod>> byNode = podsByNode();
        List<ClusterNode> nodes = new ArrayList<>();
        List<Pod> reserved = new ArrayList<>(headroom);
        reserved.addAll(view.pending());
        for (Node n : view.nodes()) {
            List<Pod> pods = byNode.getOrDefault(n.name(), List.of());
            Optional<NodeClaim> claim = claimOf(n);
            ConsolidationMark m = claim.map(NodeClaim::consolidation).orElse(null);
            boolean inOtherCommand = m != null && !m.command().equals(exceptCommand) && activeCommands.contains(m.command())
                    && m.candidates().contains(claim.get().name());
            boolean deleting = n.deleting() || claim.map(c -> c.state().isDeleting()).orElse(false) || inOtherCommand;
            if (deleting && !(m != null && m.command().equals(exceptCommand))) {
                pods.stream().filter(EvictionCost::reschedulable).forEach(p -> reserved.add(p.withNodeName(null)));
            }
            Node node = deleting && !n.deleting() ? withDeleting(n) : n;
            if (m != null && m.command().equals(exceptCommand) && n.deleting() && n.deletionTimestamp() == null) {
                node = withDeleting(n, false); // tainted by its own command: still itself for the re-decision
            }
            if (claim.isEmpty() || !n.managed()) {
                nodes.add(new ClusterNode(node, pods, null, null, false, null, false));
                continue;
            }
            NodeClaim c = claim.get();
            Instant initialized = c.state().isBefore(NodeClaimState.Initialized) ? null : c.initializedAt();
            Instant lastPodEvent = podEventsNow.contains(c.name()) ? now : c.lastPodEventAt();
            nodes.add(new ClusterNode(node, pods, c.name(), initialized, false, lastPodEvent, c.fromConsolidation()));
        }
        return new ConsolidationInput(nodes, pools, view.daemonSets(), pdbs, view.namespaceLabels(), settings, now, reserved, null,
                inFlight(exceptCommand), dev.gantry.core.capacity.CostLimit.launchPrices(claims));
    }

    /** The claims in flight, but the replacements of {@code exceptCommand} ({@link CommandValidation#replacementOf}). */
    private List<ConsolidationInput.LaunchingClaim> inFlight(String exceptCommand) {
        List<ConsolidationInput.LaunchingClaim> out = new ArrayList<>();
        for (NodeClaim c : index().inFlight(view.nodes())) {
            if (exceptCommand == null || !CommandValidation.replacementOf(c, exceptCommand)) {
                out.add(new ConsolidationInput.LaunchingClaim(c.name(), c.nodePool(), c.instanceType(), c.zone(), c.capacityType()));
            }
        }
        return out;
    }

    private static Node withDeleting(Node n) {
        return withDeleting(n, true);
    }

    private static Node withDeleting(Node n, boolean deleting) {
        Node t = deleting ? n : n.undisrupted();
        return new Node(t.name(), t.providerId(), t.labels(), t.annotations(), t.taints(), t.allocatable(), t.ready(),
                t.unschedulable(), deleting, t.createdAt(), t.finalizers(), t.deletionTimestamp(), t.conditions());
    }
}
