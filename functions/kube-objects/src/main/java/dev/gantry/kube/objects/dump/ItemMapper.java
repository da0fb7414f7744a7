package dev.gantry.kube.objects.dump;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decodes one dump item into fabric8's model and maps it with the same mappers the API-server adapter uses. Pure and
 * thread-safe: items are mapped in parallel and collected in order. A kind a cluster view has no use for is counted,
 * never decoded.
 */
final class ItemMapper {
    /** The kinds a cluster view reads. */
    static final Set<String> READ = Set.of("Node", "Pod", "DaemonSet", "PodDisruptionBudget", "Namespace", "NodeClaim", "List");

    private ItemMapper() {
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

    record Ignored(String kind) implements Mapped {
    }

    /** The items of a nested List (rare: kubectl does not nest them). */
    record Many(List<Mapped> items) implements Mapped {
    }

    static Mapped map(DumpItem item) {
        return switch (item) {
            case DumpItem.Tree t -> tree(t);
            case DumpItem.Text t -> text(t);
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
                default -> READ.contains(kind) ? decoded(kind, KubeJson.JSON.treeToValue(o, type(kind))) : new Ignored(kind);
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
     * One item of a kubectl List: dedented, then parsed by snakeyaml-engine (through Jackson's YAML parser, aliases
     * refused) into a tree, and read into fabric8's model as JSON is. A kind no cluster view reads is counted unparsed.
     */
    private static Mapped text(DumpItem.Text raw) {
        String yaml = KubectlItemText.dedent(KubectlItemText.decode(raw.file(), raw.raw(), raw.firstLine()));
        String kind = DumpReader.kindOf(yaml);
        if (!kind.isEmpty() && !READ.contains(kind)) {
            return new Ignored(kind);
        }
        int lineOffset = raw.firstLine() - 1;
        JsonNode tree;
        try {
            tree = KubeJson.YAML.readTree(new NoAliases(KubeJson.YAML.createParser(yaml), raw.file(), lineOffset));
        } catch (JacksonException e) {
            throw new DumpException(DumpReader.where(raw.file(), e.getLocation(), lineOffset) + "not YAML: " + DumpReader.syntax(e), e);
        }
        if (!(tree instanceof ObjectNode o)) {
            throw new DumpException(raw.file() + ":" + raw.firstLine() + ": not a Kubernetes object: expected a mapping with apiVersion and kind");
        }
        return tree(new DumpItem.Tree(raw.file(), o), raw.firstLine());
    }

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
