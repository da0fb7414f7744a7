package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Optional;

/**
 * A claim planned from a NodePool's template alone, with no pod behind it: what a static NodePool ({@code spec.replicas})
 * is kept with, whether to reach its count or to replace a drifted node. As Karpenter's {@code NewNodeClaimTemplate}
 * (core {@code pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go}): the pool's requirements, and every
 * instance type they allow with an available offering, cheapest first, at most {@link Scheduler#MAX_INSTANCE_TYPE_OPTIONS};
 * CreateFleet chooses among them. Pure.
 */
public final class TemplatePlan {
    private TemplatePlan() {
    }

    /** The plan for {@code offer}'s pool under {@code name}; empty when no instance type of it can launch. */
    public static Optional<SchedulingResult.NodeClaimPlan> of(SchedulingInput.PoolOffer offer, String name) {
        Requirements reqs = offer.pool().requirements();
        List<InstanceType> options = offer.types().pool();
        if (options.isEmpty()) {
            return Optional.empty();
        }
        List<InstanceType> kept = List.copyOf(options.subList(0, Math.min(options.size(), Scheduler.MAX_INSTANCE_TYPE_OPTIONS)));
        Offering offering = kept.getFirst().cheapestOffering(reqs);
        return Optional.of(new SchedulingResult.NodeClaimPlan(name, offer.pool().name(), reqs, kept, kept.getFirst(), offering,
                List.of(), Resources.ZERO));
    }
}
