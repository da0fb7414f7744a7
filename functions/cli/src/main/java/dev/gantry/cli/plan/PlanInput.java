package dev.gantry.cli.plan;

import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.validate.ZoneCheck;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** Builds the scheduler's snapshot from loaded manifests: pools with their catalogues, nodes with their pods. */
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
        List<dev.gantry.config.Diagnostic> zones = loaded.ok() ? ZoneCheck.check(loaded, region) : List.of();
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

    public static SchedulingInput from(LoadResult loaded, CatalogSource catalogs, Consumer<String> warn) {
        Map<String, List<Pod>> byNode = new LinkedHashMap<>();
        List<Pod> pending = new ArrayList<>();
        for (Pod p : loaded.pods()) {
            if (p.isBound()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            } else {
                pending.add(p);
            }
        }
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        Map<String, Resources> usage = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (Node n : loaded.nodes()) {
            List<Pod> bound = byNode.getOrDefault(n.name(), List.of());
            if (n.deleting()) {
                // As Karpenter's provisioner does: a node being deleted takes no new pods, and the pods it still runs
                // (DaemonSet pods aside, which go with it) need a place elsewhere.
                for (Pod p : bound) {
                    if (!p.isDaemon() && !p.isMirror() && !p.status().isTerminal()) {
                        pending.add(p.withNodeName(null));
                    }
                }
                bound = bound.stream().filter(p -> p.isDaemon() || p.isMirror()).toList();
            }
            nodes.add(new SchedulingInput.ExistingNode(n, bound));
            String pool = n.labels().get(WellKnownLabels.NODEPOOL);
            if (pool != null) {
                usage.merge(pool, n.allocatable(), Resources::plus);
                count.merge(pool, 1, Integer::sum);
            }
        }
        byNode.keySet().stream().filter(name -> loaded.nodes().stream().noneMatch(n -> n.name().equals(name)))
                .forEach(name -> warn.accept("warning: pods are bound to node " + name + ", which is not in --nodes; they are ignored"));
        List<SchedulingInput.PoolOffer> pools = new ArrayList<>();
        for (NodePool pool : loaded.nodePools()) {
            NodeClass nodeClass = nodeClassFor(pool, loaded.nodeClasses(), warn);
            pools.add(new SchedulingInput.PoolOffer(pool, catalogs.forPool(pool).instanceTypes(nodeClass),
                    usage.getOrDefault(pool.name(), Resources.ZERO), count.getOrDefault(pool.name(), 0)));
        }
        return new SchedulingInput(pending, nodes, List.of(), loaded.daemonSets(), pools, Map.of());
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
