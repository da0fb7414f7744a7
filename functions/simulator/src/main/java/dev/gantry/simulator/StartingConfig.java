package dev.gantry.simulator;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The configuration a scenario starts with, read from its files by the one loader ({@code gantry validate}'s), as the
 * deploy-time apply puts it in the API server.
 *
 * @param loaded  what the loader read (buffers and their targets included)
 * @param classes the NodeClasses, with AL2023 defaults for a pool whose NodeClass is not in the input (as {@code gantry
 *                plan} does)
 * @param config  the pools and classes with the scenario's region and zones
 */
record StartingConfig(LoadResult loaded, List<NodeClass> classes, GantryConfig config) {

    /** Reads the scenario's configuration; a bad file is a {@link ScenarioException} at its line. */
    static StartingConfig load(Scenario scenario) {
        LoadResult loaded = ConfigLoader.load(scenario.gantry().config(), LoadOptions.DEFAULT);
        if (!loaded.ok()) {
            var d = loaded.errors().getFirst();
            throw new ScenarioException(d.path(), d.line(), d.toString().substring(d.toString().indexOf(": ") + 2));
        }
        if (loaded.nodePools().isEmpty()) {
            throw new ScenarioException(scenario.file().toString(), 1, "config names no NodePool (or Provisioner)");
        }
        List<NodeClass> classes = new ArrayList<>(loaded.nodeClasses());
        for (NodePool p : loaded.nodePools()) {
            NodePool.NodeClassRef ref = p.template().nodeClassRef();
            if (classes.stream().noneMatch(c -> c.isNamedBy(ref))) {
                classes.add(new NodeClass(ref.name(), ref.group(), ref.kind(), null,
                        List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")), List.of(), List.of(), null, null, null,
                        Map.of(), List.of(), null, null, null, null, null));
            }
        }
        GantryConfig config = new GantryConfig(loaded.nodePools(), classes, scenario.cluster().region(), scenario.cluster().zones(),
                loaded.overlays());
        return new StartingConfig(loaded, List.copyOf(classes), config);
    }
}
