package dev.gantry.handlers.lifecycle;

import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.handlers.Composition;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds the lifecycle services from the composition root's parts (store, cluster, cloud, queues, config), so the
 * lifecycle handlers need nothing from the root beyond what the provisioner already uses.
 */
public final class LifecycleParts {
    private LifecycleParts() {
    }

    public static QueueHints hints(Composition c) {
        return new QueueHints(c.provisioningQueue(), new HintCodec(c.json()), c.store(), c.clusterName());
    }

    public static InterruptionService interruption(Composition c) {
        return new InterruptionService(c.store(), c.cluster(), c.cluster(), c.termination(), hints(c), c.nodePools(), c.clock());
    }

    public static SweepService sweep(Composition c) {
        return new SweepService(c.clusterName(), c.cluster(), c.cluster(), c.store(), c.cloud(), c.termination(), hints(c),
                c.nodePools(), facts(c), c.clock()).withRefresh(c::refreshOfferings).withConsolidation(consolidation(c))
                .withHeadroom(c.headroom());
    }

    /**
     * Consolidation's execution: decided in the sweep, carried on by termination-queue messages; replacements are
     * recorded for the provisioner to launch (a hint nudges it). Spot-to-spot and the strategy are the deployment's
     * ({@link Composition#consolidationSettings()}); validation keeps room for the same buffers as the sweep's decision.
     */
    public static ConsolidationService consolidation(Composition c) {
        Provisioner p = c.provisioner();
        return new ConsolidationService(c.cluster(), c.cluster(), c.store(), c.termination(), hints(c), c.terminationQueue(),
                p::poolOffers, p::recordReplacement, c.consolidationSettings(), c.clock()).withHeadroom(c.headroom());
    }

    /** Instance-type labels and extended resources from the catalogue, under the first NodeClass (they do not depend on it). */
    static InstanceFacts.Source facts(Composition c) {
        Map<String, Optional<InstanceFacts>> cache = new ConcurrentHashMap<>();
        return type -> cache.computeIfAbsent(type, t -> {
            Optional<NodeClass> nodeClass = c.config().nodeClasses().stream().findFirst();
            if (nodeClass.isEmpty()) {
                return Optional.empty();
            }
            for (InstanceType it : c.instanceTypes().instanceTypes(nodeClass.get())) {
                if (it.name().equals(t)) {
                    return Optional.of(new InstanceFacts(it.labels(), it.capacity().extended()));
                }
            }
            return Optional.empty();
        });
    }
}
