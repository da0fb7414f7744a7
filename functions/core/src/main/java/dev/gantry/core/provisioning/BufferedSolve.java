package dev.gantry.core.provisioning;

import dev.gantry.core.headroom.BufferPods;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plan with headroom: the real pending pods are planned first, on their own, exactly as without buffers; then the
 * buffers' virtual pods are planned against what is left, the first plan's new claims counted as in flight (their
 * room, and their capacity against the pools' limits). So a buffer never takes room or limit a real pod could use,
 * and a real pod that took a buffer's room (kube-scheduler bound it there) leaves the buffer to be planned again,
 * elsewhere, in the same run.
 *
 * @param real    the plan of the real pods alone (what pending demand is measured from)
 * @param virtual the plan of the virtual pods after it; null when there were none
 */
record BufferedSolve(SchedulingResult real, SchedulingResult virtual) {

    /**
     * @param planner  how the real pods are planned ({@code Scheduler::solveForLaunch}, or {@code Scheduler::solveAsBound})
     * @param recorded the names of every claim the store holds, in any state: a buffer's new claim is named apart from
     *                 them (see {@link #renamed})
     */
    static BufferedSolve solve(SchedulingInput input, java.util.function.Function<SchedulingInput, SchedulingResult> planner,
                               List<Pod> virtualPods, Set<String> recorded) {
        SchedulingResult real = planner.apply(input);
        if (virtualPods.isEmpty()) {
            return new BufferedSolve(real, null);
        }
        return new BufferedSolve(real, renamed(Scheduler.solve(after(input, real, virtualPods)), recorded, input, real));
    }

    /**
     * The virtual plan with every new claim named apart from the claims the store holds, the claims in flight and the
     * real plan's. Names come from a claim's pods, so a buffer planned anew with the same chunks (a real pod took the
     * room of its claim, in flight or registered) would be named as that claim, and recording it would find that
     * claim and launch nothing, or (the claim being closed) get a name from the clock. The new claim is
     * {@code <name>-b<n>} with the least {@code n >= 2} no claim holds: a function of the input and the store only, so
     * two deliveries of the same batch name the same claim, and the second finds the first's in flight. (Once it is
     * recorded, a redelivery plans the chunks onto it, in flight with their room, and names nothing new.)
     */
    private static SchedulingResult renamed(SchedulingResult virtual, Set<String> recorded, SchedulingInput input,
                                            SchedulingResult real) {
        Set<String> taken = new HashSet<>(recorded);
        input.inFlight().forEach(c -> taken.add(c.name()));
        real.newClaims().forEach(c -> taken.add(c.name()));
        List<SchedulingResult.NodeClaimPlan> claims = new ArrayList<>();
        for (SchedulingResult.NodeClaimPlan c : virtual.newClaims()) {
            String name = c.name();
            for (int i = 2; taken.contains(name); i++) {
                name = c.name() + "-b" + i;
            }
            taken.add(name);
            claims.add(name.equals(c.name()) ? c : new SchedulingResult.NodeClaimPlan(name, c.nodePool(), c.requirements(),
                    c.instanceTypeOptions(), c.instanceType(), c.offering(), c.pods(), c.requests()));
        }
        return new SchedulingResult(virtual.existingNodes(), virtual.inFlightClaims(), claims, virtual.unschedulable(),
                virtual.totalPricePerHour(), virtual.lowerBoundPerHour(), virtual.strategy());
    }

    /** Both plans as one: every new claim, the real pods' nominations, and both plans' unplaceable pods. */
    SchedulingResult merged() {
        if (virtual == null) {
            return real;
        }
        List<SchedulingResult.NodeClaimPlan> claims = new ArrayList<>(real.newClaims());
        claims.addAll(virtual.newClaims());
        List<SchedulingResult.Unschedulable> unschedulable = new ArrayList<>(real.unschedulable());
        unschedulable.addAll(virtual.unschedulable());
        return new SchedulingResult(real.existingNodes(), real.inFlightClaims(), claims, unschedulable,
                real.totalPricePerHour() + virtual.totalPricePerHour(), real.lowerBoundPerHour() + virtual.lowerBoundPerHour(),
                real.strategy());
    }

    /** The virtual pods that have no room anywhere, even on new capacity (limits, or no pool takes them). */
    List<Pod> unplacedVirtual() {
        return virtual == null ? List.of() : virtual.unschedulable().stream().map(SchedulingResult.Unschedulable::pod).toList();
    }

    /**
     * The cluster as the real plan leaves it: its pods on the nodes and in-flight claims it chose, and its new claims
     * in flight (expected type and offering, with their pods) and counted in their pools' usage.
     */
    static SchedulingInput after(SchedulingInput input, SchedulingResult real, List<Pod> virtualPods) {
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        for (SchedulingInput.ExistingNode n : input.nodes()) {
            List<Pod> placed = real.existingNodes().getOrDefault(n.node().name(), List.of());
            nodes.add(placed.isEmpty() ? n : new SchedulingInput.ExistingNode(n.node(), concat(n.pods(), placed)));
        }
        List<SchedulingInput.InFlightClaim> inFlight = new ArrayList<>();
        for (SchedulingInput.InFlightClaim f : input.inFlight()) {
            List<Pod> placed = real.inFlightClaims().getOrDefault(f.name(), List.of());
            inFlight.add(placed.isEmpty() ? f : new SchedulingInput.InFlightClaim(f.name(), f.nodePool(), f.labels(),
                    f.taints(), f.allocatable(), concat(f.pods(), placed)));
        }
        Map<String, Resources> added = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        Map<String, SchedulingInput.PoolOffer> offers = new LinkedHashMap<>();
        input.pools().forEach(p -> offers.put(p.pool().name(), p));
        for (SchedulingResult.NodeClaimPlan c : real.newClaims()) {
            SchedulingInput.PoolOffer offer = offers.get(c.nodePool());
            if (offer == null) {
                continue; // planned for a pool the input offers: cannot happen
            }
            Map<String, String> labels = ClaimLabels.node(offer.pool(), c.requirements(), c.instanceType(),
                    c.offering().zone(), c.offering().capacityType(), c.name());
            Resources pods = Resources.ZERO;
            for (Pod p : c.pods()) {
                pods = pods.plus(p.requests());
            }
            Resources daemons = c.requests().minus(pods);
            inFlight.add(new SchedulingInput.InFlightClaim(c.name(), c.nodePool(), labels, offer.pool().template().taints(),
                    c.instanceType().allocatable().minus(daemons), c.pods()));
            added.merge(c.nodePool(), c.instanceType().capacity(), Resources::plus);
            count.merge(c.nodePool(), 1, Integer::sum);
        }
        List<SchedulingInput.PoolOffer> pools = new ArrayList<>();
        for (SchedulingInput.PoolOffer p : input.pools()) {
            pools.add(new SchedulingInput.PoolOffer(p.pool(), p.instanceTypes(),
                    p.usage().plus(added.getOrDefault(p.pool().name(), Resources.ZERO)),
                    p.nodeCount() + count.getOrDefault(p.pool().name(), 0)));
        }
        List<Pod> pending = virtualPods.stream().filter(BufferPods::isVirtual).toList();
        return new SchedulingInput(pending, nodes, inFlight, input.daemonSets(), pools, input.namespaceLabels());
    }

    private static List<Pod> concat(List<Pod> a, List<Pod> b) {
        List<Pod> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
