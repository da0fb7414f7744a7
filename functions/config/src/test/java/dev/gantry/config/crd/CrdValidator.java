package dev.gantry.config.crd;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the API server does with a write to one of Gantry's CRDs, as far as a test can tell without one: it applies the
 * schema's defaults, checks the name, validates against {@code openAPIV3Schema} (with {@code kubectl}'s default
 * strict field validation, so unknown fields are refused, not pruned) and runs every {@code x-kubernetes-validations}
 * rule where its field is present; transition rules (those naming {@code oldSelf}) only on update.
 *
 * <p>List types are checked ({@code set} items unique, {@code map} items unique by their keys). Not modelled: pruning, the rules' cost budget, the typing of {@code self} (see
 * {@link KubernetesCel}), and old values inside atomic lists (the API server does not correlate them either, so no
 * transition rule inside a list runs on update there).
 */
final class CrdValidator {
    enum Source { API_SERVER, SCHEMA, CEL }

    record Violation(Source source, String path, String message) {
        @Override
        public String toString() {
            return source + " " + path + ": " + message;
        }
    }

    /** One {@code x-kubernetes-validations} rule, at a schema path ({@code []} for list items, {@code *} for map values). */
    record Rule(String path, String message, KubernetesCel.Compiled compiled) {
    }

    private static final Map<String, CrdValidator> CACHE = new java.util.HashMap<>();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> SCHEMA_KEYWORDS = Set.of("type", "enum", "minimum", "maximum", "minLength",
            "maxLength", "minItems", "maxItems", "maxProperties", "pattern", "required");
    private static final String DNS_SUBDOMAIN = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

    private final String apiVersion;
    private final String kind;
    private final String crdName;
    private final Map<String, Object> manifest;
    private final Map<String, Object> openApi;
    private final Schema schema;
    private final List<Rule> rules = new ArrayList<>();
    /** Each rule compiled once, keyed by its (identical) map in the manifest. */
    private final Map<Map<String, Object>, KubernetesCel.Compiled> compiledByRule = new IdentityHashMap<>();

    private CrdValidator(String yaml) {
        this.manifest = Yaml.one(yaml);
        this.crdName = String.valueOf(Yaml.at(manifest, "metadata", "name"));
        this.apiVersion = Yaml.at(manifest, "spec", "group") + "/" + Yaml.at(manifest, "spec", "versions", 0, "name");
        this.kind = String.valueOf(Yaml.at(manifest, "spec", "names", "kind"));
        this.openApi = Yaml.map(Yaml.at(manifest, "spec", "versions", 0, "schema", "openAPIV3Schema"));
        this.schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
                .getSchema(JSON.valueToTree(toJsonSchema(openApi, true)));
        collectRules(openApi, "");
    }

    static synchronized CrdValidator of(KarpenterCrd crd) {
        return of(crd.manifest());
    }

    /** The validator of any CRD manifest (its first version), such as {@link AttachCrds}' CapacityBuffer CRD. */
    static synchronized CrdValidator of(String manifestYaml) {
        return CACHE.computeIfAbsent(manifestYaml, CrdValidator::new);
    }

    Map<String, Object> manifest() {
        return manifest;
    }

    List<Rule> rules() {
        return List.copyOf(rules);
    }

    List<Violation> validateCreate(Map<String, Object> object) {
        return validate(null, object);
    }

    List<Violation> validateUpdate(Map<String, Object> old, Map<String, Object> object) {
        return validate(Defaults.apply(openApi, old), object);
    }

    private List<Violation> validate(Object old, Map<String, Object> object) {
        List<Violation> out = new ArrayList<>();
        if (!apiVersion.equals(object.get("apiVersion")) || !kind.equals(object.get("kind"))) {
            out.add(new Violation(Source.API_SERVER, "", "not served by " + crdName));
            return out;
        }
        Object name = object.get("metadata") instanceof Map<?, ?> m ? m.get("name") : null;
        if (!(name instanceof String s) || !s.matches(DNS_SUBDOMAIN) || s.length() > 253) {
            out.add(new Violation(Source.API_SERVER, "metadata.name", "a lowercase RFC 1123 subdomain is required, got " + name));
        }
        Object defaulted = Defaults.apply(openApi, object);
        for (Error e : schema.validate(JSON.valueToTree(defaulted))) {
            out.add(new Violation(Source.SCHEMA, path(e.getInstanceLocation().toString()), e.getMessage()));
        }
        listTypes(openApi, defaulted, "", out);
        runRules(openApi, defaulted, old, "", out);
        return out;
    }

    private static String path(String instanceLocation) {
        return instanceLocation.startsWith("$.") ? instanceLocation.substring(2) : instanceLocation.replace("$", "");
    }

    /** {@code x-kubernetes-list-type}: a set holds no item twice, a map no two items with the same keys. */
    private static void listTypes(Map<String, Object> node, Object value, String path, List<Violation> out) {
        if (value instanceof List<?> items) {
            Object type = node.get("x-kubernetes-list-type");
            List<Object> keys = Yaml.list(node.get("x-kubernetes-list-map-keys"));
            Set<Object> seen = new HashSet<>();
            for (int i = 0; i < items.size(); i++) {
                Object item = items.get(i);
                Object identity = "set".equals(type) ? item
                        : "map".equals(type) ? keys.stream().map(k -> Yaml.at(item, (String) k)).toList() : null;
                if (identity != null && !seen.add(identity)) {
                    out.add(new Violation(Source.SCHEMA, path + "[" + i + "]", "duplicate value " + identity + " in a list of type " + type));
                }
                if (node.get("items") instanceof Map<?, ?> itemSchema) {
                    listTypes(Yaml.map(itemSchema), items.get(i), path + "[" + i + "]", out);
                }
            }
        } else if (value instanceof Map<?, ?> object) {
            Map<String, Object> props = Yaml.map(node.getOrDefault("properties", Map.of()));
            object.forEach((k, v) -> {
                if (props.get(k) instanceof Map<?, ?> child) {
                    listTypes(Yaml.map(child), v, path.isEmpty() ? (String) k : path + "." + k, out);
                }
            });
        }
    }

    private void runRules(Map<String, Object> node, Object value, Object old, String path, List<Violation> out) {
        if (value == null) {
            return;
        }
        for (Object r : Yaml.list(node.get("x-kubernetes-validations"))) {
            Map<String, Object> rule = Yaml.map(r);
            KubernetesCel.Compiled compiled = compiledRule(rule);
            if (!compiled.ok() || (compiled.isTransition() && old == null)) {
                continue;
            }
            String failure = KubernetesCel.evaluate(compiled, value, old);
            if (failure != null) {
                out.add(new Violation(Source.CEL, path, rule.get("message") + " (" + failure + ")"));
            }
        }
        if (value instanceof Map<?, ?> object) {
            Map<String, Object> props = Yaml.map(node.getOrDefault("properties", Map.of()));
            Object additional = node.get("additionalProperties");
            for (Map.Entry<?, ?> e : object.entrySet()) {
                String key = String.valueOf(e.getKey());
                Object childOld = old instanceof Map<?, ?> o ? o.get(key) : null;
                String childPath = path.isEmpty() ? key : path + "." + key;
                if (props.containsKey(key)) {
                    runRules(Yaml.map(props.get(key)), e.getValue(), childOld, childPath, out);
                } else if (additional instanceof Map<?, ?> a) {
                    runRules(Yaml.map(a), e.getValue(), childOld, childPath, out);
                }
            }
        } else if (value instanceof List<?> items && node.get("items") instanceof Map<?, ?> itemSchema) {
            for (int i = 0; i < items.size(); i++) {
                runRules(Yaml.map(itemSchema), items.get(i), null, path + "[" + i + "]", out);
            }
        }
    }

    private KubernetesCel.Compiled compiledRule(Map<String, Object> rule) {
        return compiledByRule.computeIfAbsent(rule, r -> KubernetesCel.compile((String) r.get("rule")));
    }

    private void collectRules(Map<String, Object> node, String path) {
        for (Object r : Yaml.list(node.get("x-kubernetes-validations"))) {
            Map<String, Object> rule = Yaml.map(r);
            rules.add(new Rule(path, (String) rule.get("message"), compiledRule(rule)));
        }
        Yaml.map(node.getOrDefault("properties", Map.of())).forEach((k, v) -> collectRules(Yaml.map(v), path.isEmpty() ? k : path + "." + k));
        if (node.get("items") instanceof Map<?, ?> items) {
            collectRules(Yaml.map(items), path + "[]");
        }
        if (node.get("additionalProperties") instanceof Map<?, ?> a) {
            collectRules(Yaml.map(a), path + ".*");
        }
    }

    /**
     * The structural schema as JSON Schema draft 4: Kubernetes' extensions and the annotations (descriptions, defaults,
     * the int32/int64 formats) dropped, and unknown fields refused wherever Kubernetes would not preserve them. The
     * root's {@code metadata} stays open: the API server checks ObjectMeta itself.
     */
    private static Map<String, Object> toJsonSchema(Map<String, Object> node, boolean root) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String k : SCHEMA_KEYWORDS) {
            if (node.containsKey(k)) {
                out.put(k, node.get(k));
            }
        }
        if ("date-time".equals(node.get("format"))) {
            out.put("format", "date-time");
        }
        if (node.get("anyOf") instanceof List<?> any) {
            out.put("anyOf", any.stream().map(s -> toJsonSchema(Yaml.map(s), false)).toList());
        }
        if (node.get("items") instanceof Map<?, ?> items) {
            out.put("items", toJsonSchema(Yaml.map(items), false));
        }
        if (node.get("properties") instanceof Map<?, ?> props) {
            Map<String, Object> p = new LinkedHashMap<>();
            props.forEach((k, v) -> p.put((String) k, root && k.equals("metadata") ? Map.of("type", "object") : toJsonSchema(Yaml.map(v), false)));
            out.put("properties", p);
        }
        if (node.get("additionalProperties") instanceof Map<?, ?> a) {
            out.put("additionalProperties", toJsonSchema(Yaml.map(a), false));
        } else if (node.containsKey("properties") && !Boolean.TRUE.equals(node.get("x-kubernetes-preserve-unknown-fields"))) {
            out.put("additionalProperties", false);
        }
        return out;
    }
}
