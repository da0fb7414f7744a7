package dev.gantry.kube.objects.dump;

import dev.gantry.kube.objects.KubeJson;
import java.nio.file.Path;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One object of a parsed document (JSON, or YAML not laid out as kubectl writes it) as a {@link DumpItem}, read no
 * further than a mapper needs: the blocks no mapper reads are skipped, an object of a kind nothing reads stops at its
 * kind, and a JSON object a buffer may name stops at its metadata, kept as where it is in its file. The kubectl-List
 * YAML path does the same by lines ({@link KubectlItemText}).
 */
final class ObjectItems {
    private ObjectItems() {
    }

    /**
     * One object, its {@link KubectlItemText#UNREAD} blocks skipped as they are parsed (they are never built). The parser is on the
     * object's {@code START_OBJECT}. kubectl writes {@code kind} before {@code metadata}, {@code spec} and
     * {@code status}: the rest of an object of a kind nothing reads (a Service, an Event, a Job) is skipped, and a JSON
     * object of a kind a buffer may name (a Deployment, a ReplicaSet) is read as far as its metadata
     * ({@link DumpItem.Span}).
     */
    static DumpItem object(Path file, ObjectMapper mapper, JsonParser p) {
        long start = mapper == KubeJson.JSON ? p.currentTokenLocation().getByteOffset() : -1;
        ObjectNode o = mapper.createObjectNode();
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String top = p.currentName();
            if (p.nextToken() != JsonToken.START_OBJECT) {
                o.set(top, mapper.readTree(p));
                String kind = top.equals("kind") ? o.path("kind").asString("") : "";
                if (ItemMapper.unread(kind)) {
                    skipRest(p);
                    return new DumpItem.Tree(file, o);
                }
                if (start >= 0 && ItemMapper.BUFFER_TARGETS.contains(kind)) {
                    return span(file, mapper, p, o, kind, start);
                }
                continue;
            }
            o.set(top, child(mapper, p, top));
        }
        return new DumpItem.Tree(file, o);
    }

    /** The rest of {@code o} read for its metadata alone; where it is when it has a name, else what was read. */
    private static DumpItem span(Path file, ObjectMapper mapper, JsonParser p, ObjectNode o, String kind, long start) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String top = p.currentName();
            if (p.nextToken() == JsonToken.START_OBJECT && top.equals("metadata")) {
                o.set(top, child(mapper, p, top));
            } else {
                p.skipChildren();
            }
        }
        long end = p.currentTokenLocation().getByteOffset() + 1;
        String name = o.path("metadata").path("name").asString("");
        if (name.isEmpty() || end - start > Integer.MAX_VALUE) {
            return new DumpItem.Tree(file, o); // an object without a name is counted, not kept
        }
        return new DumpItem.Span(file, start, (int) (end - start), kind, name, o.path("metadata").path("namespace").asString(""));
    }

    private static void skipRest(JsonParser p) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            p.nextToken();
            p.skipChildren();
        }
    }

    /** A top-level field's mapping, its {@link KubectlItemText#UNREAD} blocks skipped; the parser is on its START_OBJECT. */
    private static ObjectNode child(ObjectMapper mapper, JsonParser p, String top) {
        ObjectNode child = mapper.createObjectNode();
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (KubectlItemText.UNREAD.contains(top + "." + name)) {
                p.skipChildren();
            } else {
                child.set(name, mapper.readTree(p));
            }
        }
        return child;
    }

}
