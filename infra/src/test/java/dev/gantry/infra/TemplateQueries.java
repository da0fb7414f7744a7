package dev.gantry.infra;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.assertions.Template;

/** Reads resources out of a synthesized template as plain maps, for assertions that compare whole values. */
final class TemplateQueries {
    private final Template template;

    TemplateQueries(Template template) {
        this.template = template;
    }

    /** Properties of every resource of this type, keyed by logical id. */
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> properties(String type) {
        Map<String, Map<String, Object>> found = template.findResources(type);
        var out = new java.util.TreeMap<String, Map<String, Object>>();
        found.forEach((id, r) -> out.put(id, (Map<String, Object>) r.getOrDefault("Properties", Map.of())));
        return out;
    }

    /** Whole resources (with DeletionPolicy etc.) of this type. */
    Map<String, Map<String, Object>> resources(String type) {
        return template.findResources(type);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return o instanceof List<?> l ? (List<Object>) l : List.of(o);
    }

    /** The logical id a {@code {"Ref": id}} or {@code {"Fn::GetAtt": [id, ...]}} points at, else null. */
    static String ref(Object o) {
        if (o instanceof Map<?, ?> m) {
            if (m.get("Ref") instanceof String s) {
                return s;
            }
            if (m.get("Fn::GetAtt") instanceof List<?> l) {
                return (String) l.get(0);
            }
        }
        return null;
    }

    /** The JSON text of {@code o}, for "mentions this logical id" checks inside intrinsic functions. */
    static String json(Object o) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
