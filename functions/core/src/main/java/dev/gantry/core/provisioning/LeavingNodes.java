package dev.gantry.core.provisioning;

import dev.gantry.core.disruption.DoNotDisrupt;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.lifecycle.LostCommands;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Nodes on their way out, and the pods on them that will need a home: what the provisioner plans together with the
 * pending pods, as Karpenter's provisioner adds the currently reschedulable pods of its deleting nodes
 * ({@code GetPendingPods} and {@code nodes.Deleting().CurrentlyReschedulablePods}, pkg/controllers/provisioning). So a
 * replacement is sized for them and launched before they are evicted; a pod that goes pending meanwhile does not take
 * its room unseen (it is planned too, and gets capacity of its own); and a drain that waits for its replacement has
 * something to wait for.
 *
 * <p>A node is leaving when it is being deleted, carries {@code karpenter.sh/disrupted:NoSchedule} (a drain began, or a
 * consolidation command tainted it once its replacements were recorded), or its claim is marked for deletion (the
 * window before its drain's first slice taints it). Consolidation taints its candidates only after recording their
 * replacements, as Karpenter marks them for deletion only after creating them, so the candidates' pods are planned
 * onto those replacements (in flight, with the labels their nodes will carry) and nothing is launched twice. Once one of
 * those replacements has failed the command is lost ({@link LostCommands}): its candidates are not leaving, and the
 * provisioner launches nothing for their pods, which stay when the command is aborted.
 *
 * <p>Where they go (PlanningInputs): a claim recorded for one of them (in flight, or registered and staying) keeps it;
 * the others are planned like pending pods, except that the pods of a drain that waits for its replacement
 * ({@link #WAITING_REASONS}) never go into spare room of another claim in flight, which that drain would not know to
 * wait for: their capacity still to come is always a claim naming them. Consolidation candidates' pods may use such
 * room, as consolidation's own plan may have (it waits for its replacements itself).
 *
 * <p>A pod will move, as Karpenter's {@code IsCurrentlyReschedulable} says, when it is active (or a StatefulSet pod
 * being deleted, whose successor takes its identity and needs its room), not a DaemonSet or mirror pod, not protected by
 * an active {@code karpenter.sh/do-not-disrupt}, and not held by a fully blocking PodDisruptionBudget
 * ({@code maxUnavailable} 0 or 0%, {@code minAvailable} 100%) or by two budgets at once (the Eviction API refuses
 * those): capacity for a pod that will not be evicted would stand idle. Pods of standalone workloads are planned as
 * Karpenter plans them: their eviction is real, and a user who re-creates them expects room.
 */
public final class LeavingNodes {
    /**
     * The deletion reasons whose drain waits for its replacement: expiry (the sweep starts it so). A rebalance no longer
     * does: its command launches and initializes the replacement before the drain, as drift's.
     */
    static final Set<String> WAITING_REASONS = Set.of("expired");

    /** A pod of a leaving node, unbound for planning, and whether its drain waits for its replacement. */
    record Leaving(Pod pod, boolean drainWaits) {
    }

    private LeavingNodes() {
    }

    /**
     * The nodes that stay and hold room for leaving pods: their claim was recorded for a pod still running on a leaving
     * node (its replacement, launched before the pod's eviction). Such a node is not empty, whatever runs on it yet:
     * removing it would leave those pods without the room launched for them.
     *
     * @param pods every pod of the cluster
     */
    public static Set<String> holders(List<NodeClaim> claims, List<Node> nodes, List<Pod> pods) {
        Map<String, NodeClaim> byNode = PlanningInputs.claimsByNode(claims, nodes);
        Set<String> leaving = of(nodes, byNode, LostCommands.among(claims));
        if (leaving.isEmpty()) {
            return Set.of();
        }
        Set<String> waiting = new java.util.HashSet<>();
        for (Pod p : pods) {
            if (p.isBound() && leaving.contains(p.nodeName()) && EvictionCost.reschedulable(p)) {
                waiting.add(p.key());
            }
        }
        Set<String> out = new TreeSet<>();
        byNode.forEach((node, claim) -> {
            if (!leaving.contains(node) && claim.pods().stream().anyMatch(waiting::contains)) {
                out.add(node);
            }
        });
        return out;
    }

    /** Whether the node itself shows that it is leaving: being deleted, or tainted disrupted. */
    static boolean visible(Node n) {
        return n.deleting() || n.hasTaint(Taint.DISRUPTED);
    }

    /**
     * The names of the leaving nodes: {@link #visible}, or their claim is marked for deletion; but not a candidate of a
     * lost consolidation command ({@link LostCommands}) that is not being deleted: its taint goes when the command is
     * aborted, and its pods stay.
     */
    static Set<String> of(List<Node> nodes, Map<String, NodeClaim> claimsByNode, LostCommands lost) {
        Set<String> out = new TreeSet<>();
        for (Node n : nodes) {
            NodeClaim c = claimsByNode.get(n.name());
            boolean deleting = n.deletionTimestamp() != null || (c != null && c.state().isDeleting());
            if (deleting || (visible(n) && !lost.contains(c))) {
                out.add(n.name());
            }
        }
        return out;
    }

    /**
     * The pods of the leaving nodes that will move, unbound (as pending pods are planned), in API order. Each gets a uid
     * of its own for planning ({@code <uid>@<node>}): claims are named after their pods' uids, and these pods first
     * launched the claim of the very node they leave, so a replacement planned for the same pods would be named as
     * that claim.
     */
    static List<Leaving> pods(ClusterView view, Set<String> leaving, Map<String, NodeClaim> claimsByNode, Instant now) {
        if (leaving.isEmpty()) {
            return List.of();
        }
        List<Leaving> out = new ArrayList<>();
        for (Pod p : view.pods()) {
            if (p.isBound() && leaving.contains(p.nodeName()) && willMove(p, view.pdbs(), now)) {
                NodeClaim c = claimsByNode.get(p.nodeName());
                boolean waits = c != null && c.state().isDeleting() && WAITING_REASONS.contains(c.deletionReason());
                out.add(new Leaving(p.toBuilder().uid(p.uid() + "@" + p.nodeName()).nodeName(null).build(), waits));
            }
        }
        return out;
    }

    private static boolean willMove(Pod p, List<PodDisruptionBudget> pdbs, Instant now) {
        if (!EvictionCost.reschedulable(p) || DoNotDisrupt.active(p, now)) {
            return false;
        }
        if (Toleration.anyTolerates(p.tolerations(), Taint.DISRUPTED)) {
            return true; // never evicted, so never refused by a budget: it goes with the node
        }
        List<PodDisruptionBudget> covering = pdbs.stream().filter(b -> b.covers(p)).toList();
        return covering.size() <= 1 && covering.stream().noneMatch(LeavingNodes::fullyBlocking);
    }

    private static boolean fullyBlocking(PodDisruptionBudget b) {
        return "0".equals(b.maxUnavailable()) || "0%".equals(b.maxUnavailable()) || "100%".equals(b.minAvailable());
    }
}
