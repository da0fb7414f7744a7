package dev.gantry.handlers;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.headroom.LiveHeadroom;
import java.util.List;
import java.util.function.Supplier;

/**
 * The deployed Gantry's buffers: the config bundle's CapacityBuffers and PodTemplates, with the cluster's added. The
 * cluster's documents are read after the bundle's, in one load through the same reader as the bundle's YAML, so a
 * cluster buffer may refer to a bundle PodTemplate or NodePool and a cluster object replaces the bundle's copy of the
 * same workload (its live replicas count). A buffer defined in both is the bundle's: the cluster's copy is reported as
 * a duplicate and left out, as is any cluster buffer the reader rejects (each with a warning; the bundle itself was
 * validated when the function started). A failed cluster read propagates (the callers go on without headroom).
 */
final class BufferSource implements LiveHeadroom.Source {
    private static final System.Logger LOG = System.getLogger(BufferSource.class.getName());

    private final String bundleYaml;
    private final LoadResult bundle;
    private final Supplier<List<String>> cluster;

    /**
     * @param bundleYaml the bundle's text, already read into {@code bundle} without errors
     * @param cluster    the cluster's CapacityBuffers and their targets, one JSON document each ({@code KubeBuffers})
     */
    BufferSource(String bundleYaml, LoadResult bundle, Supplier<List<String>> cluster) {
        this.bundleYaml = bundleYaml;
        this.bundle = bundle;
        this.cluster = cluster;
    }

    @Override
    public LiveHeadroom.Buffers read() {
        List<String> docs = cluster.get();
        if (docs.isEmpty()) {
            return new LiveHeadroom.Buffers(bundle.buffers(), bundle.bufferTargets());
        }
        LoadResult all = ConfigLoader.loadString("GANTRY_CONFIG+cluster", bundleYaml + "\n---\n" + String.join("\n---\n", docs),
                LoadOptions.DEFAULT);
        all.errors().forEach(d -> LOG.log(System.Logger.Level.WARNING, "cluster CapacityBuffer left out: " + d));
        return new LiveHeadroom.Buffers(all.buffers(), all.bufferTargets());
    }
}
