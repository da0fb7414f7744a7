package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.scheduling.Scheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Claims made from a NodePool's template alone, with no pod behind them: what a static NodePool ({@code spec.replicas})
 * keeps by count. As Karpenter's static provisioning controller builds a NodeClaim from {@code NewNodeClaimTemplate}
 * (core {@code pkg/controllers/static/provisioning/controller.go}), the claim carries the pool's requirements and
 * every instance type they allow that has an available offering, cheapest first (at most
 * {@link Scheduler#MAX_INSTANCE_TYPE_OPTIONS}); CreateFleet chooses among them. The claim is recorded Launching and
 * launched by the next provisioning run, as a crashed run's claims are ({@code Provisioner.resumeLaunching}): one launch
 * path, idempotent by claim name.
 */
final class TemplateClaims {
    private final GantryConfig config;
    private final PlanningInputs inputs;
    private final NodeClaimStore store;

    TemplateClaims(GantryConfig config, PlanningInputs inputs, NodeClaimStore store) {
        this.config = config;
        this.inputs = inputs;
        this.store = store;
    }

    /**
     * Records a Launching claim of {@code pool} under {@code name}, or returns the in-flight claim already recorded under
     * it ({@link FreshClaimNames#record}); empty when the pool has no NodeClass or no instance type with an available
     * offering its requirements allow.
     */
    Optional<NodeClaim> record(NodePool pool, String name, Instant now) {
        Optional<NodeClass> nodeClass = config.nodeClassOf(pool);
        if (nodeClass.isEmpty()) {
            return Optional.empty();
        }
        Set<OfferingKey> unavailable = store.unavailableOfferings(now);
        Requirements reqs = pool.requirements();
        List<InstanceType> options = new ArrayList<>();
        for (InstanceType t : inputs.types(pool, unavailable)) {
            if (reqs.compatible(t.requirements()) && t.cheapestOffering(reqs) != null) {
                options.add(t);
            }
        }
        if (options.isEmpty()) {
            return Optional.empty();
        }
        options.sort(Comparator.comparingDouble((InstanceType t) -> t.cheapestOffering(reqs).pricePerHour())
                .thenComparing(InstanceType::name));
        List<InstanceType> kept = options.subList(0, Math.min(options.size(), Scheduler.MAX_INSTANCE_TYPE_OPTIONS));
        InstanceType cheapest = kept.getFirst();
        Offering offering = cheapest.cheapestOffering(reqs);
        DriftStamp stamp = DriftHashes.stamp(pool, nodeClass.get());
        return Optional.of(FreshClaimNames.record(store, name, n -> NodeClaim.launching(n, pool.name(), stamp.nodeClassHash(),
                reqs.toList(), kept.stream().map(InstanceType::name).toList(), List.of(), cheapest.name(), offering.zone(),
                offering.capacityType(), offering.pricePerHour(), now).withDrift(stamp), now));
    }
}
