package dev.gantry.config;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.util.List;

/**
 * Everything read from the input. Values come only from objects without errors, so a result that is not
 * {@link #ok()} may be partial; callers that act on it should stop at errors.
 *
 * @param pods     workload pods, one per replica ({@code <workload>-0 … -n-1}), bound ones with {@code nodeName} set
 * @param objects  every object read, in input order, for listing and for pointing later diagnostics at a line
 * @param buffers  CapacityBuffers, in input order
 * @param bufferTargets the PodTemplates and scalable workloads of the input, which buffers may refer to
 * @param pdbs     PodDisruptionBudgets, as the kube-objects mapper reads them (no status: none allowed yet)
 * @param overlays NodeOverlays, in input order
 */
public record LoadResult(List<NodePool> nodePools, List<NodeClass> nodeClasses, List<Pod> pods, List<Node> nodes,
                         List<DaemonSet> daemonSets, List<Diagnostic> errors, List<Diagnostic> warnings,
                         List<LoadedObject> objects, List<CapacityBuffer> buffers, BufferTargets bufferTargets,
                         List<PodDisruptionBudget> pdbs, List<dev.gantry.core.catalog.overlay.NodeOverlay> overlays) {
    /** A result without NodeOverlays. */
    public LoadResult(List<NodePool> nodePools, List<NodeClass> nodeClasses, List<Pod> pods, List<Node> nodes,
                      List<DaemonSet> daemonSets, List<Diagnostic> errors, List<Diagnostic> warnings,
                      List<LoadedObject> objects, List<CapacityBuffer> buffers, BufferTargets bufferTargets,
                      List<PodDisruptionBudget> pdbs) {
        this(nodePools, nodeClasses, pods, nodes, daemonSets, errors, warnings, objects, buffers, bufferTargets, pdbs, List.of());
    }

    /** A result without PodDisruptionBudgets. */
    public LoadResult(List<NodePool> nodePools, List<NodeClass> nodeClasses, List<Pod> pods, List<Node> nodes,
                      List<DaemonSet> daemonSets, List<Diagnostic> errors, List<Diagnostic> warnings,
                      List<LoadedObject> objects, List<CapacityBuffer> buffers, BufferTargets bufferTargets) {
        this(nodePools, nodeClasses, pods, nodes, daemonSets, errors, warnings, objects, buffers, bufferTargets, List.of());
    }

    public LoadResult {
        overlays = List.copyOf(overlays == null ? List.of() : overlays);
        pdbs = List.copyOf(pdbs == null ? List.of() : pdbs);
        nodePools = List.copyOf(nodePools);
        nodeClasses = List.copyOf(nodeClasses);
        pods = List.copyOf(pods);
        nodes = List.copyOf(nodes);
        daemonSets = List.copyOf(daemonSets);
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
        objects = List.copyOf(objects);
        buffers = List.copyOf(buffers == null ? List.of() : buffers);
        bufferTargets = bufferTargets == null ? BufferTargets.NONE : bufferTargets;
    }

    /** No errors (warnings allowed). */
    public boolean ok() {
        return errors.isEmpty();
    }

    /** The loaded object with this kind and name, or null. */
    public LoadedObject object(String kind, String name) {
        for (LoadedObject o : objects) {
            if (o.kind().equals(kind) && o.name().equals(name)) {
                return o;
            }
        }
        return null;
    }
}
