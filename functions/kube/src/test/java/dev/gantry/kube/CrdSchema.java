package dev.gantry.kube;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gantry.config.crd.KarpenterCrd;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the fabric8 mock server does not do: checks an object Gantry writes against its CRD's structural schema as
 * JSON Schema draft 4, with unknown fields refused (the real API server prunes them silently, so a field it would
 * drop fails here), and reads the printer columns' JSONPaths as {@code kubectl get} does. CEL rules are checked by
 * config's {@code CrdCelRulesTest} on samples, not here.
 */
final class CrdSchema {
    private static final Set<String> KEYWORDS = Set.of("type", "enum", "minimum", "maximum", "minLength", "maxLength",
            "minItems", "maxItems", "pattern", "required");

    private final Map<String, Object> version;
    private final Schema schema;

    @SuppressWarnings("unchecked")
    CrdSchema(KarpenterCrd crd) {
        Map<String, Object> manifest = Serialization.unmarshal(crd.manifest(), Map.class);
        this.version = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) manifest.get("spec")).get("versions")).getFirst();
        Map<String, Object> openApi = (Map<String, Object>) ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
        this.schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
                .getSchema(Serialization.asJson(jsonSchema(openApi, true)), InputFormat.JSON);
    }

    /** The schema violations of {@code object} (as stored, read back as JSON). */
    List<String> violations(Object object) {
        return schema.validate(Serialization.asJson(object), InputFormat.JSON).stream()
                .map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
    }

    /** Printer column name to its JSONPath. */
    @SuppressWarnings("unchecked")
    Map<String, String> printerColumns() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Object c : (List<Object>) version.get("additionalPrinterColumns")) {
            Map<String, Object> col = (Map<String, Object>) c;
            out.put((String) col.get("name"), (String) col.get("jsonPath"));
        }
        return out;
    }

    /**
     * The value a printer column's JSONPath selects in {@code object}, or null: dotted fields ({@code \.} escapes a
     * dot in a label key) and the {@code [?(@.type=="Ready")]} filter the CRDs use.
     */
    @SuppressWarnings("unchecked")
    static Object select(Map<String, Object> object, String path) {
        Object at = object;
        List<String> parts = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < path.length(); i++) { // skip the leading '.'
            char c = path.charAt(i);
            if (c == '\\' && i + 1 < path.length()) {
                b.append(path.charAt(++i));
            } else if (c == '.' && !b.toString().contains("[?(")) {
                parts.add(b.toString());
                b.setLength(0);
            } else {
                b.append(c);
                if (c == ']') {
                    parts.add(b.toString());
                    b.setLength(0);
                    if (i + 1 < path.length() && path.charAt(i + 1) == '.') {
                        i++;
                    }
                }
            }
        }
        if (!b.isEmpty()) {
            parts.add(b.toString());
        }
        for (String part : parts) {
            int filter = part.indexOf("[?(@.");
            String field = filter < 0 ? part : part.substring(0, filter);
            if (!(at instanceof Map<?, ?> m)) {
                return null;
            }
            at = m.get(field);
            if (filter >= 0) {
                String cond = part.substring(filter + 5, part.length() - 2); // type=="Ready"
                String key = cond.substring(0, cond.indexOf("=="));
                String value = cond.substring(cond.indexOf("==") + 3, cond.length() - 1);
                at = at instanceof List<?> l ? l.stream().filter(x -> x instanceof Map<?, ?> xm && value.equals(xm.get(key)))
                        .findFirst().orElse(null) : null;
            }
        }
        return at;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> jsonSchema(Map<String, Object> node, boolean root) {
        Map<String, Object> out = new LinkedHashMap<>();
        KEYWORDS.stream().filter(node::containsKey).forEach(k -> out.put(k, node.get(k)));
        if ("date-time".equals(node.get("format"))) {
            out.put("format", "date-time");
        }
        if (node.get("anyOf") instanceof List<?> any) {
            out.put("anyOf", any.stream().map(s -> jsonSchema((Map<String, Object>) s, false)).toList());
        }
        if (node.get("items") instanceof Map<?, ?> items) {
            out.put("items", jsonSchema((Map<String, Object>) items, false));
        }
        if (node.get("properties") instanceof Map<?, ?> props) {
            Map<String, Object> p = new LinkedHashMap<>();
            props.forEach((k, v) -> p.put((String) k, root && k.equals("metadata") ? Map.of("type", "object")
                    : jsonSchema((Map<String, Object>) v, false)));
            out.put("properties", p);
        }
        if (node.get("additionalProperties") instanceof Map<?, ?> a) {
            out.put("additionalProperties", jsonSchema((Map<String, Object>) a, false));
        } else if (node.containsKey("properties") && !Boolean.TRUE.equals(node.get("x-kubernetes-preserve-unknown-fields"))) {
            out.put("additionalProperties", false);
        }
        return out;
    }
}
