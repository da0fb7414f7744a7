package dev.gantry.core.provisioning;

import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.headroom.BufferPods;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Launches a plan's new claims in CreateFleet batches and logs what became of each. Claims planned alike (same pool,
 * options in order and requirements: so the same labels, taints and CreateFleet) go together, at most
 * {@code batchSize} a launch, in plan order, as Karpenter's CreateFleet batcher merges identical requests. Each batch
 * is recorded whole (every member Launching under the batch's launch token, the name of its first claim) before its one
 * CreateFleet, whose ClientToken is that token, so that a crash between the call and the store writes is resumed by
 * replaying it.
 *
 * <p>Batches launch side by side ({@link Fanout}, {@code parallelism} at once); a batch that would start at or after
 * {@code stopBy} is not recorded, and each of its claims is counted deferred in the {@link RunLog}.
 */
final class FleetBatcher {
    private final GantryConfig config;
    private final ClaimLauncher launcher;
    private final Clock clock;
    private final Fanout fanout;
    private final int parallelism;
    private final int batchSize;

    FleetBatcher(GantryConfig config, ClaimLauncher launcher, Clock clock, Fanout fanout, int parallelism, int batchSize) {
        this.config = config;
        this.launcher = launcher;
        this.clock = clock;
        this.fanout = fanout;
        this.parallelism = parallelism;
        this.batchSize = batchSize;
    }

    /** Whether this round is the run's last plan: then a claim out of capacity leaves its pods unschedulable. */
    enum Round { MORE_TO_COME, LAST }

    /**
     * Records and launches {@code plans} in batches, and logs each planned claim: its launch, its pods' nominations, or
     * why they cannot be placed.
     */
    Outcome launch(List<NodeClaimPlan> plans, Instant now, Instant stopBy, RunLog log, Round round) {
        List<List<NodeClaimPlan>> batches = batches(plans);
        List<List<PlanLaunch>> launched = fanout.map(batches, parallelism,
                batch -> clock.instant().isBefore(stopBy) ? launchBatch(batch, now) : null);
        boolean outOfCapacity = false;
        Set<String> spotOut = new TreeSet<>();
        for (int b = 0; b < batches.size(); b++) {
            if (launched.get(b) == null) {
                batches.get(b).forEach(p -> log.defer());
                continue;
            }
            for (PlanLaunch l : launched.get(b)) {
                boolean out = logLaunch(l, log, round);
                outOfCapacity |= out;
                if (out && WellKnownLabels.CAPACITY_SPOT.equals(l.plan().offering().capacityType())) {
                    spotOut.add(l.plan().nodePool());
                }
            }
        }
        return new Outcome(outOfCapacity, spotOut);
    }

    /**
     * What a round's launches ran into: whether any ran out of capacity (so what is left should be planned again), and
     * the pools whose spot launches did.
     */
    record Outcome(boolean outOfCapacity, Set<String> spotOut) {
    }

    /** The new claims in launches: claims planned alike together, at most {@code batchSize} a launch, in plan order. */
    private List<List<NodeClaimPlan>> batches(List<NodeClaimPlan> plans) {
        Map<String, List<List<NodeClaimPlan>>> byKey = new LinkedHashMap<>();
        for (NodeClaimPlan p : plans) {
            String key = p.nodePool() + "|" + p.instanceTypeOptions().stream().map(t -> t.name()).toList() + "|"
                    + p.requirements().toList();
            List<List<NodeClaimPlan>> chunks = byKey.computeIfAbsent(key, k -> new ArrayList<>());
            if (chunks.isEmpty() || chunks.getLast().size() >= batchSize) {
                chunks.add(new ArrayList<>());
            }
            chunks.getLast().add(p);
        }
        return byKey.values().stream().flatMap(List::stream).toList();
    }

    /**
     * Records and launches one batch of planned claims with one CreateFleet. Runs on a worker: touches only the store
     * and the cloud (and resumes, alone, a claim an earlier delivery left Launching under another launch).
     */
    private List<PlanLaunch> launchBatch(List<NodeClaimPlan> batch, Instant now) {
        if (batch.size() == 1) {
            return List.of(launchAlone(batch.getFirst(), now));
        }
        var pool = config.nodePool(batch.getFirst().nodePool()).orElseThrow();
        var nodeClass = config.nodeClassOf(pool).orElseThrow();
        DriftStamp hash = DriftHashes.stamp(pool, nodeClass);
        String token = null;
        List<NodeClaim> members = new ArrayList<>();
        NodeClaim[] recorded = new NodeClaim[batch.size()];
        NodeClaimPlan firstMine = null;
        for (int i = 0; i < batch.size(); i++) {
            ClaimLauncher.Recorded r = launcher.recordInBatch(batch.get(i), hash, now, token);
            recorded[i] = r.claim();
            if (r.created()) {
                token = token == null ? r.claim().name() : token;
                firstMine = firstMine == null ? batch.get(i) : firstMine;
                members.add(r.claim());
            }
        }
        Map<String, ClaimLauncher.Result> results = new HashMap<>();
        if (!members.isEmpty()) {
            LaunchRequest request = LaunchRequests.forPlan(firstMine, token, pool, nodeClass);
            launcher.launchBatch(members, request, now).forEach(r -> results.put(r.claim().name(), r));
        }
        List<PlanLaunch> out = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            NodeClaim c = recorded[i];
            ClaimLauncher.Result r = results.get(c.name());
            if (r == null && c.state() == NodeClaimState.Launching && !members.contains(c)) {
                // An earlier delivery's claim, still Launching under its own launch: the next run resumes it.
                out.add(PlanLaunch.deferred(batch.get(i), c));
                continue;
            }
            out.add(PlanLaunch.done(batch.get(i), c, r));
        }
        return out;
    }

    /** Records and launches one planned claim. Runs on a worker: touches only the store and the cloud. */
    private PlanLaunch launchAlone(NodeClaimPlan plan, Instant now) {
        var pool = config.nodePool(plan.nodePool()).orElseThrow();
        var nodeClass = config.nodeClassOf(pool).orElseThrow();
        NodeClaim claim = launcher.record(plan, DriftHashes.stamp(pool, nodeClass), now);
        if (claim.state() != NodeClaimState.Launching) {
            return PlanLaunch.done(plan, claim, null); // launched by an earlier delivery of the same batch
        }
        return PlanLaunch.done(plan, claim, launcher.launch(claim, LaunchRequests.forPlan(plan, claim.name(), pool, nodeClass), now));
    }

    /**
     * What became of one planned claim. {@code result} is null when an earlier delivery already launched it, or
     * ({@code deferred}) left it Launching under a launch of its own, which the next run resumes.
     */
    private record PlanLaunch(NodeClaimPlan plan, NodeClaim claim, ClaimLauncher.Result result, boolean deferred) {
        /** The claim's launch result, or null when an earlier delivery already launched it. */
        static PlanLaunch done(NodeClaimPlan plan, NodeClaim claim, ClaimLauncher.Result result) {
            return new PlanLaunch(plan, claim, result, false);
        }

        /** An earlier delivery's claim, still Launching under a launch of its own: the next run resumes it. */
        static PlanLaunch deferred(NodeClaimPlan plan, NodeClaim claim) {
            return new PlanLaunch(plan, claim, null, true);
        }
    }

    /** Logs one planned claim's launch; true when it ran out of capacity (so what is left should be planned again). */
    private static boolean logLaunch(PlanLaunch launch, RunLog log, Round round) {
        List<Pod> pods = launch.plan().pods().stream().filter(p -> !BufferPods.isVirtual(p)).toList();
        String name = launch.claim().name();
        ClaimLauncher.Result r = launch.result();
        if (launch.deferred()) {
            log.defer();
        }
        if (r == null) {
            if (launch.claim().state().isInFlight()) {
                pods.forEach(p -> log.renominate(p, name));
            }
            return false;
        }
        log.record(r);
        if (r.launched() != null) {
            pods.forEach(p -> log.nominate(p, name));
        } else if (!r.outOfCapacity()) {
            pods.forEach(p -> log.unschedulable(p, "launching nodeclaim/" + name + " failed: " + r.reason()));
        } else if (round == Round.LAST) {
            pods.forEach(p -> log.unschedulable(p, "no capacity for any instance type of nodeclaim/" + name + " (" + r.code() + ")"));
        }
        return r.outOfCapacity();
    }
}
