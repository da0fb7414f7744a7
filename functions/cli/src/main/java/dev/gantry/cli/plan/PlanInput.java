package dev.gantry.cli.plan;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.cluster.ClusterDocuments;
import dev.gantry.config.validate.ZoneCheck;
import dev.gantry.kube.objects.dump.ClusterDump;
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
        return load(command, nodePools, files, null, null, err);
    }

    /**
     * As {@link #load(String, List, List, PrintWriter)}, and a NodePool zone that does not exist, or is outside
     * {@code region} when one is given, is an error ({@link ZoneCheck}).
     */
    public static Optional<LoadResult> load(String command, List<Path> nodePools, List<Path> files, String region, PrintWriter err) {
        return load(command, nodePools, files, region, null, err);
    }

    /**
     * As {@link #load(String, List, List, String, PrintWriter)}, with the configuration a Karpenter user keeps in the
     * cluster: when {@code nodePools} names no file, the NodePools, EC2NodeClasses and NodeOverlays of {@code dump}
     * (null: none) are the configuration, read as the deployed functions read the cluster's and as {@code gantry status}
     * does ({@link ClusterDocuments}: an object the reader refuses is left out with a warning). Files, when named,
     * replace the dump's, which a line on {@code err} says.
     */
    public static Optional<LoadResult> load(String command, List<Path> nodePools, List<Path> files, String region,
                                            ClusterDump dump, PrintWriter err) {
        List<Path> all = new ArrayList<>(nodePools);
        all.addAll(files);
        LoadResult loaded = all.isEmpty() ? EMPTY : ConfigLoader.load(all, new LoadOptions(false));
        loaded.warnings().forEach(w -> err.println("warning: " + w));
        List<dev.gantry.config.source.Diagnostic> zones = loaded.ok() ? ZoneCheck.check(loaded, region) : List.of();
        if (!loaded.ok() || !zones.isEmpty()) {
            loaded.errors().forEach(err::println);
            zones.forEach(err::println);
            err.flush();
            return Optional.empty();
        }
        List<String> dumped = dump == null ? List.of() : ClusterDocuments.pools(dump.configObjects());
        long dumpedPools = dump == null ? 0 : dump.configObjects().stream().filter(o -> o.kind().equals("NodePool")).count();
        if (!nodePools.isEmpty() && dumpedPools > 0) {
            err.println("gantry " + command + ": --nodepools names the configuration; the dump's " + dumpedPools
                    + (dumpedPools == 1 ? " NodePool is" : " NodePools are") + " not used");
        } else if (nodePools.isEmpty() && !dumped.isEmpty()) {
            LoadResult pools = ClusterDocuments.read("dump", dumped, w -> err.println("warning: " + w));
            ZoneCheck.check(pools, region).forEach(d -> err.println("warning: dump: " + d.object() + ": " + d.field() + ": "
                    + d.message()));
            loaded = new LoadResult(pools.nodePools(), pools.nodeClasses(), loaded.pods(), loaded.nodes(), loaded.daemonSets(),
                    loaded.errors(), loaded.warnings(), loaded.objects(), loaded.buffers(), loaded.bufferTargets(), loaded.pdbs(),
                    pools.overlays());
            err.println("gantry " + command + ": the configuration is the dump's: " + count(pools.nodePools().size(), "NodePool")
                    + ", " + count(pools.nodeClasses().size(), "EC2NodeClass") + (pools.overlays().isEmpty() ? ""
                    : ", " + count(pools.overlays().size(), "NodeOverlay")));
        }
        if (loaded.nodePools().isEmpty()) {
            err.println(nodePools.isEmpty()
                    ? "gantry " + command + ": no NodePool: name the configuration (--nodepools FILE|DIR), or dump the "
                            + "cluster's with the rest (kubectl get nodes,pods,pdb,nodepools,ec2nodeclasses -A -o yaml)"
                    : "gantry " + command + ": no NodePool (or Provisioner) in " + nodePools);
            return Optional.empty();
        }
        return Optional.of(loaded);
    }

    private static final LoadResult EMPTY = new LoadResult(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of(), List.of(), List.of(), null);

    private static String count(int n, String kind) {
        return n + " " + kind + (n == 1 ? "" : kind.endsWith("s") ? "es" : "s");
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
