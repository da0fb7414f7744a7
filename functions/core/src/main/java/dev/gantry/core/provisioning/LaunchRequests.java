package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds the {@link LaunchRequest} for a planned claim, or again for a stored one (to resume it with the same values). */
final class LaunchRequests {
    private LaunchRequests() {
    }

    /**
     * The request for a planned claim under {@code clientToken}: the name the claim was recorded under (the plan's
     * name, or the next free one) when it launches alone, or the launch token of its batch.
     */
    static LaunchRequest forPlan(SchedulingResult.NodeClaimPlan plan, String clientToken, NodePool pool, NodeClass nodeClass) {
        return new LaunchRequest(clientToken, pool, nodeClass, plan.instanceTypeOptions(), plan.requirements(),
                labels(pool, plan.requirements()), taints(pool), 1, plan.requests());
    }

    /**
     * The request a stored claim was launched with: its options by name, in its recorded order, and its requirements.
     * Its pods' requests are not stored: a launch that recorded its parameters replays them (EFA interfaces included);
     * one that did not is planned without EFA interfaces.
     */
    static LaunchRequest forClaim(NodeClaim claim, NodePool pool, NodeClass nodeClass, List<InstanceType> poolTypes) {
        List<InstanceType> options = new ArrayList<>();
        for (String name : claim.instanceTypeOptions()) {
            poolTypes.stream().filter(t -> t.name().equals(name)).findFirst().ifPresent(options::add);
        }
        Requirements reqs = Requirements.of(claim.requirements());
        return new LaunchRequest(claim.name(), pool, nodeClass, options, reqs, labels(pool, reqs), taints(pool));
    }

    /** The labels the node registers with: {@link ClaimLabels#launch}. */
    static Map<String, String> labels(NodePool pool, Requirements reqs) {
        return ClaimLabels.launch(pool, reqs);
    }

    /** Template taints, then startup taints: both are registered with the node. */
    static List<Taint> taints(NodePool pool) {
        List<Taint> out = new ArrayList<>(pool.template().taints());
        out.addAll(pool.template().startupTaints());
        return out;
    }
}
