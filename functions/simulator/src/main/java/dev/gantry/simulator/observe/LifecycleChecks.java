package dev.gantry.simulator.observe;

import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.disruption.DisruptionBudgets;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.sweep.Housekeeping;
import dev.gantry.core.termination.TerminationMarkers;
import dev.gantry.core.termination.TerminationService;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.NodeClaimStore;

/**
 * The invariants on claims and instances, from one look at the store and EC2:
 * <ul>
 *   <li><b>stuckClaims</b>: a claim in a non-terminal state past what its state allows. Launching: its creation plus
 *       the sweep's {@link Housekeeping#LAUNCH_TIMEOUT} plus one sweep interval. Launched (no node yet): its launch
 *       plus {@link Housekeeping#REGISTRATION_TIMEOUT} plus one sweep. Registered (not initialized): its registration
 *       plus the registration timeout plus one sweep. Draining or Terminating: no slice begun for
 *       {@link TerminationService#STALLED_AFTER} plus two sweeps (a sweep must have resumed it; two, because any one
 *       sweep may fail, a crash or a timeout, and a flow must not hang on one; that is 4 minutes, far inside the
 *       grace period plus 10 minutes allowed below; counted from the end of an API-server outage when one ended later
 *       than the last slice), or, when the drain has
 *       a grace period (the pool's {@code terminationGracePeriod}, or an interruption's deadline, whichever ends first),
 *       still not Terminated 10 minutes after it ended. A drain without either may wait for a PDB for ever, as
 *       Karpenter's does, as long as it keeps making progress.</li>
 *   <li><b>duplicateLaunches</b>: more than one live instance tagged with one claim's name, or a claim whose recorded
 *       instance is not the live one tagged with its name.</li>
 *   <li><b>leakedInstances</b>: a live instance with the cluster's tag that no live claim owns (by recorded instance
 *       id, or by name for a claim still Launching), for more than {@link #LEAK_AFTER} in a row.</li>
 *   <li><b>disruptionBudgetExceeded</b>: more of a pool's nodes deleting at once for a budgeted reason (Empty,
 *       Underutilized, Drifted) than the pool's budgets allow for it at that time, counted on the pool's registered
 *       nodes. Expiry and interruptions are forceful and are not budgeted.</li>
 *   <li><b>staleDisruptedTaints</b>: a Gantry node (one with a live claim) carrying {@code karpenter.sh/disrupted}
 *       that no flow owns for more than {@link #STALE_TAINT_AFTER}: not being deleted, its claim not deleting, and no
 *       consolidation command under way (its leader not deleting, in Validating or Launching) or handing over
 *       (leader Handed) that the claim belongs to. Such a node reads as deleting: never consolidated, emptied or
 *       expired, and one less in its pool's budget. Counted from the end of an API-server outage when one ended later
 *       (the sweep that strips such taints cannot run during one).</li>
 * </ul>
 * Each is counted once per episode (per claim, instance or pool and reason).
 */
public final class LifecycleChecks {
    static final Duration LEAK_AFTER = Duration.ofMinutes(10);
    static final Duration DRAIN_SLACK = Duration.ofMinutes(10);
    /** Karpenter strips unowned disrupted taints every disruption loop; Gantry's sweep, every minute. */
    static final Duration STALE_TAINT_AFTER = Duration.ofMinutes(5);

    private final NodeClaimStore truth;
    private final Map<String, NodePool> pools;
    private final InMemoryCluster cluster;
    private final Supplier<Instant> apiDownUntil;
    private final Function<String, Optional<SimulatedInstance>> instances;
    private final Duration sweep;
    private final Map<String, Instant> unownedSince = new HashMap<>();
    private final StaticPoolChecks staticPools;
    private final Map<String, Instant> unownedTaintSince = new HashMap<>();

    /**
     * Reads the claims from {@code truth} (the store behind Gantry's port: looking draws no fault), EC2's instances by
     * id from {@code instances}, and when the latest API-server outage ended from {@code apiDownUntil}; the sweep runs
     * every {@code sweep}.
     */
    public LifecycleChecks(NodeClaimStore truth, Map<String, NodePool> pools, InMemoryCluster cluster, Supplier<Instant> apiDownUntil,
                    Function<String, Optional<SimulatedInstance>> instances, Duration sweep) {
        this.truth = truth;
        this.pools = pools;
        this.cluster = cluster;
        this.apiDownUntil = apiDownUntil;
        this.instances = instances;
        this.sweep = sweep;
        this.staticPools = new StaticPoolChecks(pools, sweep);
    }

    void check(Instant now, List<SimulatedInstance> live, Checks.Episodes episodes) {
        List<NodeClaim> claims = truth.list(now);
        Map<String, NodeClaim> byName = new HashMap<>();
        Map<String, NodeClaim> byInstance = new HashMap<>();
        for (NodeClaim c : claims) {
            byName.put(c.name(), c);
            if (c.instanceId() != null && c.state() != NodeClaimState.Terminated) {
                NodeClaim other = byInstance.put(c.instanceId(), c);
                // One instance handed to two live claims (a batch's replay gone wrong): as bad as two for one claim.
                episodes.episode(other != null, "duplicateLaunches", c.instanceId() + " shared", () -> c.instanceId()
                        + " is recorded by nodeclaim/" + c.name() + " and nodeclaim/" + other.name());
            }
            stuck(c, now, episodes);
        }
        instances(live, byName, byInstance, now, episodes);
        budgets(claims, now, episodes);
        staleTaints(byName, byInstance, now, episodes);
        staticPools.check(claims, now, episodes);
    }

    private void stuck(NodeClaim c, Instant now, Checks.Episodes episodes) {
        String why = switch (c.state()) {
            case Launching -> past(c.createdAt(), Housekeeping.LAUNCH_TIMEOUT.plus(sweep), now, "Launching since");
            case Launched -> past(c.launchedAt(), Housekeeping.REGISTRATION_TIMEOUT.plus(sweep), now, "Launched, no node, since");
            case Registered -> past(c.registeredAt(), Housekeeping.REGISTRATION_TIMEOUT.plus(sweep), now, "Registered, not initialized, since");
            case Draining, Terminating -> draining(c, now);
            default -> null;
        };
        episodes.episode(why != null, "stuckClaims", c.name(), () -> "nodeclaim/" + c.name() + " " + why);
    }

    private static String past(Instant since, Duration allowed, Instant now, String what) {
        if (since == null || now.isBefore(since.plus(allowed))) {
            return null;
        }
        return what + " " + since + " (" + Duration.between(since, now).toSeconds() + " s, allowed " + allowed.toSeconds() + " s)";
    }

    private String draining(NodeClaim c, Instant now) {
        Instant last = c.progressAt() != null ? c.progressAt() : c.deletionRequestedAt();
        // An API-server outage stops every flow and the sweep that resumes them (the sweep fails at its first list, a
        // slice at its first eviction), as it would in a real cluster: a stall's clock starts again when it ends.
        Instant outageEnd = apiDownUntil.get();
        if (last != null && outageEnd.isAfter(last)) {
            last = outageEnd;
        }
        String stalled = past(last, TerminationService.STALLED_AFTER.plus(sweep).plus(sweep), now,
                c.state() + ", no termination slice since");
        if (stalled != null) {
            return stalled;
        }
        Instant began = c.deletionRequestedAt();
        if (began == null) {
            return null;
        }
        Optional<Duration> grace = Optional.ofNullable(pools.get(c.nodePool())).flatMap(p -> p.template().terminationGracePeriod());
        Optional<Instant> deadline = truth.marker(TerminationMarkers.deadline(c.name()));
        Instant end = dev.gantry.core.termination.TerminationDecision.graceExpiry(began, grace, deadline);
        if (end == null || now.isBefore(end.plus(DRAIN_SLACK))) {
            return null;
        }
        return c.state() + " since " + began + " (" + c.deletionReason() + "), its grace period ended at " + end;
    }

    private void instances(List<SimulatedInstance> live, Map<String, NodeClaim> byName, Map<String, NodeClaim> byInstance,
                           Instant now, Checks.Episodes episodes) {
        Map<String, Integer> perClaim = new HashMap<>();
        Map<String, SimulatedInstance> tagged = new HashMap<>();
        java.util.Set<String> pendingLaunches = new java.util.HashSet<>();
        byName.values().forEach(c -> {
            if (c.state() == NodeClaimState.Launching && c.launchToken() != null && c.instanceId() == null) {
                pendingLaunches.add(c.launchToken());
            }
        });
        for (SimulatedInstance i : live) {
            String claim = i.tags().get(CloudInstance.TAG_NODECLAIM);
            if (claim != null) { // an instance of a launch of several carries its launch token instead
                perClaim.merge(claim, 1, Integer::sum);
                tagged.put(claim, i);
            }
            NodeClaim byTag = claim == null ? null : byName.get(claim);
            NodeClaim owner = byInstance.get(i.id());
            boolean owned = owner != null || (byTag != null && byTag.state() == NodeClaimState.Launching && byTag.instanceId() == null)
                    || pendingLaunches.contains(i.tags().get(CloudInstance.TAG_LAUNCH));
            if (owned) {
                unownedSince.remove(i.id());
            } else {
                Instant since = unownedSince.computeIfAbsent(i.id(), k -> now);
                episodes.episode(!now.isBefore(since.plus(LEAK_AFTER)), "leakedInstances", i.id(), () -> i.id() + " ("
                        + i.type().name() + ", launched " + i.launchTime() + ") has had no live nodeclaim since " + since);
            }
        }
        unownedSince.keySet().retainAll(live.stream().map(SimulatedInstance::id).toList());
        perClaim.forEach((claim, n) -> episodes.episode(n > 1, "duplicateLaunches", claim,
                () -> n + " live instances for nodeclaim/" + claim));
        for (NodeClaim c : byName.values()) {
            SimulatedInstance t = tagged.get(c.name());
            boolean mismatch = t != null && c.instanceId() != null && c.state() != NodeClaimState.Terminated
                    && !c.instanceId().equals(t.id()) && instances.apply(c.instanceId()).map(SimulatedInstance::isAlive).orElse(false);
            episodes.episode(mismatch, "duplicateLaunches", c.name() + " recorded", () -> "nodeclaim/" + c.name()
                    + " records " + c.instanceId() + " but " + t.id() + " was launched for it too, and both run");
        }
    }

    private void budgets(List<NodeClaim> claims, Instant now, Checks.Episodes episodes) {
        Map<String, Integer> nodes = new HashMap<>();
        Map<String, Integer> deleting = new HashMap<>();
        for (NodeClaim c : claims) {
            if (c.state() == NodeClaimState.Terminated || c.nodeName() == null) {
                continue;
            }
            nodes.merge(c.nodePool(), 1, Integer::sum);
            NodePool.Reason r = c.state().isDeleting() ? reason(c.deletionReason()) : null;
            if (r != null) {
                deleting.merge(c.nodePool() + "/" + r, 1, Integer::sum);
            }
        }
        for (NodePool pool : pools.values()) {
            int total = nodes.getOrDefault(pool.name(), 0);
            for (NodePool.Reason r : NodePool.Reason.values()) {
                int n = deleting.getOrDefault(pool.name() + "/" + r, 0);
                int allowed = DisruptionBudgets.allowed(pool, r, total, 0, now);
                episodes.episode(n > allowed, "disruptionBudgetExceeded", pool.name() + "/" + r, () -> "NodePool "
                        + pool.name() + " has " + n + " of " + total + " nodes deleting for " + r + ", its budgets allow " + allowed);
            }
        }
    }

    private void staleTaints(Map<String, NodeClaim> byName, Map<String, NodeClaim> byInstance, Instant now,
                             Checks.Episodes episodes) {
        Map<String, NodeClaim> byNode = new HashMap<>();
        byName.values().stream().filter(c -> c.state() != NodeClaimState.Terminated && c.nodeName() != null)
                .forEach(c -> byNode.putIfAbsent(c.nodeName(), c));
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (dev.gantry.core.model.Node n : cluster.nodes()) {
            boolean tainted = n.taints().stream().anyMatch(t -> t.key().equals(dev.gantry.core.model.Taint.DISRUPTED.key()));
            NodeClaim c = n.instanceId() == null ? null : byInstance.get(n.instanceId());
            c = c != null ? c : byNode.get(n.name());
            if (!tainted || n.deletionTimestamp() != null || c == null || ownsTaint(c, byName)) {
                continue;
            }
            seen.add(n.name());
            Instant since = unownedTaintSince.computeIfAbsent(n.name(), k -> now);
            Instant from = apiDownUntil.get().isAfter(since) ? apiDownUntil.get() : since;
            NodeClaim claim = c;
            episodes.episode(!now.isBefore(from.plus(STALE_TAINT_AFTER)), "staleDisruptedTaints", n.name(), () -> "node "
                    + n.name() + " (nodeclaim/" + claim.name() + ", " + claim.state() + ") has carried karpenter.sh/disrupted"
                    + " with no flow owning it since " + since + (claim.consolidation() == null ? ""
                            : " (command " + claim.consolidation().command() + ")"));
        }
        for (String gone : List.copyOf(unownedTaintSince.keySet())) {
            if (!seen.contains(gone)) {
                unownedTaintSince.remove(gone);
                episodes.episode(false, "staleDisruptedTaints", gone, () -> "");
            }
        }
    }

    /** Whether a flow owns the claim's disrupted taint: its own deletion, or a consolidation command it belongs to. */
    private static boolean ownsTaint(NodeClaim c, Map<String, NodeClaim> byName) {
        if (c.state().isDeleting()) {
            return true;
        }
        dev.gantry.core.lifecycle.ConsolidationMark m = c.consolidation();
        NodeClaim leader = m == null ? null : byName.get(m.leader());
        dev.gantry.core.lifecycle.ConsolidationMark lm = leader == null ? null : leader.consolidation();
        if (lm == null || !lm.command().equals(m.command())) {
            return false;
        }
        return lm.phase() == dev.gantry.core.lifecycle.ConsolidationMark.Phase.Handed
                || (lm.phase().active() && !leader.state().isDeleting());
    }

    /** The budgeted reason a deletion was started for, or null for a forceful one (expiry, interruption, repair…). */
    static NodePool.Reason reason(String deletionReason) {
        if (deletionReason == null) {
            return null;
        }
        return switch (deletionReason) {
            case "empty", "emptiness" -> NodePool.Reason.Empty;
            case "underutilized", "consolidation" -> NodePool.Reason.Underutilized;
            case "drifted", "drift" -> NodePool.Reason.Drifted;
            default -> null;
        };
    }
}
