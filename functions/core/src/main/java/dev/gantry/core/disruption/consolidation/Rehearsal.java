package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A consolidation command carried out on a cluster in memory, as the handlers leave it once the command is done, so a
 * what-if can follow consolidation to where it settles. Pure.
 * <ul>
 *   <li>The command's nodes go, with their claims and every pod on them (DaemonSet, mirror and finished pods
 *       included).</li>
 *   <li>Each replacement is up as a new, Ready, initialized node of its pool, named after its claim: the instance
 *       type's and the pool's labels, the pool's taints, the type's allocatable, and a copy of every DaemonSet that lands
 *       on it.</li>
 *   <li>Every moved pod runs where the decision placed it (started at the step's time).</li>
 *   <li>Every node that gained or lost pods has a pod event at the step's time; a replacement is marked as launched by
 *       consolidation, as the provisioner records one.</li>
 * </ul>
 * The next decision is taken {@link #settle} later, when the step's nodes have settled.
 */
public final class Rehearsal {
    /** Karpenter's {@code commandValidationDelay}: every command waits this long before it acts. */
    static final Duration VALIDATION = Duration.ofSeconds(15);

    private Rehearsal() {
    }

    /** An offline cluster between decisions: what the sweep would read, and when. */
    public record Cluster(ClusterView view, List<NodeClaim> claims, List<PodDisruptionBudget> pdbs, Instant now) {
        public Cluster {
            claims = List.copyOf(claims);
            pdbs = List.copyOf(pdbs);
        }

        public Cluster at(Instant t) {
            return new Cluster(view, claims, pdbs, t);
        }
    }

    /**
     * How long after a step the next decision is taken: the validation delay and the longest {@code consolidateAfter} of
     * the pools (the nodes a step touched have a pod event then, and wait that long before they are weighed again).
     */
    public static Duration settle(List<PoolOffer> pools) {
        Duration longest = Duration.ZERO;
        for (PoolOffer o : pools) {
            Optional<Duration> after = o.pool().disruption().consolidateAfter();
            if (after.isPresent() && after.get().compareTo(longest) > 0) {
                longest = after.get();
            }
        }
        return VALIDATION.plus(longest);
    }

    public static Cluster apply(Cluster c, ConsolidationCommand cmd, List<PoolOffer> pools) {
        Instant now = c.now();
        Set<String> gone = new HashSet<>(cmd.nodes());
        Set<String> taken = new HashSet<>();
        c.view().nodes().forEach(n -> taken.add(n.name()));
        Map<String, String> renamed = new HashMap<>();
        List<Node> nodes = new ArrayList<>();
        for (Node n : c.view().nodes()) {
            if (!gone.contains(n.name())) {
                nodes.add(n);
            }
        }
        List<Pod> pods = new ArrayList<>();
        List<NodeClaim> claims = new ArrayList<>();
        for (NodeClaimPlan plan : cmd.replacements()) {
            String name = plan.name();
            for (int i = 2; taken.contains(name); i++) {
                name = plan.name() + "-" + i;
            }
            taken.add(name);
            renamed.put(plan.name(), name);
            Node node = replacement(name, plan, pools, now);
            nodes.add(node);
            claims.add(claim(name, plan, node, now));
            pods.addAll(daemonPods(node, c.view().daemonSets(), now));
        }
        Set<String> touched = new HashSet<>();
        for (Pod p : c.view().pods()) {
            String dest = cmd.destinations().get(p.key());
            if (dest != null && p.isBound() && gone.contains(p.nodeName())) {
                String node = renamed.getOrDefault(dest, dest);
                touched.add(node);
                pods.add(running(p.withNodeName(node), now));
            } else if (!p.isBound() || !gone.contains(p.nodeName())) {
                pods.add(p);
            }
        }
        for (NodeClaim claim : c.claims()) {
            if (claim.nodeName() != null && gone.contains(claim.nodeName())) {
                continue;
            }
            claims.add(claim.nodeName() != null && touched.contains(claim.nodeName()) ? claim.podEvent(now, claim.podSet()) : claim);
        }
        ClusterView view = new ClusterView(pods, nodes, c.view().daemonSets(), c.view().namespaceLabels());
        return new Cluster(view, claims, c.pdbs(), now);
    }

    private static Node replacement(String name, NodeClaimPlan plan, List<PoolOffer> pools, Instant now) {
        InstanceType type = plan.instanceType();
        NodePool pool = pools.stream().map(PoolOffer::pool).filter(p -> p.name().equals(plan.nodePool())).findFirst().orElse(null);
        Map<String, String> labels = new HashMap<>(type.labels());
        if (pool != null) {
            labels.putAll(pool.template().labels());
        }
        labels.put(WellKnownLabels.NODEPOOL, plan.nodePool());
        labels.put(WellKnownLabels.INSTANCE_TYPE, type.name());
        labels.put(WellKnownLabels.ZONE, plan.offering().zone());
        labels.put(WellKnownLabels.CAPACITY_TYPE, plan.offering().capacityType());
        labels.put(WellKnownLabels.HOSTNAME, name);
        labels.put(Node.REGISTERED_LABEL, "true");
        labels.put(Node.INITIALIZED_LABEL, "true");
        return new Node(name, "aws:///" + plan.offering().zone() + "/i-" + name, labels, Map.of(),
                pool == null ? List.of() : pool.template().taints(), type.allocatable(), true, false, false, now);
    }

    private static NodeClaim claim(String name, NodeClaimPlan plan, Node node, Instant now) {
        return new NodeClaim(name, 0, plan.nodePool(), null, NodeClaimState.Initialized, plan.requirements().toList(),
                plan.instanceTypeOptions().stream().map(InstanceType::name).toList(), plan.pods().stream().map(Pod::key).toList(),
                node.instanceId(), plan.instanceType().name(), plan.offering().zone(), plan.offering().capacityType(),
                plan.pricePerHour(), name, now, now, now, now, null, null, null, null, 0, null, null, now, null, true, null, null);
    }

    /** The DaemonSets' pods on a new node: those whose template tolerates its taints and matches its labels. */
    private static List<Pod> daemonPods(Node node, List<DaemonSet> daemonSets, Instant now) {
        List<Pod> out = new ArrayList<>();
        for (DaemonSet ds : daemonSets) {
            Pod t = ds.template();
            if (Toleration.firstUntolerated(t.tolerations(), node.taints()) == null
                    && t.nodeRequirementTerms().stream().anyMatch(term -> term.matches(node.labels()))) {
                Pod p = t.toBuilder().uid(null).build();
                out.add(running(new Pod(ds.namespace(), ds.name() + "-" + node.name(), null, p.labels(), p.annotations(),
                        p.requests(), p.nodeSelector(), p.requiredNodeAffinity(), p.preferredNodeAffinity(), p.tolerations(),
                        p.topologySpread(), p.podAffinity(), p.preferredPodAffinity(), p.podAntiAffinity(),
                        p.preferredPodAntiAffinity(), p.hostPorts(), node.name(), "DaemonSet", ds.name(), p.priority(),
                        p.priorityClassName(), p.status()), now));
            }
        }
        return out;
    }

    private static Pod running(Pod p, Instant now) {
        Pod.Status s = p.status();
        return p.toBuilder().status(new Pod.Status("Running", false, s.createdAt() == null ? now : s.createdAt(), null,
                s.terminationGracePeriodSeconds(), now, true)).build();
    }
}
