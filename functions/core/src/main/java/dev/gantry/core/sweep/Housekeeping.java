package dev.gantry.core.sweep;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.health.RepairPolicies;
import dev.gantry.core.health.RepairSafeguard;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.sweep.HousekeepingCommand.AdoptInstance;
import dev.gantry.core.sweep.HousekeepingCommand.DrainOrphan;
import dev.gantry.core.sweep.HousekeepingCommand.FinishClaim;
import dev.gantry.core.sweep.HousekeepingCommand.MarkNotReady;
import dev.gantry.core.sweep.HousekeepingCommand.Repair;
import dev.gantry.core.sweep.HousekeepingCommand.RepairBlocked;
import dev.gantry.core.sweep.HousekeepingCommand.StartDeletedNode;
import dev.gantry.core.sweep.HousekeepingCommand.TerminateLeaked;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Liveness, garbage collection and missed deletions, from one snapshot of claims, instances and nodes.
 * <ul>
 *   <li>Crashed launches: a claim still Launching whose instance exists (tagged with the claim's name: CreateFleet
 *       ran, recording it did not) adopts that instance.</li>
 *   <li>Liveness: a claim still Launching {@link #LAUNCH_TIMEOUT} after it was created with no instance to be found,
 *       or Launched but not registered 15 minutes after launch, is finished and its instance terminated; its pods stay
 *       pending and are provisioned again. The launch timeout outlasts the provisioning queue's visibility timeout
 *       (6 minutes) with margin, so a redelivered batch resumes the launch before the sweep gives up on it.</li>
 *   <li>Leaks: an instance carrying this cluster's tag, older than 30 s, that no live claim owns is terminated, unless
 *       a Node registered for it: then it is drained first, through the termination flow. Instances without the tag
 *       are never touched, even if a caller hands them in.</li>
 *   <li>Lost instances: a claim whose instance no longer exists is finished, and its Node deleted unless Ready (a Ready
 *       node is left for a later sweep: the instance list may lag).</li>
 *   <li>Lost nodes: a registered claim whose Node is gone (deleted out of band, finalizer and all) while its instance
 *       runs is terminated ({@code node-deleted}); registration must be at least 30 s old, so a node that registered
 *       after this sweep listed the nodes is not mistaken for a lost one.</li>
 *   <li>Node repair, as Karpenter's: a node one of whose conditions has held past its toleration ({@link RepairPolicies}:
 *       Ready False/Unknown 30 min, AcceleratedHardwareReady False 10 min…) is terminated without waiting for its pods
 *       ({@code unhealthy}), unless more than a fifth of its pool is unhealthy ({@link RepairSafeguard}: then the cause
 *       is wider than one node, and replacing nodes would not help); a blocked repair says so in a
 *       {@code NodeRepairBlocked} Event and is tried again by the next sweep. Otherwise a broken node would keep its
 *       instance, and count against its pool's disruption budget, forever.</li>
 *   <li>Deletions the webhook missed: a Node with a deletion timestamp and Gantry's finalizer whose claim is not yet
 *       deleting starts the termination flow.</li>
 * </ul>
 */
public final class Housekeeping {
    /** Provisioning visibility timeout (6 min) + delivery delay + one run, with margin. */
    public static final Duration LAUNCH_TIMEOUT = Duration.ofMinutes(10);
    public static final Duration REGISTRATION_TIMEOUT = Duration.ofMinutes(15);
    /** Karpenter's (AWS provider's) toleration for a node whose Ready condition is False or Unknown. */
    public static final Duration REPAIR_AFTER = Duration.ofMinutes(30);
    private static final RepairPolicies POLICIES = RepairPolicies.aws();
    private static final RepairSafeguard SAFEGUARD = new RepairSafeguard(POLICIES);
    /** EC2's listing is eventually consistent: leave young instances (and claims) alone. */
    public static final Duration MIN_AGE = Duration.ofSeconds(30);

    private Housekeeping() {
    }

    public static List<HousekeepingCommand> decide(String cluster, List<NodeClaim> claims, List<CloudInstance> instances,
                                                   List<Node> nodes, Instant now) {
        List<HousekeepingCommand> out = new ArrayList<>();
        Map<String, NodeClaim> byInstance = new HashMap<>();
        Map<String, NodeClaim> byName = new HashMap<>();
        // Launches of several whose claims still wait for their instance: the provisioner's replay of the token hands
        // those instances out, so they are not leaked meanwhile (the launch timeout closes the claims if it never comes).
        Set<String> pendingLaunches = new HashSet<>();
        for (NodeClaim c : claims) {
            byName.put(c.name(), c);
            if (c.state() == NodeClaimState.Launching && c.launchToken() != null) {
                pendingLaunches.add(c.launchToken());
            }
            // A live claim wins over a closed one for the same instance (an orphan adopted for its drain, say).
            if (c.instanceId() != null && (!byInstance.containsKey(c.instanceId())
                    || byInstance.get(c.instanceId()).state() == NodeClaimState.Terminated)) {
                byInstance.put(c.instanceId(), c);
            }
        }
        Map<String, Node> nodeByInstance = new HashMap<>();
        for (Node n : nodes) {
            if (n.instanceId() != null) {
                nodeByInstance.put(n.instanceId(), n);
            }
        }
        Set<String> alive = new HashSet<>();
        Map<String, CloudInstance> byTag = new HashMap<>();
        for (CloudInstance i : instances) {
            if (!cluster.equals(i.tags().get(CloudInstance.TAG_CLUSTER)) || i.isGone()) {
                continue;
            }
            alive.add(i.instanceId());
            String tag = i.tags().get(CloudInstance.TAG_NODECLAIM);
            if (tag != null) {
                byTag.put(tag, i);
            }
            NodeClaim owner = byInstance.getOrDefault(i.instanceId(), byName.get(tag));
            boolean owned = (owner != null && owner.state() != NodeClaimState.Terminated)
                    || (owner == null && pendingLaunches.contains(i.tags().get(CloudInstance.TAG_LAUNCH)));
            if (!owned && i.launchTime() != null && !now.isBefore(i.launchTime().plus(MIN_AGE))) {
                Node node = nodeByInstance.get(i.instanceId());
                out.add(node == null ? new TerminateLeaked(i.instanceId()) : new DrainOrphan(i.instanceId(), node.name()));
            }
        }
        List<NodeClaim> repairable = new ArrayList<>();
        for (NodeClaim c : claims) {
            claim(c, alive, byTag.get(c.name()), nodeByInstance.get(c.instanceId()), now, out, repairable);
        }
        repair(nodes, nodeByInstance, repairable, out);
        for (Node n : nodes) {
            if (n.deletionTimestamp() != null && n.finalizers().contains(Node.FINALIZER)) {
                NodeClaim c = n.instanceId() == null ? null : byInstance.get(n.instanceId());
                if (c == null || !c.state().isDeleting()) {
                    out.add(new StartDeletedNode(n.name()));
                }
            }
        }
        return out;
    }

    private static void claim(NodeClaim c, Set<String> alive, CloudInstance tagged, Node node, Instant now,
                              List<HousekeepingCommand> out, List<NodeClaim> repairable) {
        switch (c.state()) {
            case Launching -> {
                if (tagged != null && (c.createdAt() == null || !now.isBefore(c.createdAt().plus(MIN_AGE)))) {
                    out.add(new AdoptInstance(c.name(), tagged.instanceId(), tagged.instanceType(), tagged.zone(),
                            tagged.capacityType()));
                } else if (tagged == null && c.createdAt() != null && !now.isBefore(c.createdAt().plus(LAUNCH_TIMEOUT))) {
                    out.add(new FinishClaim(c.name(), NodeClaim.LAUNCH_TIMEOUT, null, null));
                }
            }
            case Launched -> {
                if (!alive.contains(c.instanceId()) && old(c, now)) {
                    out.add(new FinishClaim(c.name(), "instance-gone", null, node == null ? null : node.name()));
                } else if (c.launchedAt() != null && !now.isBefore(c.launchedAt().plus(REGISTRATION_TIMEOUT)) && node == null) {
                    out.add(new FinishClaim(c.name(), NodeClaim.REGISTRATION_TIMEOUT, c.instanceId(), null));
                }
            }
            case Registered, Initialized -> {
                if (!alive.contains(c.instanceId())) {
                    if (old(c, now) && (node == null || !node.ready())) {
                        out.add(new FinishClaim(c.name(), "instance-gone", null, node == null ? null : node.name()));
                    }
                } else if (node == null) {
                    if (c.registeredAt() != null && !now.isBefore(c.registeredAt().plus(MIN_AGE))) {
                        out.add(new Repair(c.name(), "node-deleted"));
                    }
                } else {
                    if (node.ready() && c.notReadySince() != null) {
                        out.add(new MarkNotReady(c.name(), null));
                    } else if (!node.ready() && c.notReadySince() == null) {
                        out.add(new MarkNotReady(c.name(), now));
                    }
                    if (POLICIES.breach(node, c.notReadySince()).filter(b -> b.due(now)).isPresent()) {
                        repairable.add(c);
                    }
                }
            }
            default -> { } // deleting claims are the termination flow's
        }
    }

    /** Repairs the claims unhealthy past their toleration, unless too much of the pool (or cluster) is unhealthy. */
    private static void repair(List<Node> nodes, Map<String, Node> nodeByInstance, List<NodeClaim> repairable,
                               List<HousekeepingCommand> out) {
        Map<String, RepairSafeguard.Verdict> verdicts = new HashMap<>();
        for (NodeClaim c : repairable) {
            String pool = c.nodePool() == null ? "" : c.nodePool();
            RepairSafeguard.Verdict v = verdicts.computeIfAbsent(pool, p -> SAFEGUARD.judge(p, nodes));
            if (v.blocked()) {
                out.add(new RepairBlocked(c.name(), nodeByInstance.get(c.instanceId()).name(), v.scope(), v.message()));
            } else {
                out.add(new Repair(c.name(), "unhealthy"));
            }
        }
    }

    private static boolean old(NodeClaim c, Instant now) {
        return c.launchedAt() == null || !now.isBefore(c.launchedAt().plus(MIN_AGE));
    }
}
