package dev.gantry.config.cluster;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.core.config.ConfigObject;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A cluster's configuration objects as a command reads them, from the API server ({@code gantry status}) or from a dump
 * (the offline what-ifs): through the reader {@code gantry validate} uses, in one load, so a NodePool finds its
 * EC2NodeClass and a buffer its PodTemplate as in a file. An object the reader refuses is left out with one warning
 * ({@code source Kind/name left out: field: message}, without the meaningless line of a JSON document), as the
 * deployed functions leave it out ({@link ClusterConfigReader}); the rest is used.
 */
public final class ClusterDocuments {
    /** The kinds that are the pools' configuration: what a plan launches with. */
    private static final Set<String> POOL_KINDS = Set.of("NodePool", "EC2NodeClass", "NodeOverlay");
    /** The kinds a CapacityBuffer may refer to, listed beside the buffers. */
    private static final Set<String> BUFFER_TARGETS = Set.of("PodTemplate", "Deployment", "StatefulSet", "ReplicaSet");

    private ClusterDocuments() {
    }

    /**
     * The NodePools, EC2NodeClasses and NodeOverlays of {@code objects} (the configuration objects as the deployed
     * functions list them, from the API server or a dump), one JSON document each, for {@link #read}.
     */
    public static List<String> pools(List<ConfigObject> objects) {
        return objects.stream().filter(o -> POOL_KINDS.contains(o.kind())).map(ConfigObject::json).toList();
    }

    /** The CapacityBuffers of {@code objects} and the objects they refer to, one JSON document each, for {@link BufferLayers}. */
    public static List<String> buffers(List<ConfigObject> objects) {
        return objects.stream().filter(o -> o.kind().equals("CapacityBuffer") || BUFFER_TARGETS.contains(o.kind()))
                .map(ConfigObject::json).toList();
    }

    /**
     * @param source what the objects are called in warnings ({@code cluster}, {@code dump})
     * @param docs   one JSON (or YAML) document per object
     */
    public static LoadResult read(String source, List<String> docs, Consumer<String> warn) {
        LoadResult r = ConfigLoader.loadString(source, String.join("\n---\n", docs), LoadOptions.DEFAULT);
        r.errors().forEach(d -> warn.accept(leftOut(source, d)));
        return r;
    }

    static String leftOut(String source, Diagnostic d) {
        return source + " " + (d.object().isEmpty() ? "object" : d.object()) + " left out: "
                + (d.field().isEmpty() ? d.message() : d.field() + ": " + d.message());
    }
}
