package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Builds the {@link LaunchRequest} for a planned claim, or again for a stored one (to resume it with the same values). */
final class LaunchRequests {
    private LaunchRequests() {
    }

    /** The request for a planned claim, recorded under {@code claimName} (the plan's name, or the next free one). */
    static LaunchRequest forPlan(SchedulingResult.NodeClaimPlan plan, String claimName, NodePool pool, NodeClass nodeClass) {
        return new LaunchRequest(claimName, pool, nodeClass, plan.instanceTypeOptions(), plan.requirements(),
                labels(pool, plan.requirements()), taints(pool));
    }

    /** The request a stored claim was launched with: its options by name, in its recorded order, and its requirements. */
    static LaunchRequest forClaim(NodeClaim claim, NodePool pool, NodeClass nodeClass, List<InstanceType> poolTypes) {
        List<InstanceType> options = new ArrayList<>();
        for (String name : claim.instanceTypeOptions()) {
            poolTypes.stream().filter(t -> t.name().equals(name)).findFirst().ifPresent(options::add);
        }
        Requirements reqs = Requirements.of(claim.requirements());
        return new LaunchRequest(claim.name(), pool, nodeClass, options, reqs, labels(pool, reqs), taints(pool));
    }

    /**
     * Labels the node registers with: every label the requirements pin to one value (the pool, its template labels,
     * a capacity type when only one is allowed…). Instance-specific labels (type, zone) are the launcher's to add, and
     * the hostname belongs to the kubelet.
     */
    static Map<String, String> labels(NodePool pool, Requirements reqs) {
        Map<String, String> labels = new TreeMap<>(reqs.singleValuedLabels());
        labels.keySet().removeAll(Set.of(WellKnownLabels.HOSTNAME, WellKnownLabels.INSTANCE_TYPE, WellKnownLabels.ZONE,
                WellKnownLabels.ZONE_ID));
        labels.putAll(pool.template().labels());
        labels.put(WellKnownLabels.NODEPOOL, pool.name());
        return labels;
    }

    /** Template taints, then startup taints: both are registered with the node. */
    static List<Taint> taints(NodePool pool) {
        List<Taint> out = new ArrayList<>(pool.template().taints());
        out.addAll(pool.template().startupTaints());
        return out;
    }
}
