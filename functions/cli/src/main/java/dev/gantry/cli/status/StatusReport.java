package dev.gantry.cli.status;

import dev.gantry.core.disruption.execution.BackOffs;
import dev.gantry.cli.status.StatusSnapshot.GantryEvent;
import dev.gantry.core.headroom.BufferExpansion;
import dev.gantry.core.headroom.BufferPods;
import dev.gantry.core.headroom.HeadroomPlan;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.status.PoolCost;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.PoolUsage;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The view {@code gantry status} prints, computed from a {@link StatusSnapshot} without I/O: per NodePool its nodes and
 * usage against its limits, claims by state, pending pods and why, the last decisions, and the headroom buffers.
 */
public record StatusReport(Instant at, List<PoolStatus> pools, List<ClaimGroup> claims, List<PendingPod> pending,
                           List<Decision> decisions, List<BufferExpansion> buffers) {
    /** How many decisions are listed. */
    public static final int DECISIONS = 20;
    /** The resources every pool line shows, limited or not. */
    static final List<String> SHOWN = List.of(Resources.CPU, Resources.MEMORY, Resources.PODS);

    /**
     * @param runningPods bound, non-terminal pods on the pool's nodes (DaemonSet pods included)
     * @param usage     cpu, memory and pods (and any other limited resource): the capacity counted against the limit
     * @param usageAt   when the provisioner recorded the usage, or null when it is the nodes' capacity as read now
     * @param cost      what the pool's live NodeClaims cost per hour now, by capacity type, at the price they bill at
     * @param backoffs  what the pool holds back for now, and until when ({@link BackOffs})
     */
    public record PoolStatus(String name, int nodes, int runningPods, List<Usage> usage, Instant usageAt, PoolCost cost,
                             List<BackOffs.Held> backoffs) {
    }

    /** @param limit null when the pool does not limit the resource */
    public record Usage(String resource, long used, Long limit) {
    }

    public record ClaimGroup(NodeClaimState state, int count, String oldest, Duration oldestAge) {
    }

    /** @param source {@code event} (Gantry's last Event on the pod), {@code plan} (a fresh plan), or {@code none} */
    public record PendingPod(String pod, Duration waiting, String reason, String source) {
    }

    /** @param kind {@code launch}, {@code interruption}, {@code disruption} or {@code event} */
    public record Decision(Instant at, String kind, String object, String reason) {
    }

    public static StatusReport of(StatusSnapshot s) {
        return new StatusReport(s.now(), pools(s), claims(s), pending(s), decisions(s), buffers(s));
    }

    private static List<PoolStatus> pools(StatusSnapshot s) {
        TreeSet<String> pools = new TreeSet<>();
        s.pools().forEach(p -> pools.add(p.name()));
        s.usage().forEach(u -> pools.add(u.nodePool()));
        s.nodes().forEach(n -> {
            String p = n.labels().get(WellKnownLabels.NODEPOOL);
            if (p != null) {
                pools.add(p);
            }
        });
        Map<String, NodePool> byName = new HashMap<>();
        s.pools().forEach(p -> byName.put(p.name(), p));
        Map<String, PoolUsage> recorded = new HashMap<>();
        s.usage().forEach(u -> recorded.put(u.nodePool(), u));
        List<PoolStatus> out = new ArrayList<>();
        for (String name : pools) {
            List<Node> nodes = s.nodes().stream().filter(n -> name.equals(n.labels().get(WellKnownLabels.NODEPOOL))).toList();
            PoolUsage u = recorded.get(name);
            Resources used = u != null ? u.capacity() : nodes.stream().map(Node::allocatable).reduce(Resources.ZERO, Resources::plus);
            Map<String, Quantity> limits = byName.containsKey(name) ? byName.get(name).limits() : Map.of();
            Resources ceiling = Resources.fromQuantities(limits);
            List<String> resources = new ArrayList<>(SHOWN);
            limits.keySet().stream().filter(k -> !resources.contains(k)).sorted().forEach(resources::add);
            List<Usage> usage = new ArrayList<>();
            for (String r : resources) {
                long value = r.equals("nodes") ? nodes.size() : used.get(r);
                Long limit = !limits.containsKey(r) ? null : r.equals("nodes") ? limits.get(r).toUnits() : ceiling.get(r);
                usage.add(new Usage(r, value, limit));
            }
            java.util.Set<String> names = new java.util.HashSet<>();
            nodes.forEach(n -> names.add(n.name()));
            int running = (int) s.pods().stream().filter(p -> p.isBound() && names.contains(p.nodeName())
                    && !p.status().isTerminal()).count();
            out.add(new PoolStatus(name, nodes.size(), running, usage, u == null ? null : u.at(), PoolCost.of(name, s.claims()),
                    s.backoffs().stream().filter(b -> b.pool().equals(name)).toList()));
        }
        return out;
    }

    private static List<ClaimGroup> claims(StatusSnapshot s) {
        List<ClaimGroup> out = new ArrayList<>();
        for (NodeClaimState state : NodeClaimState.values()) {
            List<NodeClaim> in = s.claims().stream().filter(c -> c.state() == state).toList();
            if (in.isEmpty()) {
                continue;
            }
            NodeClaim oldest = in.stream().min(Comparator.comparing(c -> since(c, s.now()))).orElseThrow();
            out.add(new ClaimGroup(state, in.size(), oldest.name(), Duration.between(since(oldest, s.now()), s.now())));
        }
        return out;
    }

    /** When a claim entered its current state, as far as the record says. */
    static Instant since(NodeClaim c, Instant now) {
        Instant t = switch (c.state()) {
            case Launching -> c.createdAt();
            case Launched -> c.launchedAt();
            case Registered -> c.registeredAt();
            case Initialized -> c.initializedAt();
            case Draining, Terminating -> c.deletionRequestedAt();
            case Terminated -> c.terminatedAt();
        };
        return t != null ? t : c.createdAt() != null ? c.createdAt() : now;
    }

    private static List<PendingPod> pending(StatusSnapshot s) {
        Map<String, GantryEvent> lastPodEvent = new HashMap<>();
        s.events().stream().filter(e -> e.kind().equals("Pod")).sorted(Comparator.comparing(GantryEvent::at))
                .forEach(e -> lastPodEvent.put(e.key(), e));
        List<PendingPod> out = new ArrayList<>();
        for (Pod p : s.pods()) {
            if (p.isBound() || p.status().isTerminal() || p.status().deletingSince() != null || p.isDaemon()
                    || BufferPods.isVirtual(p)) {
                continue;
            }
            Duration waiting = p.status().createdAt() == null ? Duration.ZERO : Duration.between(p.status().createdAt(), s.now());
            GantryEvent e = lastPodEvent.get(p.key());
            String plan = s.planReasons().get(p.key());
            if (e != null) {
                out.add(new PendingPod(p.key(), waiting, e.reason() + ": " + e.message(), "event"));
            } else if (plan != null) {
                out.add(new PendingPod(p.key(), waiting, plan, "plan"));
            } else {
                out.add(new PendingPod(p.key(), waiting, p.status().unschedulable() ? "not yet planned by Gantry"
                        : "waiting for kube-scheduler (not marked Unschedulable)", "none"));
            }
        }
        out.sort(Comparator.comparing(PendingPod::waiting).reversed().thenComparing(PendingPod::pod));
        return out;
    }

    /** Event reasons that explain a non-decision (a node kept), not a decision. */
    static final java.util.Set<String> EXPLANATIONS = java.util.Set.of("Unconsolidatable", "DisruptionBlocked");

    /** A claim closed because its launch failed: no capacity, refused (EC2's words follow), its image, or never done. */
    private static boolean launchFailure(String reason) {
        return reason.equals(NodeClaim.LAUNCH_FAILED) || reason.startsWith(NodeClaim.LAUNCH_REFUSED)
                || reason.equals(NodeClaim.IMAGE_REFUSED) || reason.equals(NodeClaim.LAUNCH_TIMEOUT);
    }

    private static List<Decision> decisions(StatusSnapshot s) {
        List<Decision> out = new ArrayList<>();
        for (NodeClaim c : s.claims()) {
            Instant launched = c.launchedAt() != null ? c.launchedAt() : c.createdAt();
            if (launched != null) {
                out.add(new Decision(launched, "launch", "nodeclaim/" + c.name(), describeLaunch(c)));
            }
            if (c.deletionRequestedAt() != null) {
                String reason = c.deletionReason() == null ? "deleted" : c.deletionReason();
                String kind = launchFailure(reason) ? "launch"
                        : reason.toLowerCase(java.util.Locale.ROOT).contains("interrupt") ? "interruption" : "disruption";
                out.add(new Decision(c.deletionRequestedAt(), kind, "nodeclaim/" + c.name(), reason));
            }
        }
        for (GantryEvent e : s.events()) {
            // Consolidation's explanations of why a node stays are re-sent every 15 minutes per node: they are not
            // decisions, and would push the launches and disruptions out of the last 20.
            if (!e.kind().equals("Pod") && !EXPLANATIONS.contains(e.reason())) {
                out.add(new Decision(e.at(), "event", e.kind().toLowerCase(java.util.Locale.ROOT) + "/" + e.key(),
                        e.reason() + ": " + e.message()));
            }
        }
        out.sort(Comparator.comparing(Decision::at).reversed().thenComparing(Decision::object));
        return List.copyOf(out.subList(0, Math.min(DECISIONS, out.size())));
    }

    private static String describeLaunch(NodeClaim c) {
        StringBuilder b = new StringBuilder(c.state() == NodeClaimState.Launching ? "launching " : "launched ");
        b.append(c.instanceType() == null ? "an instance" : c.instanceType());
        if (c.capacityType() != null) {
            b.append(' ').append(c.capacityType());
        }
        if (c.zone() != null) {
            b.append(" in ").append(c.zone());
        }
        b.append(" for ").append(c.pods().size()).append(c.pods().size() == 1 ? " pod" : " pods");
        return b.append(" (NodePool ").append(c.nodePool()).append(')').toString();
    }

    private static List<BufferExpansion> buffers(StatusSnapshot s) {
        return HeadroomPlan.of(s.buffers(), s.targets(), s.history(), s.now(), s.bootLead()).buffers();
    }
}
