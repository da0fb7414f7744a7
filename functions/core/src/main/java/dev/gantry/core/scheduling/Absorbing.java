package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A launch that leaves room for the pods of a few small consolidatable nodes, when that is strictly cheaper than
 * launching for the pending pods alone and keeping those nodes. Scale-ups come in small batches (a diurnal ramp adds
 * four or five pods every half hour), and the cheapest fleet for each batch alone is small nodes, each paying its
 * DaemonSets and kube-reserved: a day of them runs 1.2-1.3× the packing bound, and with a 10% budget (one node below
 * eleven) consolidation cannot merge full small nodes, as no single node replaces one strictly cheaper. Planning the
 * batch together with a donor's pods (say four pending pods and an m5a.large's three onto one m5a.xlarge: $0.172/h
 * against $0.137 + $0.086) lets consolidation's plainest move, deleting the donor because its pods fit elsewhere,
 * follow a few seconds after the launch initialises.
 * <p>
 * The plan launches for its pending pods only ({@code pods}), but each claim's requests, and so its instance-type
 * options, count the donors' pods too. Donors are nodes consolidation would take: managed, initialized, not deleting,
 * not receiving pending pods in the plain plan, in a pool that consolidates underutilized nodes, with no
 * {@code karpenter.sh/do-not-disrupt} on the node, its pool's template or any pod, and running only pods a ReplicaSet
 * re-creates. PDBs are not in the scheduler's input: a donor they block stays until they allow, and meanwhile the launch
 * costs more than the plain plan's by less than the donor's price (the move is only taken net of it).
 * Each trial is a whole solve, existing nodes included (a plan that saw only the new claims lost most of the gain,
 * $27.05 against $26.04, as it could not put a donor's pods into spare room elsewhere); LaunchPlanBenchmark prints
 * what the trials add to a provisioning run. At most {@value #MAX_DONORS} donors, chosen greedily (each step tries the
 * {@value #TRIED_PER_STEP} worst priced per pod), kept while each makes the plan strictly cheaper net. The diurnal day:
 * at most 3 donors $26.47, 5 $26.04, 8 $26.04.
 * <p>
 * The room kept for donors is free until consolidation moves them, and kube-scheduler gives it to whatever is pending
 * when the node is Ready. So a trial plans the pending pods without their {@code ScheduleAnyway} spreads (which
 * kube-scheduler only scores), and is refused when the donors' room of one new claim would take all the pending pods
 * of another that nothing required keeps off it: the first Ready would take them, and the other would launch for
 * nothing. On the diurnal day (four
 * seeds) this took the launches that never ran a pod from 25 to 0 and all launches from 239 to 204, disruptions from
 * 2.39 to 2.04 an hour, at the same cost ($25.92 against $25.94 a day on average).
 */
final class Absorbing {
    /** At most this many donors per plan (each is one consolidation command, at a 1-node budget one after another). */
    static final int MAX_DONORS = 5;
    /**
     * Only plans launching for at most this many pods are tried: small batches are the ones whose cheapest fleet is
     * small nodes (a large batch already gets large ones), and it bounds what the trials cost.
     */
    static final int MAX_LAUNCHED_PODS = 24;
    /** Each greedy step tries this many of the remaining donors. */
    static final int TRIED_PER_STEP = 6;

    private Absorbing() {
    }

    record Donor(SchedulingInput.ExistingNode node, double price, List<Pod> pods) {
        double pricePerPod() {
            return price / pods.size();
        }
    }

    /** The cheaper of {@code plain} and the best plan that absorbs donors, net of the donors' prices. */
    static SchedulingResult improve(SchedulingInput input, SchedulingResult plain) {
        if (plain.newClaims().isEmpty() || plain.newClaims().stream().mapToInt(c -> c.pods().size()).sum() > MAX_LAUNCHED_PODS) {
            return plain;
        }
        List<Donor> donors = donors(input, plain);
        if (donors.isEmpty()) {
            return plain;
        }
        Set<String> pendingKeys = new HashSet<>();
        input.pending().forEach(p -> pendingKeys.add(p.key()));
        SchedulingResult best = plain;
        double bestNet = plain.totalPricePerHour();
        List<Donor> chosen = new ArrayList<>();
        List<Donor> left = new ArrayList<>(donors);
        while (chosen.size() < MAX_DONORS && !left.isEmpty()) {
            Donor stepDonor = null;
            SchedulingResult stepPlan = null;
            double stepNet = bestNet;
            for (Donor d : left.subList(0, Math.min(TRIED_PER_STEP, left.size()))) {
                List<Donor> with = new ArrayList<>(chosen);
                with.add(d);
                SchedulingResult r = plan(input, with, pendingKeys, plain);
                if (r == null) {
                    continue;
                }
                double net = r.totalPricePerHour() - with.stream().mapToDouble(Donor::price).sum();
                if (net < stepNet - 1e-9) {
                    stepNet = net;
                    stepDonor = d;
                    stepPlan = r;
                }
            }
            if (stepDonor == null) {
                break;
            }
            chosen.add(stepDonor);
            left.remove(stepDonor);
            best = stepPlan;
            bestNet = stepNet;
        }
        return best;
    }

    /** The plan for the pending pods and the donors' pods without the donors, as a launch for the pending pods; or null. */
    private static SchedulingResult plan(SchedulingInput input, List<Donor> donors, Set<String> pendingKeys, SchedulingResult plain) {
        Set<String> gone = new HashSet<>();
        List<Pod> pods = new ArrayList<>();
        Map<String, Pod> original = new java.util.HashMap<>(); // the plan returns the pending pods as given, spreads and all
        for (Pod p : input.pending()) {
            pods.add(withoutSoftSpreads(p));
            original.put(p.key(), p);
        }
        List<String> inFlight = input.inFlight().stream().map(SchedulingInput.InFlightClaim::name).toList();
        for (Donor d : donors) {
            gone.add(d.node().node().name());
            // Never onto a claim in flight. That room was launched for pending pods, and kube-scheduler gives it to
            // whichever pod is pending when the node becomes Ready, not to a pod running elsewhere: a trial that parked
            // a donor's pod there and launched anew for the pending pods it displaced looked cheaper net of the donor,
            // and left a new node empty.
            d.pods().forEach(p -> pods.add(p.withNodeName(null).avoiding(inFlight)));
        }
        List<SchedulingInput.ExistingNode> nodes = input.nodes().stream().filter(n -> !gone.contains(n.node().name())).toList();
        // The pending pods are bound by kube-scheduler (Scheduler.solveAsBound); the donors' are moved by consolidation,
        // whose plans keep preferences wherever new capacity can (Scheduler.solve).
        SchedulingResult r = Scheduler.solve(new SchedulingInput(pods, nodes, input.inFlight(), input.daemonSets(),
                input.pools(), input.namespaceLabels()), Scheduler.Strategy.GANTRY, p -> pendingKeys.contains(p.key()));
        if (!r.unschedulable().isEmpty() && r.unschedulable().size() > plain.unschedulable().size()) {
            return null;
        }
        if (r.unschedulable().stream().anyMatch(u -> !pendingKeys.contains(u.pod().key()))) {
            return null; // a donor's pod would have nowhere to go
        }
        Map<String, List<dev.gantry.core.model.Taint>> taints = new java.util.HashMap<>();
        input.pools().forEach(o -> taints.put(o.pool().name(), o.pool().template().taints()));
        List<SchedulingResult.NodeClaimPlan> claims = new ArrayList<>();
        for (SchedulingResult.NodeClaimPlan c : r.newClaims()) {
            List<Pod> mine = c.pods().stream().filter(p -> pendingKeys.contains(p.key())).map(p -> original.get(p.key())).toList();
            if (mine.isEmpty()) {
                return null; // a claim for donors' pods alone is a replacement, consolidation's to decide
            }
            if (swallows(c, r.newClaims(), pendingKeys, taints.getOrDefault(c.nodePool(), List.of()))) {
                return null; // the first of them Ready would take the other's pods, and the other would launch for nothing
            }
            claims.add(new SchedulingResult.NodeClaimPlan(c.name(), c.nodePool(), c.requirements(), c.instanceTypeOptions(),
                    c.instanceType(), c.offering(), mine, c.requests()));
        }
        List<SchedulingResult.Unschedulable> unschedulable = r.unschedulable().stream()
                .map(u -> new SchedulingResult.Unschedulable(original.get(u.pod().key()), u.reason())).toList();
        return new SchedulingResult(pendingOnly(r.existingNodes(), original), pendingOnly(r.inFlightClaims(), original),
                claims, unschedulable, r.totalPricePerHour(), r.lowerBoundPerHour(), r.strategy() + "+absorb");
    }

    /** The pending pods of each placement, as the input gave them. */
    private static Map<String, List<Pod>> pendingOnly(Map<String, List<Pod>> placed, Map<String, Pod> original) {
        Map<String, List<Pod>> out = new LinkedHashMap<>();
        placed.forEach((node, pods) -> {
            List<Pod> mine = pods.stream().filter(p -> original.containsKey(p.key())).map(p -> original.get(p.key())).toList();
            if (!mine.isEmpty()) {
                out.put(node, mine);
            }
        });
        return out;
    }

    /** The nodes consolidation would take, worst price per pod first. */
    static List<Donor> donors(SchedulingInput input, SchedulingResult plain) {
        Map<String, SchedulingInput.PoolOffer> pools = new LinkedHashMap<>();
        input.pools().forEach(o -> pools.put(o.pool().name(), o));
        List<Donor> out = new ArrayList<>();
        for (SchedulingInput.ExistingNode n : input.nodes()) {
            var node = n.node();
            SchedulingInput.PoolOffer offer = pools.get(node.labels().get(WellKnownLabels.NODEPOOL));
            if (offer == null || offer.pool().isStatic() || !node.managed() || !node.initialized() || node.deleting()
                    || plain.existingNodes().containsKey(node.name())) {
                continue;
            }
            NodePool pool = offer.pool();
            if (pool.disruption().consolidationPolicy() == NodePool.ConsolidationPolicy.WhenEmpty
                    || pool.disruption().consolidateAfter().isEmpty()
                    || node.annotations().containsKey(Pod.DO_NOT_DISRUPT)
                    || pool.template().annotations().containsKey(Pod.DO_NOT_DISRUPT)) {
                continue;
            }
            if (n.pods().stream().anyMatch(p -> p.annotations().containsKey(Pod.DO_NOT_DISRUPT))) {
                continue;
            }
            List<Pod> movable = n.pods().stream().filter(p -> !p.isDaemon() && !p.isMirror() && !p.status().isTerminal()).toList();
            if (movable.isEmpty() || movable.stream().anyMatch(p -> !"ReplicaSet".equals(p.ownerKind()) || p.status().deletingSince() != null)) {
                continue; // empty nodes are emptiness's; other owners may not come back
            }
            double price = price(offer, node.labels());
            if (price > 0) {
                out.add(new Donor(n, price, movable));
            }
        }
        out.sort(Comparator.comparingDouble(Donor::pricePerPod).reversed().thenComparing(d -> d.node().node().name()));
        return out;
    }

    private static double price(SchedulingInput.PoolOffer offer, Map<String, String> labels) {
        String type = labels.get(WellKnownLabels.INSTANCE_TYPE);
        String zone = labels.get(WellKnownLabels.ZONE);
        String ct = labels.get(WellKnownLabels.CAPACITY_TYPE);
        for (InstanceType t : offer.instanceTypes()) {
            if (t.name().equals(type)) {
                for (Offering o : t.offerings()) {
                    if (o.zone().equals(zone) && o.capacityType().equals(ct)) {
                        return o.pricePerHour();
                    }
                }
            }
        }
        return 0;
    }

    /**
     * Whether nothing required keeps the pod off {@code c}'s node: no required spread or pod (anti-)affinity, a
     * node-selector term the claim's requirements meet, and a toleration for each of the node's NoSchedule and NoExecute
     * taints ({@code taints}, its pool's; a startup taint only delays the pods it would take).
     */
    private static boolean mayLand(Pod p, SchedulingResult.NodeClaimPlan c, List<dev.gantry.core.model.Taint> taints) {
        return p.topologySpread().stream().noneMatch(dev.gantry.core.model.TopologySpread::doNotSchedule) && p.podAffinity().isEmpty()
                && p.podAntiAffinity().isEmpty() && p.nodeRequirementTerms().stream().anyMatch(t -> c.requirements().compatible(t))
                && dev.gantry.core.model.Toleration.firstUntolerated(p.tolerations(), taints) == null;
    }

    /**
     * The pod without its {@code ScheduleAnyway} spreads: kube-scheduler only scores them, so it binds a pending pod to
     * whichever node that fits is Ready first, and a launch planned as if they were required splits the batch over
     * several new nodes, one of them with the donors' room, which then takes the whole batch.
     */
    private static Pod withoutSoftSpreads(Pod p) {
        List<dev.gantry.core.model.TopologySpread> hard = p.topologySpread().stream().filter(dev.gantry.core.model.TopologySpread::doNotSchedule).toList();
        return hard.size() == p.topologySpread().size() ? p : p.toBuilder().topologySpread(hard).build();
    }

    /**
     * Whether the room {@code c} keeps for donors' pods would take every pending pod of another new claim of the plan.
     * The donors' pods move only once consolidation deletes their nodes; until then that room is free, and
     * kube-scheduler fills it with whatever is pending when the node is Ready.
     */
    private static boolean swallows(SchedulingResult.NodeClaimPlan c, List<SchedulingResult.NodeClaimPlan> all, Set<String> pendingKeys,
                                    List<dev.gantry.core.model.Taint> taints) {
        dev.gantry.core.model.Resources donors = dev.gantry.core.model.Resources.ZERO;
        for (Pod p : c.pods()) {
            if (!pendingKeys.contains(p.key())) {
                donors = donors.plus(p.requests());
            }
        }
        for (SchedulingResult.NodeClaimPlan other : all) {
            if (other == c) {
                continue;
            }
            dev.gantry.core.model.Resources theirs = dev.gantry.core.model.Resources.ZERO;
            boolean free = true;
            for (Pod p : other.pods()) {
                if (pendingKeys.contains(p.key())) {
                    theirs = theirs.plus(p.requests());
                    free &= mayLand(p, c, taints);
                }
            }
            if (free && !donors.equals(dev.gantry.core.model.Resources.ZERO) && theirs.fitsIn(donors)) {
                return true;
            }
        }
        return false;
    }
}
