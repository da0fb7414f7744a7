package dev.gantry.config.crd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Structural-schema defaulting as the API server does it before validation: a property's {@code default} fills it in
 * when absent, top down, so a defaulted object is itself defaulted inside. Returns a copy; the input is not changed.
 */
final class Defaults {
    private Defaults() {
    }

    static Object apply(Map<String, Object> schema, Object value) {
        if (value instanceof Map<?, ?> object) {
            Map<String, Object> out = new LinkedHashMap<>();
            object.forEach((k, v) -> out.put(String.valueOf(k), v));
            Map<String, Object> props = Yaml.map(schema.getOrDefault("properties", Map.of()));
            props.forEach((name, s) -> {
                Map<String, Object> child = Yaml.map(s);
                if (!out.containsKey(name) && child.containsKey("default")) {
                    out.put(name, child.get("default"));
                }
            });
            Object additional = schema.get("additionalProperties");
            out.replaceAll((k, v) -> props.containsKey(k) ? apply(Yaml.map(props.get(k)), v)
                    : additional instanceof Map<?, ?> a ? apply(Yaml.map(a), v) : v);
            return out;
        }
        if (value instanceof List<?> items && schema.get("items") instanceof Map<?, ?> itemSchema) {
            List<Object> out = new ArrayList<>();
            items.forEach(i -> out.add(apply(Yaml.map(itemSchema), i)));
            return out;
        }
        return value;
    }
}
