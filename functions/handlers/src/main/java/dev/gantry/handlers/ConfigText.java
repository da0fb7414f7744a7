package dev.gantry.handlers;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.provisioning.GantryConfig;
import java.util.List;
import java.util.stream.Collectors;

/** Turns the deployed configuration text (one multi-document YAML) into a {@link GantryConfig}. */
final class ConfigText {
    private ConfigText() {
    }

    /** @throws IllegalStateException listing every error: a function must not start with a half-read configuration */
    static GantryConfig parse(String yaml, String region, List<String> zones) {
        LoadResult r = load(yaml);
        return new GantryConfig(r.nodePools(), r.nodeClasses(), region, zones);
    }

    /** The whole bundle (NodePools, NodeClasses, CapacityBuffers and their PodTemplates), read once. */
    static LoadResult load(String yaml) {
        LoadResult r = ConfigLoader.loadString("GANTRY_CONFIG", yaml, LoadOptions.DEFAULT);
        if (!r.ok()) {
            throw new IllegalStateException("the Gantry configuration has errors: "
                    + r.errors().stream().map(Diagnostic::toString).collect(Collectors.joining("; ")));
        }
        return r;
    }
}
