package dev.gantry.core.provisioning;

import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.lifecycle.LostCommands;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A provisioning run's first step: the claims recorded but not known launched (a crashed run's, a consolidation
 * replacement, a static pool's claim from its template) are launched, each launch key once. Nothing of a lost
 * consolidation command is launched ({@link LostCommands}).
 */
final class ResumedLaunches {
    private final NodeClaimStore store;
    private final GantryConfig config;
    private final PlanningInputs inputs;
    private final ClaimLauncher launcher;
    private final Clock clock;

    ResumedLaunches(NodeClaimStore store, GantryConfig config, PlanningInputs inputs, ClaimLauncher launcher, Clock clock) {
        this.store = store;
        this.config = config;
        this.inputs = inputs;
        this.launcher = launcher;
        this.clock = clock;
    }

    /**
     * Claims recorded but not known launched: launch again (the same instances come back) and record them. Claims that
     * share a launch key are one launch, resumed together with the count they were recorded with and the parameters
     * its first call sent (its subnets, offerings and launch templates), so that EC2 sees the same request again.
     */
    void resume(Instant now, Instant stopBy, RunLog log) {
        List<NodeClaim> all = store.list(now);
        Map<String, List<NodeClaim>> byKey = new LinkedHashMap<>();
        all.forEach(c -> byKey.computeIfAbsent(c.launchKey(), k -> new ArrayList<>()).add(c));
        Set<String> done = new HashSet<>();
        LostCommands lost = LostCommands.among(all);
        for (NodeClaim c : spotFirst(all)) {
            if (c.state() != NodeClaimState.Launching || lost.contains(c) || !done.add(c.launchKey())) {
                continue; // a lost command's replacement is closed unlaunched when the command is aborted
            }
            for (ClaimLauncher.Result r : resumeLaunch(byKey.get(c.launchKey()), now, stopBy, log)) {
                if (r.launched() == null && r.claim().consolidation() != null) {
                    lost = lost.with(r.claim().consolidation().command()); // its command's other replacements wait
                }
            }
        }
    }

    /**
     * The claims with spot ones first, in their order otherwise: of a consolidation command's replacements, the ones
     * most likely to find no capacity launch first, so that when one fails the others are not launched for nothing.
     */
    private static List<NodeClaim> spotFirst(List<NodeClaim> claims) {
        List<NodeClaim> out = new ArrayList<>(claims);
        out.sort(Comparator.comparing(c -> !WellKnownLabels.CAPACITY_SPOT.equals(c.capacityType())));
        return out;
    }

    /** Resumes one launch: {@code members} are the stored claims of one launch key, some of them Launching. */
    private List<ClaimLauncher.Result> resumeLaunch(List<NodeClaim> members, Instant now, Instant stopBy, RunLog log) {
        List<NodeClaim> launching = members.stream().filter(c -> c.state() == NodeClaimState.Launching).toList();
        if (!clock.instant().isBefore(stopBy)) {
            launching.forEach(c -> log.defer()); // still Launching: the next run resumes them
            return List.of();
        }
        NodeClaim first = launching.getFirst();
        var pool = config.nodePool(first.nodePool());
        var nodeClass = pool.flatMap(config::nodeClassOf);
        if (nodeClass.isEmpty()) {
            List<ClaimLauncher.Result> out = new ArrayList<>();
            for (NodeClaim c : launching) {
                launcher.close(c, "launch-abandoned", now);
                out.add(ClaimLauncher.Result.failed(c, "NodePoolOrNodeClassRemoved"));
                log.recordResumed(out.getLast());
            }
            return out;
        }
        // A launch recorded with its parameters replays them as they are (ClaimLauncher); one that was not (the run
        // died before they were written, so nothing was sent) resolves them now, without the offerings just out of
        // capacity, as a fresh launch would.
        LaunchRequest request = LaunchRequests.forClaim(first, pool.get(), nodeClass.get(),
                inputs.types(pool.get(), store.unavailableOfferings(now)));
        List<ClaimLauncher.Result> out = launcher.launchBatch(members, request, now);
        out.forEach(log::recordResumed);
        return out;
    }
}
