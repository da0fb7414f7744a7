package dev.gantry.config;

import dev.gantry.config.buffer.BufferTargetReader;
import dev.gantry.config.buffer.CapacityBufferReader;
import dev.gantry.config.karpenter.AWSNodeTemplateReader;
import dev.gantry.config.karpenter.AutoModeNodeClassReader;
import dev.gantry.config.karpenter.EC2NodeClassReader;
import dev.gantry.config.karpenter.NodePoolRead;
import dev.gantry.config.karpenter.NodePoolReader;
import dev.gantry.config.karpenter.ProvisionerReader;
import dev.gantry.config.workload.WorkloadReader;
import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.Report;
import dev.gantry.config.yaml.Scalars;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/** Reads one document's envelope ({@code apiVersion}, {@code kind}, {@code metadata}) and hands it to its reader. */
final class Documents {
    /** apiVersions Gantry reads, by kind; the first is the current one. */
    private static final Map<String, List<String>> VERSIONS = Map.of(
            "NodePool", List.of("karpenter.sh/v1", "karpenter.sh/v1beta1"),
            "EC2NodeClass", List.of("karpenter.k8s.aws/v1", "karpenter.k8s.aws/v1beta1"),
            "NodeClass", List.of("eks.amazonaws.com/v1"),
            "Provisioner", List.of("karpenter.sh/v1alpha5"),
            "AWSNodeTemplate", List.of("karpenter.k8s.aws/v1alpha1"),
            "CapacityBuffer", List.of(CapacityBufferReader.API_VERSION),
            "PodTemplate", List.of("v1"),
            "NodeOverlay", List.of(dev.gantry.config.karpenter.NodeOverlayReader.API_VERSION));
    private static final java.util.Set<String> META = java.util.Set.of("name", "generateName", "namespace", "selfLink",
            "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
            "labels", "annotations", "ownerReferences", "finalizers", "managedFields");

    /** The name an object without {@code metadata.name} is read under; such an object is reported, never kept. */
    private static final String UNNAMED = "<unnamed>";

    private Documents() {
    }

    static void read(Node root, Report report, ConfigLoader.Results results) {
        if (root instanceof ScalarNode s && s.getTag().equals(Tag.NULL)) {
            return; // an empty document, e.g. after a trailing ---
        }
        if (!(root instanceof MappingNode)) {
            report.error(root, "", "not a Kubernetes object: expected a mapping with apiVersion and kind, got "
                    + Scalars.describe(root));
            results.errors.addAll(report.errors());
            return;
        }
        YamlObject top = YamlObject.of(root, "", report);
        if (isList(top)) {
            // `kubectl get -o yaml` prints a v1 List: each item is a document of its own, its lines still in this file.
            top.allow("apiVersion", "kind", "metadata", "items");
            List<Node> items = top.items("items");
            results.errors.addAll(report.errors());
            for (Node item : items) {
                read(item, new Report(report.path(), ""), results);
            }
            return;
        }
        if (isScenario(top)) {
            // A `gantry simulate` scenario sits beside the manifests in samples/; simulate itself checks its fields.
            String name = top.string("name");
            results.objects.add(new LoadedObject("Scenario", name == null ? "(unnamed)" : name, "gantry simulate", null,
                    report.location(root), Map.of()));
            return;
        }
        Doc doc = envelope(top, report);
        if (doc != null) {
            dispatch(doc, results);
        }
        results.errors.addAll(report.errors());
        results.warnings.addAll(report.warnings());
    }

    /** A {@code v1 List} of objects, as {@code kubectl get -o yaml} prints several. */
    static boolean isList(YamlObject top) {
        return "List".equals(top.string("kind")) && "v1".equals(top.string("apiVersion"));
    }

    /** A simulation scenario: no apiVersion or kind, but a duration and events. */
    static boolean isScenario(YamlObject top) {
        return !top.has("apiVersion") && !top.has("kind") && top.has("duration") && top.has("events");
    }

    private static Doc envelope(YamlObject top, Report report) {
        String kind = top.string("kind");
        String apiVersion = top.string("apiVersion");
        boolean ok = top.require("apiVersion") & top.require("kind");
        if (!ok || kind == null || apiVersion == null) {
            return null;
        }
        List<String> versions = VERSIONS.get(kind);
        String workloadVersion = WorkloadReader.KINDS.get(kind);
        if (versions == null && workloadVersion == null) {
            TreeSet<String> known = new TreeSet<>(VERSIONS.keySet());
            known.addAll(WorkloadReader.KINDS.keySet());
            String near = dev.gantry.config.yaml.Suggest.closest(kind, known);
            top.error("kind", "unknown kind \"" + kind + "\"" + (near != null ? ", did you mean \"" + near + "\"?"
                    : " (Gantry reads " + String.join(", ", known) + ")"));
            return null;
        }
        List<String> allowed = versions != null ? versions : List.of(workloadVersion);
        if (!allowed.contains(apiVersion)) {
            top.error("apiVersion", "apiVersion " + apiVersion + " is not supported for " + kind + " (" + String.join(", ", allowed) + ")");
            return null;
        }
        top.allow("apiVersion", "kind", "metadata", kind.equals("PodTemplate") ? "template" : "spec", "status");
        report.object(kind + "/<unnamed>");
        YamlObject meta = top.object("metadata");
        if (meta == null) {
            // Without metadata there is no name; read the spec anyway so its mistakes are reported too.
            top.require("metadata");
            return new Doc(top, apiVersion, kind, UNNAMED, "default", null, null, report);
        }
        meta.allow(META);
        String name = meta.string("name");
        if (name == null) {
            // Read the rest anyway, so every mistake in the object is reported in one pass; the object is not kept.
            meta.require("name");
        } else {
            report.object(kind + "/" + name);
        }
        String ns = meta.string("namespace");
        return new Doc(top, apiVersion, kind, name == null ? UNNAMED : name, ns == null ? "default" : ns,
                meta.stringMap("labels"), meta.stringMap("annotations"), report);
    }

    private static void dispatch(Doc doc, ConfigLoader.Results results) {
        String convertedFrom = null;
        String kind = doc.kind();
        switch (doc.apiVersion() + " " + kind) {
            case "karpenter.sh/v1 NodePool", "karpenter.sh/v1beta1 NodePool" -> {
                boolean beta = doc.apiVersion().endsWith("v1beta1");
                convertedFrom = beta ? "karpenter.sh/v1beta1 NodePool" : null;
                addPool(NodePoolReader.read(doc, beta), results);
            }
            case "karpenter.sh/v1alpha5 Provisioner" -> {
                convertedFrom = "karpenter.sh/v1alpha5 Provisioner";
                kind = "NodePool";
                ProvisionerReader.Converted c = ProvisionerReader.read(doc);
                if (c != null) {
                    addPool(c.read(), results);
                    if (c.implicitNodeClass() != null) {
                        results.implicitNodeClasses.put(doc.name(), c.implicitNodeClass());
                    }
                }
            }
            case "karpenter.k8s.aws/v1 EC2NodeClass", "karpenter.k8s.aws/v1beta1 EC2NodeClass" -> {
                boolean beta = doc.apiVersion().endsWith("v1beta1");
                convertedFrom = beta ? "karpenter.k8s.aws/v1beta1 EC2NodeClass" : null;
                addClass(EC2NodeClassReader.read(doc, beta), results);
            }
            case "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate" -> {
                convertedFrom = "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate";
                kind = "EC2NodeClass";
                addClass(AWSNodeTemplateReader.read(doc), results);
            }
            case "eks.amazonaws.com/v1 NodeClass" -> addClass(AutoModeNodeClassReader.read(doc), results);
            case CapacityBufferReader.API_VERSION + " CapacityBuffer" -> addIfRead(CapacityBufferReader.read(doc), results.buffers);
            case dev.gantry.config.karpenter.NodeOverlayReader.API_VERSION + " NodeOverlay" ->
                    addIfRead(dev.gantry.config.karpenter.NodeOverlayReader.read(doc), results.overlays);
            case "v1 PodTemplate" -> addIfRead(BufferTargetReader.podTemplate(doc), results.bufferTargets);
            default -> {
                WorkloadReader.Workload w = WorkloadReader.read(doc);
                if (w != null) {
                    results.pods.addAll(w.pods());
                    if (w.daemonSet() != null) {
                        results.daemonSets.add(w.daemonSet());
                    }
                    if (w.node() != null) {
                        results.nodes.add(w.node());
                    }
                    if (w.pdb() != null) {
                        results.pdbs.add(w.pdb());
                    }
                    addIfRead(BufferTargetReader.scalable(doc), results.bufferTargets);
                }
            }
        }
        if (doc.name().equals(UNNAMED)) {
            return;
        }
        results.objects.add(new LoadedObject(kind, doc.name(), doc.apiVersion(), convertedFrom,
                doc.report().location(doc.root().node()), doc.report().fields()));
    }

    private static void addPool(NodePoolRead read, ConfigLoader.Results results) {
        if (read != null) {
            results.nodePools.add(read.pool());
            if (read.movedKubelet() != null) {
                results.movedKubelets.put(read.pool().name(), read.movedKubelet());
            }
        }
    }

    private static <T> void addIfRead(T read, List<T> into) {
        if (read != null) {
            into.add(read);
        }
    }

    private static void addClass(NodeClass nc, ConfigLoader.Results results) {
        if (nc != null) {
            results.nodeClasses.add(nc);
        }
    }
}
