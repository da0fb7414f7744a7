package dev.gantry.config;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.yaml.Report;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads Karpenter configuration and Kubernetes manifests from multi-document YAML files, keeping every field's line
 * and column, and turns them into core values.
 *
 * <p>Recognised: {@code karpenter.sh/v1} NodePool, {@code karpenter.k8s.aws/v1} EC2NodeClass,
 * {@code eks.amazonaws.com/v1} NodeClass; converted with a warning: {@code karpenter.sh/v1beta1} NodePool,
 * {@code karpenter.k8s.aws/v1beta1} EC2NodeClass, {@code karpenter.sh/v1alpha5} Provisioner,
 * {@code karpenter.k8s.aws/v1alpha1} AWSNodeTemplate; and the workload kinds Pod, Deployment, StatefulSet,
 * ReplicaSet, Job, DaemonSet, PodDisruptionBudget and Node; and {@code autoscaling.x-k8s.io/v1beta1} CapacityBuffer with
 * the {@code v1} PodTemplates buffers refer to, and {@code karpenter.sh/v1alpha1} NodeOverlay. A {@code v1 List} (what {@code kubectl get -o yaml}
 * prints) is read item by item, each item's lines still those of the file. Any other kind is an error. The field
 * lists and rules follow Karpenter v1.14's CRDs (see {@code catalog/README.md}).
 *
 * <p>Never throws for bad input: every problem, including unreadable files and text that is not YAML, is a
 * {@link Diagnostic} in the result.
 */
public final class ConfigLoader {
    private ConfigLoader() {
    }

    /**
     * Loads files, and directories recursively ({@code *.yaml} and {@code *.yml}, in name order). Files named directly
     * are read whatever their extension.
     */
    public static LoadResult load(List<Path> filesOrDirs, LoadOptions options) {
        Results results = new Results();
        for (Path p : filesOrDirs) {
            for (Path file : expand(p, results)) {
                loadFile(file, results);
            }
        }
        new CrossChecks(results, options == null ? LoadOptions.DEFAULT : options).run();
        new BufferChecks(results).run();
        return results.toResult();
    }

    /** Loads YAML text as if read from a file at {@code path} (for tests and stdin). */
    public static LoadResult loadString(String path, String yaml, LoadOptions options) {
        Results results = new Results();
        loadText(path, yaml, results);
        new CrossChecks(results, options == null ? LoadOptions.DEFAULT : options).run();
        new BufferChecks(results).run();
        return results.toResult();
    }

    private static List<Path> expand(Path p, Results results) {
        if (Files.isRegularFile(p)) {
            return List.of(p);
        }
        if (!Files.isDirectory(p)) {
            results.errors.add(new Diagnostic(p.toString(), 1, 1, "", "", "no such file or directory"));
            return List.of();
        }
        try (Stream<Path> s = Files.walk(p)) {
            return s.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().endsWith(".yaml") || f.getFileName().toString().endsWith(".yml"))
                    .sorted().toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            results.errors.add(new Diagnostic(p.toString(), 1, 1, "", "", "cannot read directory: " + e.getMessage()));
            return List.of();
        }
    }

    private static void loadFile(Path file, Results results) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (CharacterCodingException e) {
            results.errors.add(new Diagnostic(file.toString(), 1, 1, "", "", "not YAML: the file is not UTF-8 text"));
            return;
        } catch (IOException e) {
            results.errors.add(new Diagnostic(file.toString(), 1, 1, "", "", "cannot read file: " + e.getMessage()));
            return;
        }
        loadText(file.toString(), text, results);
    }

    /**
     * How many YAML aliases ({@code *name}) to collections one document may use. snakeyaml-engine's default is 50, which
     * refused valid configuration; a limit stays, because each alias is read again wherever it is used and a few dozen
     * nested ones can multiply a file a billion times.
     */
    static final int MAX_ALIASES = 1_000;

    private static void loadText(String path, String text, Results results) {
        // No code-point limit below Java's own string limit: a cluster's manifests can be hundreds of MB (the default
        // 3 MiB refused a dump of about 80 nodes).
        LoadSettings settings = LoadSettings.builder().setLabel(path).setSchema(new CoreSchema())
                .setCodePointLimit(Integer.MAX_VALUE).setMaxAliasesForCollections(MAX_ALIASES).build();
        try {
            for (Node root : new Compose(settings).composeAllFromString(text)) {
                Documents.read(root, new Report(path, ""), results);
            }
        } catch (MarkedYamlEngineException e) {
            Mark m = e.getProblemMark().orElse(null);
            String problem = e.getProblem() == null ? "syntax error" : e.getProblem().replaceAll("\\s+", " ").trim();
            results.errors.add(new Diagnostic(path, m == null ? 1 : m.getLine() + 1, m == null ? 1 : m.getColumn() + 1,
                    "", "", "not YAML: " + problem));
        } catch (YamlEngineException e) {
            String msg = e.getMessage() == null ? "syntax error" : e.getMessage().replaceAll("\\s+", " ").trim();
            if (msg.contains("Number of aliases")) {
                msg = "valid YAML, but it uses more than " + String.format("%,d", MAX_ALIASES) + " aliases (*name) to mappings or "
                        + "lists, which Gantry refuses as a guard against alias bombs: write the repeated parts out";
                results.errors.add(new Diagnostic(path, 1, 1, "", "", msg));
                return;
            }
            results.errors.add(new Diagnostic(path, 1, 1, "", "", "not YAML: " + msg));
        }
    }

    /** The mutable accumulation of one load; {@link #toResult()} freezes it. */
    static final class Results {
        final List<dev.gantry.core.model.NodePool> nodePools = new ArrayList<>();
        final List<dev.gantry.core.model.NodeClass> nodeClasses = new ArrayList<>();
        final List<dev.gantry.core.model.Pod> pods = new ArrayList<>();
        final List<dev.gantry.core.model.Node> nodes = new ArrayList<>();
        final List<dev.gantry.core.model.DaemonSet> daemonSets = new ArrayList<>();
        final List<dev.gantry.core.model.PodDisruptionBudget> pdbs = new ArrayList<>();
        final List<dev.gantry.config.buffer.BufferRead> buffers = new ArrayList<>();
        final List<dev.gantry.core.headroom.BufferTargets.Target> bufferTargets = new ArrayList<>();
        final List<dev.gantry.core.catalog.overlay.NodeOverlay> overlays = new ArrayList<>();
        final List<Diagnostic> errors = new ArrayList<>();
        final List<Diagnostic> warnings = new ArrayList<>();
        final List<LoadedObject> objects = new ArrayList<>();
        /** Kubelet settings moved off older NodePools, by NodePool name. */
        final java.util.Map<String, dev.gantry.core.model.NodeClass.Kubelet> movedKubelets = new java.util.LinkedHashMap<>();
        /** Implicit NodeClasses (from a Provisioner's inline provider) by NodePool name. */
        final java.util.Map<String, dev.gantry.core.model.NodeClass> implicitNodeClasses = new java.util.LinkedHashMap<>();

        LoadResult toResult() {
            return new LoadResult(nodePools, nodeClasses, pods, nodes, daemonSets, errors, warnings, objects,
                    buffers.stream().map(dev.gantry.config.buffer.BufferRead::buffer).toList(),
                    dev.gantry.core.headroom.BufferTargets.of(bufferTargets), pdbs, overlays);
        }
    }
}
