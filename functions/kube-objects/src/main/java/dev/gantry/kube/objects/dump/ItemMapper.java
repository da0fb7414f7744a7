package dev.gantry.kube.objects.dump;

import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.kube.objects.DaemonSetMapper;
import dev.gantry.kube.objects.KubeJson;
import dev.gantry.kube.objects.NodeMapper;
import dev.gantry.kube.objects.PdbMapper;
import dev.gantry.kube.objects.PodMapper;
import dev.gantry.kube.objects.Selectors;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.nio.CharBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decodes one dump item into fabric8's model and maps it with the same mappers the API-server adapter uses. Pure and
 * thread-safe: items are mapped in parallel and collected in order. A kind a cluster view has no use for is counted,
 * never decoded.
 */
final class ItemMapper {
    /** The kinds a cluster view reads. */
    static final Set<String> READ = Set.of("Node", "Pod", "DaemonSet", "PodDisruptionBudget", "Namespace", "NodeClaim", "List");
    /**
     * The configuration kinds, kept whole for the config reader as the deployed functions list them from the cluster
     * ({@code KubeConfigObjects}): NodePools, EC2NodeClasses, NodeOverlays, CapacityBuffers, and the kinds a buffer
     * may refer to (which the collector keeps only when a buffer does).
     */
    static final Set<String> CONFIG = Set.of("NodePool", "EC2NodeClass", "NodeOverlay", "CapacityBuffer", "PodTemplate",
            "Deployment", "StatefulSet", "ReplicaSet");
    /** The kinds kept only when a CapacityBuffer of the dump refers to them. */
    static final Set<String> BUFFER_TARGETS = Set.of("PodTemplate", "Deployment", "StatefulSet", "ReplicaSet");

    private ItemMapper() {
    }

    /** A kind no cluster view or configuration reads: counted, never decoded ("" is not a kind: that is an error). */
    static boolean unread(String kind) {
        return !kind.isEmpty() && !READ.contains(kind) && !CONFIG.contains(kind);
    }

    /** What one item gave. */
    sealed interface Mapped {
    }

    /** A node; {@code readySince}: when it last became Ready (null when not Ready); {@code heartbeat}: its latest. */
    record MappedNode(Node node, Instant readySince, Instant heartbeat) implements Mapped {
    }

    /** A pod; for a DaemonSet's pod, its DaemonSet as the pod shows it; {@code scheduledAt}: when it was bound. */
    record MappedPod(Pod pod, DaemonSet daemonSet, Instant scheduledAt) implements Mapped {
    }

    record MappedDaemonSet(DaemonSet daemonSet) implements Mapped {
    }

    record MappedPdb(PodDisruptionBudget pdb) implements Mapped {
    }

    record MappedNamespace(String name, Map<String, String> labels) implements Mapped {
    }

    record MappedNodeClaim(JsonNode claim) implements Mapped {
    }

    /**
     * A configuration object, whole but for its {@code managedFields}; {@code refersTo}: for a CapacityBuffer, the
     * {@link ConfigObject#key()} of the PodTemplate or workload it names (null otherwise).
     */
    record MappedConfig(ConfigObject object, String refersTo) implements Mapped {
    }

    /**
     * An object of a kind a CapacityBuffer may refer to ({@link #BUFFER_TARGETS}), not parsed: only its name, as the
     * reader noted it ({@code key}: its {@link ConfigObject#key()}), and where it is ({@code item}: a kubectl List
     * item's text, or a JSON object's place in its file). A dump may hold thousands of Deployments and ReplicaSets and
     * buffers name a few, so the collector reads one whole ({@link #whole}) only when a buffer names it.
     */
    record MappedTarget(String kind, String key, DumpItem item) implements Mapped {
    }

    record Ignored(String kind) implements Mapped {
    }

    /** The items of a nested List (rare: kubectl does not nest them). */
    record Many(List<Mapped> items) implements Mapped {
    }

    static Mapped map(DumpItem item) {
        return switch (item) {
            case DumpItem.Tree t -> tree(t);
            case DumpItem.Text t -> text(t);
            case DumpItem.Span t -> new MappedTarget(t.kind(), key(t.kind(), t.namespace(), t.name()), t);
        };
    }

    private static Mapped tree(DumpItem.Tree t) {
        return tree(t, 0);
    }

    /** {@code line}: where the object starts in its file, for messages (0 when unknown). */
    private static Mapped tree(DumpItem.Tree t, int line) {
        ObjectNode o = t.object();
        String at = t.file() + (line > 0 ? ":" + line : "") + ": ";
        String kind = o.path("kind").asString("");
        try {
            return switch (kind) {
                case "NodeClaim" -> new MappedNodeClaim(o);
                case "List" -> {
                    List<Mapped> out = new ArrayList<>();
                    for (JsonNode i : o.path("items")) {
                        if (i instanceof ObjectNode child) {
                            out.add(tree(new DumpItem.Tree(t.file(), child)));
                        }
                    }
                    yield new Many(out);
                }
                case "" -> throw new DumpException(at + label(o) + ": not a Kubernetes object (no kind)");
                default -> CONFIG.contains(kind) ? config(o) : READ.contains(kind) ? decoded(kind, KubeJson.JSON.treeToValue(o, type(kind))) : new Ignored(kind);
            };
        } catch (JacksonException e) {
            throw new DumpException(at + label(o) + ": " + path(e) + brief(e.getOriginalMessage()), e);
        } catch (DumpException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DumpException(at + label(o) + ": " + brief(e.getMessage()), e);
        }
    }

    /**
     * One item of a kubectl List: decoded once, then parsed by snakeyaml-engine (through Jackson's YAML parser, aliases
     * refused) as the one-item sequence it is in the file, so the parser's lines and columns are the file's. An object
     * of a kind fabric8's model has a type for is read into the model straight from the parser, with no tree between
     * them (the tree and its second traversal were a third of the mapping). A NodeClaim, a nested List, a kind not
     * written plainly, and any object that fails to read, go through a tree: it names the object in the error. A kind
     * no cluster view reads is counted unparsed.
     */
    private static Mapped text(DumpItem.Text raw) {
        String kind = raw.kind();
        if (unread(kind)) {
            return new Ignored(kind);
        }
        if (BUFFER_TARGETS.contains(kind) && !raw.name().isEmpty()) {
            return new MappedTarget(kind, key(kind, raw.namespace(), raw.name()), raw); // not parsed
        }
        return parsed(raw, KubectlItemText.chars(raw.file(), raw.raw(), raw.firstLine()), kind);
    }

    /** The object a buffer names, read whole: what {@link #map} gives for any other configuration object. */
    static MappedConfig whole(MappedTarget t) {
        Mapped m = switch (t.item()) {
            case DumpItem.Text raw -> parsed(raw, KubectlItemText.chars(raw.file(), raw.raw(), raw.firstLine()), raw.kind());
            case DumpItem.Span span -> tree(new DumpItem.Tree(span.file(), span(span)));
            case DumpItem.Tree tree -> tree(tree);
        };
        if (m instanceof MappedConfig c) {
            return c;
        }
        throw new DumpException(t.item().file() + ": " + t.key() + ": not a configuration object");
    }

    /** A JSON object read again from where it is in its file. */
    private static ObjectNode span(DumpItem.Span span) {
        byte[] bytes = new byte[span.length()];
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(span.file())) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
            while (buf.hasRemaining() && ch.read(buf, span.offset() + buf.position()) > 0) {
                // read on
            }
        } catch (java.io.IOException e) {
            throw new DumpException(span.file() + ": cannot read file: " + e.getMessage(), e);
        }
        if (KubeJson.JSON.readTree(bytes) instanceof ObjectNode o) {
            return o;
        }
        throw new DumpException(span.file() + ": the object at byte " + span.offset() + " changed while it was read");
    }

    private static String key(String kind, String namespace, String name) {
        return new ConfigObject(kind, namespace, name, null, "").key();
    }

    /** The item parsed: read into fabric8's model when it has one, else through a tree. */
    private static Mapped parsed(DumpItem.Text raw, CharBuffer chars, String kind) {
        if (TYPED.contains(kind)) {
            try {
                Mapped direct = direct(raw, chars, kind);
                if (direct != null) {
                    return direct;
                }
            } catch (RuntimeException e) {
                // read again through a tree below, for the one-line error that names the object and where it is
            }
        }
        JsonNode tree;
        try (JsonParser p = parser(raw, chars)) {
            tree = KubeJson.YAML.readTree(p);
        } catch (JacksonException e) {
            throw new DumpException(DumpReader.where(raw.file(), e.getLocation(), raw.firstLine() - 1) + "not YAML: " + DumpReader.syntax(e), e);
        }
        if (!(tree instanceof ArrayNode items && items.size() == 1 && items.get(0) instanceof ObjectNode o)) {
            throw new DumpException(raw.file() + ":" + raw.firstLine() + ": not a Kubernetes object: expected a mapping with apiVersion and kind");
        }
        return tree(new DumpItem.Tree(raw.file(), o), raw.firstLine());
    }

    /** The item read straight into fabric8's model and mapped; null when it is not the one mapping it should be. */
    private static Mapped direct(DumpItem.Text raw, CharBuffer chars, String kind) {
        try (JsonParser p = parser(raw, chars)) {
            if (p.nextToken() != JsonToken.START_ARRAY || p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Object value = KubeJson.YAML.readValue(p, type(kind));
            if (p.nextToken() != JsonToken.END_ARRAY || p.nextToken() != null) {
                return null;
            }
            return decoded(kind, value);
        }
    }

    /**
     * A parser over the item's text. The text is the file's lines from the item's first on, unindented lines kept: its
     * columns are the file's, and its lines are the file's once offset by the item's first line (as errors say them).
     */
    private static JsonParser parser(DumpItem.Text raw, CharBuffer chars) {
        return new NoAliases(KubeJson.YAML.createParser(chars.array(), chars.arrayOffset() + chars.position(), chars.remaining()),
                raw.file(), raw.firstLine() - 1);
    }

    /** The kinds read straight into fabric8's model ({@link #type}). */
    private static final Set<String> TYPED = Set.of("Node", "Pod", "DaemonSet", "PodDisruptionBudget", "Namespace");

    private static Class<?> type(String kind) {
        return switch (kind) {
            case "Node" -> io.fabric8.kubernetes.api.model.Node.class;
            case "Pod" -> io.fabric8.kubernetes.api.model.Pod.class;
            case "DaemonSet" -> io.fabric8.kubernetes.api.model.apps.DaemonSet.class;
            case "PodDisruptionBudget" -> io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class;
            case "Namespace" -> Namespace.class;
            default -> throw new IllegalArgumentException("no model for kind " + kind);
        };
    }

    private static Mapped decoded(String kind, Object value) {
        return switch (value) {
            case io.fabric8.kubernetes.api.model.Node n -> node(n);
            case io.fabric8.kubernetes.api.model.Pod p -> pod(p);
            case io.fabric8.kubernetes.api.model.apps.DaemonSet d -> new MappedDaemonSet(DaemonSetMapper.daemonSet(d));
            case io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget b -> new MappedPdb(PdbMapper.pdb(b));
            case Namespace ns -> new MappedNamespace(ns.getMetadata().getName(), Selectors.nonNull(ns.getMetadata().getLabels()));
            default -> new Ignored(kind);
        };
    }

    private static Mapped node(io.fabric8.kubernetes.api.model.Node n) {
        Instant readySince = null;
        Instant heartbeat = null;
        if (n.getStatus() != null) {
            for (NodeCondition c : Selectors.nonNull(n.getStatus().getConditions())) {
                if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
                    readySince = PodMapper.instant(c.getLastTransitionTime());
                }
                Instant beat = PodMapper.instant(c.getLastHeartbeatTime());
                if (beat != null && (heartbeat == null || beat.isAfter(heartbeat))) {
                    heartbeat = beat;
                }
            }
        }
        return new MappedNode(NodeMapper.node(n), readySince, heartbeat);
    }

    private static Mapped pod(io.fabric8.kubernetes.api.model.Pod p) {
        Pod pod = PodMapper.pod(p);
        if (pod.isDaemon()) {
            return new MappedPod(pod, DaemonSetMapper.fromPod(p), null);
        }
        Instant scheduled = null;
        if (p.getStatus() != null) {
            for (PodCondition c : Selectors.nonNull(p.getStatus().getConditions())) {
                if ("PodScheduled".equals(c.getType()) && "True".equals(c.getStatus())) {
                    scheduled = PodMapper.instant(c.getLastTransitionTime());
                }
            }
        }
        return new MappedPod(pod, null, scheduled);
    }

    /** A configuration object as {@code KubeConfigObjects} hands one on: its JSON, without {@code managedFields}. */
    private static Mapped config(ObjectNode o) { // the item's own tree, which nothing reads after this: changed in place
        JsonNode meta = o.path("metadata");
        if (meta instanceof ObjectNode m) {
            m.remove("managedFields");
        }
        String kind = o.path("kind").asString("");
        String ns = meta.path("namespace").asString("");
        String name = meta.path("name").asString("");
        if (name.isEmpty()) {
            return new Ignored(kind);
        }
        String refersTo = null;
        JsonNode spec = o.path("spec");
        if (kind.equals("CapacityBuffer")) {
            JsonNode template = spec.path("podTemplateRef").path("name");
            JsonNode scalable = spec.path("scalableRef");
            if (template.isString()) {
                refersTo = new ConfigObject("PodTemplate", ns, template.asString(), null, "").key();
            } else if (scalable.path("kind").isString() && scalable.path("name").isString()) {
                refersTo = new ConfigObject(scalable.path("kind").asString(), ns, scalable.path("name").asString(), null, "").key();
            }
        }
        return new MappedConfig(new ConfigObject(kind, ns, name, meta.path("resourceVersion").asString(""),
                KubeJson.JSON.writeValueAsString(o)), refersTo);
    }

    static String label(ObjectNode o) {
        String kind = o.path("kind").asString("object");
        JsonNode meta = o.path("metadata");
        String ns = meta.path("namespace").asString("");
        String name = meta.path("name").asString("<unnamed>");
        return kind + " " + (ns.isEmpty() ? "" : ns + "/") + name;
    }

    private static String path(JacksonException e) {
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) {
                b.append(b.isEmpty() ? "" : ".").append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.isEmpty() ? "" : b + ": ";
    }

    private static String brief(String m) {
        if (m == null) {
            return "unreadable";
        }
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }
}
