package dev.gantry.kube.objects.dump;

import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A cluster as a dump shows it ({@code kubectl get nodes,pods,pdb -A -o yaml}, or {@code -o json}, in one file or
 * several), read through the same mappers that read the live cluster, so a what-if sees what the handlers see.
 *
 * @param daemonSets      the dump's DaemonSets; a DaemonSet the dump holds only pods of is taken from one of them
 *                        ({@link dev.gantry.kube.objects.DaemonSetMapper#fromPod})
 * @param namespaceLabels the labels of the dump's Namespaces (none when it lists none)
 * @param claims          the NodeClaims Gantry's store would hold for the dump's managed nodes ({@link DumpClaims})
 * @param configObjects   the dump's configuration objects, as the deployed functions list them from the cluster: its
 *                        NodePools, EC2NodeClasses, NodeOverlays and CapacityBuffers, with the PodTemplates,
 *                        Deployments, StatefulSets and ReplicaSets its buffers name; each whole (but for
 *                        {@code managedFields}) as JSON, for the config reader; in dump order
 * @param stats           what was read, for the report and for "nothing found" checks
 * @param images          each managed claim's image as its NodeClaim's {@code status.imageID} says, by claim name (none
 *                        when the dump holds no NodeClaims)
 */
public record ClusterDump(List<Node> nodes, List<Pod> pods, List<DaemonSet> daemonSets, List<PodDisruptionBudget> pdbs,
                          Map<String, Map<String, String>> namespaceLabels, List<NodeClaim> claims,
                          List<ConfigObject> configObjects, Stats stats,
                          Map<String, String> images) {
    public ClusterDump {
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        daemonSets = List.copyOf(daemonSets);
        pdbs = List.copyOf(pdbs);
        namespaceLabels = Map.copyOf(namespaceLabels);
        claims = List.copyOf(claims);
        configObjects = List.copyOf(configObjects);
        images = Map.copyOf(images);
    }

    /**
     * What was read.
     *
     * @param ignored          objects of kinds a cluster view has no use for (Service, Event, a workload no buffer
     *                         names, ...), by kind
     * @param inferredDaemonSets how many DaemonSets were taken from their pods
     * @param nodeClaims       the dump holds Karpenter's NodeClaims (their times were used)
     * @param takenAt          about when the dump was taken: the latest heartbeat of its nodes' conditions, or null
     *                         when it has none (a hand-written dump)
     * @param millis           wall time of the read and the mapping together
     */
    public record Stats(int files, long bytes, long objects, Map<String, Integer> ignored, int inferredDaemonSets,
                        boolean nodeClaims, java.time.Instant takenAt, long millis) {
        public Stats {
            ignored = Map.copyOf(ignored);
        }
    }

    /** Reads every file of {@code paths} (files, or directories of {@code *.yaml}, {@code *.yml}, {@code *.json}). */
    public static ClusterDump read(List<Path> paths, DumpProgress progress) {
        return new DumpCollector(progress).read(paths);
    }
}
