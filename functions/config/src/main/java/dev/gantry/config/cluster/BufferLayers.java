package dev.gantry.config.cluster;

import dev.gantry.config.LoadResult;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.LiveHeadroom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The CapacityBuffers a reader sees when configuration files and a cluster both hold them, the cluster read live
 * ({@code gantry status}) or from a dump (the offline what-ifs): the files' buffers, then the cluster's that the files
 * do not define, so a buffer in both places keeps the files' version; the PodTemplates and workloads they refer to, the
 * cluster's with the files' laid over. The cluster's objects are read as the deployed functions read them
 * ({@link ClusterDocuments}): one that does not read cleanly is left out, its message handed to {@code warn}.
 */
public final class BufferLayers {
    private BufferLayers() {
    }

    /**
     * @param source  what the cluster's objects are called in messages ({@code cluster}, {@code dump})
     * @param cluster the cluster's CapacityBuffers and the objects they refer to, one JSON (or YAML) document each
     */
    public static LiveHeadroom.Buffers over(LoadResult files, String source, List<String> cluster, Consumer<String> warn) {
        if (cluster.isEmpty()) {
            return new LiveHeadroom.Buffers(files.buffers(), files.bufferTargets());
        }
        LoadResult read = ClusterDocuments.read(source, cluster, warn);
        List<CapacityBuffer> all = new ArrayList<>(files.buffers());
        Set<String> keys = new HashSet<>();
        files.buffers().forEach(b -> keys.add(b.key()));
        read.buffers().stream().filter(b -> keys.add(b.key())).forEach(all::add);
        return new LiveHeadroom.Buffers(all, read.bufferTargets().with(files.bufferTargets()));
    }
}
