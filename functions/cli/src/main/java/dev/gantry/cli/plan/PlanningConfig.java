package dev.gantry.cli.plan;

import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.LoadResult;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.LaunchPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What an offline what-if plans with, as the provisioner would: the loaded NodePools and NodeClasses (a pool whose
 * NodeClass is not in the input plans with AL2023 defaults, with a warning), the built-in catalogue chosen per pool,
 * and the provisioner's own {@link LaunchPlanner} over them.
 */
public record PlanningConfig(GantryConfig config, InstanceTypeProvider instanceTypes, LaunchPlanner planner) {

    public static PlanningConfig of(LoadResult loaded, CatalogSource catalogs, Consumer<String> warn) {
        List<NodeClass> classes = new ArrayList<>(loaded.nodeClasses());
        for (NodePool pool : loaded.nodePools()) {
            NodeClass nc = PlanInput.nodeClassFor(pool, classes, warn);
            if (!classes.contains(nc)) {
                classes.add(nc);
            }
        }
        GantryConfig config = new GantryConfig(loaded.nodePools(), classes, "offline", List.of(), loaded.overlays());
        // The provisioner has one provider for its region; offline, each pool's catalogue is chosen by its zones.
        InstanceTypeProvider types = nodeClass -> catalogs.forPool(poolOf(loaded.nodePools(), nodeClass)).instanceTypes(nodeClass);
        return new PlanningConfig(config, types, new LaunchPlanner(config, types));
    }

    private static NodePool poolOf(List<NodePool> pools, NodeClass nodeClass) {
        return pools.stream().filter(p -> nodeClass.isNamedBy(p.template().nodeClassRef())).findFirst()
                .orElse(pools.getFirst());
    }
}
