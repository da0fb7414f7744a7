package dev.gantry.core.provisioning;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the user configured: NodePools and NodeClasses (Karpenter YAML, loaded by the config module), and where they
 * apply. A value read once per Lambda instance.
 *
 * @param zones the zones Gantry may launch in (the catalogue's zones); empty means the region's defaults
 * @param overlays the NodeOverlays that change how scheduling and consolidation see instance types (never billing)
 */
public record GantryConfig(List<NodePool> nodePools, List<NodeClass> nodeClasses, String region, List<String> zones,
                           List<dev.gantry.core.catalog.overlay.NodeOverlay> overlays) {
    /** A configuration without NodeOverlays. */
    public GantryConfig(List<NodePool> nodePools, List<NodeClass> nodeClasses, String region, List<String> zones) {
        this(nodePools, nodeClasses, region, zones, List.of());
    }

    public GantryConfig {
        overlays = List.copyOf(overlays == null ? List.of() : overlays);
        nodePools = List.copyOf(nodePools);
        nodeClasses = List.copyOf(nodeClasses);
        Objects.requireNonNull(region, "region");
        zones = List.copyOf(zones == null ? List.of() : zones);
    }

    /**
     * This configuration with other NodePools; everything else (NodeClasses, region, zones, NodeOverlays) kept. A copy
     * is made through these, never the constructor, so that no field is lost on the way: a copy that named four of the
     * five dropped the NodeOverlays when Gantry managed only some NodePools, and while an AMI rollout was paused.
     */
    public GantryConfig withNodePools(List<NodePool> pools) {
        return new GantryConfig(pools, nodeClasses, region, zones, overlays);
    }

    /** This configuration with other NodeClasses; everything else kept (see {@link #withNodePools}). */
    public GantryConfig withNodeClasses(List<NodeClass> classes) {
        return new GantryConfig(nodePools, classes, region, zones, overlays);
    }

    /** The NodeClass a pool's {@code nodeClassRef} names, if configured. */
    public Optional<NodeClass> nodeClassOf(NodePool pool) {
        NodePool.NodeClassRef ref = pool.template().nodeClassRef();
        return nodeClasses.stream().filter(c -> c.isNamedBy(ref)).findFirst();
    }

    public Optional<NodePool> nodePool(String name) {
        return nodePools.stream().filter(p -> p.name().equals(name)).findFirst();
    }
}
