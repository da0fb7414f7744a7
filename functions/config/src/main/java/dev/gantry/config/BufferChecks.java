package dev.gantry.config;

import dev.gantry.config.source.SourceLocation;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.buffer.BufferAnnotations;
import dev.gantry.config.buffer.BufferRead;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks on CapacityBuffers that need the whole input: one buffer per namespace and name, a {@code podTemplateRef}
 * names a PodTemplate of the input (Gantry reads PodTemplates only from the bundle), a predicted buffer's NodePool
 * exists. A {@code scalableRef} not in the input is fine: the workload is read from the cluster at run time.
 * A buffer with a problem is dropped.
 */
final class BufferChecks {
    private final ConfigLoader.Results r;

    BufferChecks(ConfigLoader.Results results) {
        this.r = results;
    }

    void run() {
        BufferTargets targets = BufferTargets.of(r.bufferTargets);
        Map<String, BufferRead> seen = new HashMap<>();
        r.buffers.removeIf(read -> {
            CapacityBuffer b = read.buffer();
            BufferRead first = seen.putIfAbsent(b.key(), read);
            if (first != null) {
                return error(read, "metadata.name", "duplicate CapacityBuffer \"" + b.key() + "\" (first defined at "
                        + first.location() + ")");
            }
            boolean bad = false;
            if (b.target() instanceof CapacityBuffer.PodTemplateRef ref && targets.resolve(b).isEmpty()) {
                List<String> names = r.bufferTargets.stream().filter(t -> t.kind().equals("PodTemplate")
                        && t.namespace().equals(b.namespace())).map(BufferTargets.Target::name).sorted().toList();
                bad = error(read, "spec.podTemplateRef.name", "PodTemplate \"" + ref.name() + "\" is not in the input"
                        + " (namespace " + b.namespace() + (names.isEmpty() ? " has none" : " has " + String.join(", ", names)) + ")");
            }
            if (b.prediction() != null && r.nodePools.stream().noneMatch(p -> p.name().equals(b.prediction().nodePool()))) {
                bad |= error(read, "metadata.annotations." + BufferAnnotations.NODEPOOL, "NodePool \""
                        + b.prediction().nodePool() + "\" is not in the input");
            }
            return bad;
        });
    }

    private boolean error(BufferRead read, String field, String message) {
        SourceLocation l = read.locationOf(field);
        r.errors.add(new Diagnostic(l.path(), l.line(), l.column(), read.label(), field, message));
        return true;
    }
}
