package dev.gantry.handlers;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.status.ClaimProjection;
import dev.gantry.core.status.NodeClaimProjector;
import dev.gantry.core.provisioning.PriceView;
import dev.gantry.core.status.NodeClassResolver;
import dev.gantry.core.status.OverlayStatusWriter;
import dev.gantry.core.status.StatusWriter;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.kube.KubeCluster;
import dev.gantry.kube.KubeStatusObjects;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The sweep's cluster-object steps as the composition root wires them: the NodeClaim projection and the
 * NodePool/EC2NodeClass status, over the fabric8 adapters, with instance capacity from the catalogue.
 */
final class ClusterObjects {
    private ClusterObjects() {
    }

    /**
     * An instance type's capacity and allocatable from the catalogue, under the first NodeClass of the configuration
     * (the allocatable differs little between NodeClasses; status shows it as Karpenter's does, from its catalogue),
     * cached per type for the life of this value (one sweep).
     */
    static ClaimProjection.CapacityOf capacity(Supplier<GantryConfig> config, InstanceTypeProvider types) {
        Map<String, Optional<ClaimProjection.Capacity>> cache = new ConcurrentHashMap<>();
        return type -> cache.computeIfAbsent(type, t -> {
            Optional<NodeClass> nodeClass = config.get().nodeClasses().stream().findFirst();
            return nodeClass.flatMap(nc -> types.instanceTypes(nc).stream().filter(it -> it.name().equals(t)).findFirst())
                    .map((InstanceType it) -> new ClaimProjection.Capacity(it.capacity(), it.allocatable()));
        });
    }

    /** Over {@code cluster}'s client and Events (which learn the objects' UIDs for {@code kubectl describe}). */
    static NodeClaimProjector projector(KubeCluster cluster, ClaimProjection.CapacityOf capacity,
                                        TerminationService termination, Supplier<GantryConfig> config) {
        return new NodeClaimProjector(cluster.nodeClaimObjects(), new ClaimProjection(capacity, ClaimProjection.Drift.FROM_STAMP),
                termination, config).withEvents(cluster);
    }

    /**
     * @param diagnostics the configuration reader's per-object messages, keyed {@code Kind/name}
     * @param types       the live instance types, over which NodeOverlays are resolved for their status
     */
    static StatusWriter status(KubernetesClient client, NodeClassResolver resolver, ClaimProjection.CapacityOf capacity,
                               Supplier<GantryConfig> config, Supplier<Map<String, List<String>>> diagnostics,
                               InstanceTypeProvider types) {
        KubeStatusObjects objects = new KubeStatusObjects(client);
        return new StatusWriter(objects, resolver, capacity, config, diagnostics).withOverlays(
                new OverlayStatusWriter(objects, config, diagnostics, cfg -> PriceView.resolve(cfg, types)));
    }
}
