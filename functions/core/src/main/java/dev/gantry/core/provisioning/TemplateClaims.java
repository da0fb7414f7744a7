package dev.gantry.core.provisioning;

import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.TemplatePlan;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Claims made from a NodePool's template alone ({@link TemplatePlan}), with no pod behind them: what a static NodePool
 * ({@code spec.replicas}) keeps by count, as Karpenter's static provisioning controller makes them (core
 * {@code pkg/controllers/static/provisioning/controller.go}). The claim is recorded Launching and launched by the next
 * provisioning run, as a crashed run's claims are ({@code Provisioner.resumeLaunching}): one launch path, idempotent by
 * claim name.
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
        Optional<SchedulingResult.NodeClaimPlan> plan = TemplatePlan.of(new SchedulingInput.PoolOffer(pool,
                inputs.types(pool, store.unavailableOfferings(now)), Resources.ZERO, 0), name);
        if (plan.isEmpty()) {
            return Optional.empty();
        }
        SchedulingResult.NodeClaimPlan p = plan.get();
        DriftStamp stamp = DriftHashes.stamp(pool, nodeClass.get());
        return Optional.of(FreshClaimNames.record(store, name, n -> NodeClaim.launching(n, pool.name(), stamp.nodeClassHash(),
                p.requirements().toList(), p.instanceTypeOptions().stream().map(InstanceType::name).toList(), List.of(),
                p.instanceType().name(), p.offering().zone(), p.offering().capacityType(), p.offering().pricePerHour(), now)
                .withDrift(stamp), now));
    }
}
