package dev.gantry.config.crd;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * YAML into the plain values the API server's JSON decoding yields (maps, lists, strings, booleans, {@code Long}
 * integers, {@code Double} numbers), with small typed accessors for tests.
 */
final class Yaml {
    private Yaml() {
    }

    static List<Object> all(String text) {
        List<Object> out = new ArrayList<>();
        for (Object doc : new Load(LoadSettings.builder().setCodePointLimit(16 * 1024 * 1024).build()).loadAllFromString(text)) {
            if (doc != null) {
                out.add(plain(doc));
            }
        }
        return out;
    }

    static Map<String, Object> one(String text) {
        List<Object> docs = all(text);
        if (docs.size() != 1) {
            throw new IllegalArgumentException("expected one YAML document, got " + docs.size());
        }
        return map(docs.getFirst());
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }

    /** The value at a path of map keys and list indexes, or null. */
    static Object at(Object root, Object... path) {
        Object o = root;
        for (Object step : path) {
            if (o instanceof Map<?, ?> m && step instanceof String k) {
                o = m.get(k);
            } else if (o instanceof List<?> l && step instanceof Integer i && i < l.size()) {
                o = l.get(i);
            } else {
                return null;
            }
        }
        return o;
    }

    private static Object plain(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
            return out;
        }
        if (o instanceof List<?> l) {
            return new ArrayList<>(l.stream().map(Yaml::plain).toList());
        }
        if (o instanceof Integer i) {
            return i.longValue();
        }
        if (o instanceof BigInteger b) {
            return b.longValue();
        }
        if (o instanceof Float f) {
            return f.doubleValue();
        }
        return o;
    }
}
