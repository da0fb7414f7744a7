package dev.gantry.testing.dumps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Writes objects (maps, lists, strings, numbers, booleans) as {@code kubectl get -o yaml} does: keys in alphabetical
 * order, two-space indents, a sequence's items at the same indent as its key, strings quoted only where plain YAML
 * would read them as something else ({@code "58"}, {@code "true"}, timestamps).
 */
final class KubectlYaml {
    private static final Pattern NEEDS_QUOTES = Pattern.compile(
            "^$|^[-?:,\\[\\]{}#&*!|>'\"%@`\\s]|[\\s:]$|: | #|[\\n\\t\\r]|^(?i:true|false|yes|no|on|off|y|n|null|~)$"
                    + "|^[-+]?[0-9][0-9_]*(\\.[0-9]*)?([eE][-+]?[0-9]+)?$|^[-+]?\\.[0-9]+$|^[0-9]{4}-[0-9]{2}-[0-9]{2}|^0x|^0o|^[-+]?\\.(?i:inf|nan)$");

    private final Writer out;

    KubectlYaml(Writer out) {
        this.out = out;
    }

    void document(Map<String, ?> root) {
        map(root, 0);
    }

    private void map(Map<String, ?> m, int indent) {
        for (var e : sorted(m).entrySet()) {
            pad(indent);
            write(key(e.getKey()));
            write(":");
            value(e.getValue(), indent);
        }
    }

    /** The value after {@code key:}, then its line end. */
    private void value(Object v, int indent) {
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                write(" {}\n");
            } else {
                write("\n");
                map(cast(m), indent + 2);
            }
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                write(" []\n");
            } else {
                write("\n");
                list(l, indent);
            }
        } else {
            write(" ");
            write(scalar(v));
            write("\n");
        }
    }

    private void list(List<?> l, int indent) {
        for (Object item : l) {
            pad(indent);
            write("- ");
            if (item instanceof Map<?, ?> m && !m.isEmpty()) {
                boolean first = true;
                for (var e : sorted(cast(m)).entrySet()) {
                    if (!first) {
                        pad(indent + 2);
                    }
                    first = false;
                    write(key(e.getKey()));
                    write(":");
                    value(e.getValue(), indent + 2);
                }
            } else if (item instanceof List<?> inner && !inner.isEmpty()) {
                write("\n");
                list(inner, indent + 2);
            } else {
                write(item instanceof Map<?, ?> ? "{}" : item instanceof List<?> ? "[]" : scalar(item));
                write("\n");
            }
        }
    }

    static String scalar(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        String s = v.toString();
        return NEEDS_QUOTES.matcher(s).find() ? quoted(s) : s;
    }

    private static String key(String k) {
        return NEEDS_QUOTES.matcher(k).find() ? quoted(k) : k;
    }

    private static String quoted(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static Map<String, ?> sorted(Map<String, ?> m) {
        return m instanceof TreeMap ? m : new TreeMap<>(m);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> cast(Map<?, ?> m) {
        return (Map<String, ?>) m;
    }

    private void pad(int n) {
        for (int i = 0; i < n; i++) {
            write(" ");
        }
    }

    private void write(String s) {
        try {
            out.write(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
