package dev.gantry.config.workload;

import dev.gantry.kube.objects.KubeJson;
import java.math.BigInteger;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A manifest's YAML, already checked line by line, as fabric8's model, so that the kube-objects mappers read it exactly
 * as they read the API server's objects. Integers, booleans and nulls keep their types; every other scalar keeps its
 * text as written ({@code cpu: 0.25} is the quantity {@code "0.25"}, not a float printed back).
 */
public final class ManifestObjects {
    private static final JsonNodeFactory NODES = KubeJson.JSON.getNodeFactory();

    private ManifestObjects() {
    }

    public static <T> T as(Node yaml, Class<T> type) {
        return KubeJson.JSON.treeToValue(json(yaml), type);
    }

    static JsonNode json(Node n) {
        return switch (n) {
            case MappingNode m -> {
                ObjectNode o = NODES.objectNode();
                for (NodeTuple t : m.getValue()) {
                    String key = t.getKeyNode() instanceof ScalarNode s ? s.getValue() : String.valueOf(t.getKeyNode());
                    o.set(key, json(t.getValueNode()));
                }
                yield o;
            }
            case SequenceNode s -> {
                ArrayNode a = NODES.arrayNode();
                s.getValue().forEach(v -> a.add(json(v)));
                yield a;
            }
            case ScalarNode s -> scalar(s);
            default -> NODES.nullNode();
        };
    }

    private static JsonNode scalar(ScalarNode s) {
        Tag tag = s.getTag();
        String v = s.getValue();
        if (tag.equals(Tag.NULL)) {
            return NODES.nullNode();
        }
        if (tag.equals(Tag.BOOL)) {
            return NODES.booleanNode(Boolean.parseBoolean(v.toLowerCase(java.util.Locale.ROOT)));
        }
        if (tag.equals(Tag.INT)) {
            try {
                BigInteger i = v.startsWith("0x") ? new BigInteger(v.substring(2), 16)
                        : v.startsWith("0o") ? new BigInteger(v.substring(2), 8) : new BigInteger(v.replace("_", ""));
                return i.bitLength() < 32 ? NODES.numberNode(i.intValue()) : i.bitLength() < 64 ? NODES.numberNode(i.longValue())
                        : NODES.numberNode(i);
            } catch (NumberFormatException e) {
                return NODES.stringNode(v);
            }
        }
        return NODES.stringNode(v);
    }
}
