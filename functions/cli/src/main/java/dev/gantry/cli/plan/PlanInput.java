package dev.gantry.cli.plan;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.validate.ZoneCheck;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** Loads what a what-if's configuration and manifests are, with every problem as one line. */
public final class PlanInput {
    private PlanInput() {
    }

    /**
     * Loads the files for {@code command} (plan, consolidate), printing each warning, and each error or the absence
     * of a NodePool as one line on {@code err}; empty when the command should exit 2.
     */
    public static Optional<LoadResult> load(String command, List<Path> nodePools, List<Path> files, PrintWriter err) {
        return load(command, nodePools, files, null, err);
    }

    /**
     * As {@link #load(String, List, List, PrintWriter)}, and a NodePool zone that does not exist, or is outside
     * {@code region} when one is given, is an error ({@link ZoneCheck}).
     */
    public static Optional<LoadResult> load(String command, List<Path> nodePools, List<Path> files, String region, PrintWriter err) {
        List<Path> all = new ArrayList<>(nodePools);
        all.addAll(files);
        LoadResult loaded = ConfigLoader.load(all, new LoadOptions(false));
        loaded.warnings().forEach(w -> err.println("warning: " + w));
        List<dev.gantry.config.source.Diagnostic> zones = loaded.ok() ? ZoneCheck.check(loaded, region) : List.of();
        if (!loaded.ok() || !zones.isEmpty()) {
            loaded.errors().forEach(err::println);
            zones.forEach(err::println);
            err.flush();
            return Optional.empty();
        }
        if (loaded.nodePools().isEmpty()) {
            err.println("gantry " + command + ": no NodePool (or Provisioner) in " + nodePools);
            return Optional.empty();
        }
        return Optional.of(loaded);
    }

    /** The NodeClass a pool refers to, or an AL2023 default (with a warning) when the input does not have it. */
    static NodeClass nodeClassFor(NodePool pool, List<NodeClass> classes, Consumer<String> warn) {
        NodePool.NodeClassRef ref = pool.template().nodeClassRef();
        for (NodeClass c : classes) {
            if (c.name().equals(ref.name()) && c.kind().equals(ref.kind())) {
                return c;
            }
        }
        warn.accept("warning: NodePool " + pool.name() + ": " + ref.kind() + " " + ref.name()
                + " is not in the input; planning with AL2023 defaults");
        return new NodeClass(ref.name(), ref.group(), ref.kind(), null, List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")),
                List.of(), List.of(), null, null, null, Map.of(), List.of(), null, null, null, null, null);
    }
}
