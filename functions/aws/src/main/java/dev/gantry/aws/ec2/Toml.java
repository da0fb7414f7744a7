package dev.gantry.aws.ec2;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The subset of TOML that Bottlerocket user data uses: tables ({@code [settings."a.b"]}), dotted and quoted keys,
 * basic and literal strings, integers, floats, booleans and single- or multi-line arrays of those. Tables read as
 * nested {@code LinkedHashMap}s (insertion order kept) and are written back in the same order. Inline tables,
 * arrays of tables, multi-line strings and dates are rejected with a message, not misread.
 */
final class Toml {
    private final String src;
    private int pos;

    private Toml(String src) {
        this.src = src;
    }

    /** Parses a document. @throws IllegalArgumentException with the offending line for what it cannot read */
    static Map<String, Object> parse(String text) {
        Map<String, Object> root = new LinkedHashMap<>();
        if (text == null) {
            return root;
        }
        Toml p = new Toml(text.replace("\r\n", "\n"));
        Map<String, Object> table = root;
        while (p.skipBlankAndComments()) {
            if (p.peek() == '[') {
                p.pos++;
                if (p.peek() == '[') {
                    throw p.error("arrays of tables are not supported");
                }
                table = descend(root, p.key(), p);
                p.expect(']');
            } else {
                List<String> key = p.key();
                p.expect('=');
                Map<String, Object> parent = descend(table, key.subList(0, key.size() - 1), p);
                parent.put(key.getLast(), p.value());
            }
            p.endOfLine();
        }
        return root;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> descend(Map<String, Object> from, List<String> path, Toml p) {
        Map<String, Object> t = from;
        for (String k : path) {
            Object next = t.computeIfAbsent(k, x -> new LinkedHashMap<String, Object>());
            if (!(next instanceof Map)) {
                throw p.error("key '" + k + "' is both a value and a table");
            }
            t = (Map<String, Object>) next;
        }
        return t;
    }

    /** Writes a document: each table's values under its {@code [header]}, sub-tables after, in order. */
    static String write(Map<String, Object> root) {
        StringBuilder out = new StringBuilder();
        writeTable(out, List.of(), root);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void writeTable(StringBuilder out, List<String> path, Map<String, Object> table) {
        boolean hasValues = table.values().stream().anyMatch(v -> !(v instanceof Map));
        if (!path.isEmpty() && hasValues) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append('[').append(String.join(".", path.stream().map(Toml::key).toList())).append("]\n");
        }
        table.forEach((k, v) -> {
            if (!(v instanceof Map)) {
                out.append(key(k)).append(" = ").append(literal(v)).append('\n');
            }
        });
        table.forEach((k, v) -> {
            if (v instanceof Map<?, ?> m) {
                List<String> sub = new ArrayList<>(path);
                sub.add(k);
                writeTable(out, sub, (Map<String, Object>) m);
            }
        });
    }

    static String key(String k) {
        return k.matches("[A-Za-z0-9_-]+") ? k : quote(k);
    }

    private static String literal(Object v) {
        if (v instanceof String s) {
            return quote(s);
        }
        if (v instanceof List<?> list) {
            return "[" + String.join(", ", list.stream().map(Toml::literal).toList()) + "]";
        }
        return String.valueOf(v);
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    // --- reading ---

    private char peek() {
        return pos < src.length() ? src.charAt(pos) : '\0';
    }

    private void spaces() {
        while (peek() == ' ' || peek() == '\t') {
            pos++;
        }
    }

    /** Skips blank lines and comments; false at the end of the text. */
    private boolean skipBlankAndComments() {
        while (pos < src.length()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\n') {
                pos++;
            } else if (c == '#') {
                while (pos < src.length() && peek() != '\n') {
                    pos++;
                }
            } else {
                return true;
            }
        }
        return false;
    }

    private void endOfLine() {
        spaces();
        if (peek() == '#') {
            while (pos < src.length() && peek() != '\n') {
                pos++;
            }
        }
        if (pos < src.length() && peek() != '\n') {
            throw error("unexpected '" + peek() + "'");
        }
    }

    private void expect(char c) {
        spaces();
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private List<String> key() {
        List<String> parts = new ArrayList<>();
        do {
            spaces();
            char c = peek();
            if (c == '"' || c == '\'') {
                parts.add(string());
            } else {
                int start = pos;
                while (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == '-') {
                    pos++;
                }
                if (start == pos) {
                    throw error("expected a key");
                }
                parts.add(src.substring(start, pos));
            }
            spaces();
        } while (peek() == '.' && ++pos > 0);
        return parts;
    }

    private Object value() {
        spaces();
        char c = peek();
        if (c == '"' || c == '\'') {
            return string();
        }
        if (c == '[') {
            pos++;
            List<Object> items = new ArrayList<>();
            while (true) {
                skipBlankAndComments();
                if (peek() == ']') {
                    pos++;
                    return items;
                }
                items.add(value());
                skipBlankAndComments();
                if (peek() == ',') {
                    pos++;
                } else if (peek() != ']') {
                    throw error("expected ',' or ']' in an array");
                }
            }
        }
        if (c == '{') {
            throw error("inline tables are not supported; write a [table]");
        }
        int start = pos;
        while (pos < src.length() && " \t\n,]#".indexOf(peek()) < 0) {
            pos++;
        }
        String bare = src.substring(start, pos);
        if (bare.equals("true") || bare.equals("false")) {
            return Boolean.valueOf(bare);
        }
        try {
            return bare.matches("[+-]?[0-9_]+") ? (Object) Long.valueOf(bare.replace("_", ""))
                    : (Object) Double.valueOf(bare.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error("'" + bare + "' is not a TOML value this reader supports");
        }
    }

    private String string() {
        char quote = src.charAt(pos++);
        if (peek() == quote && pos + 1 < src.length() && src.charAt(pos + 1) == quote) {
            throw error("multi-line strings are not supported");
        }
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= src.length() || peek() == '\n') {
                throw error("unterminated string");
            }
            char c = src.charAt(pos++);
            if (c == quote) {
                return b.toString();
            }
            if (c == '\\' && quote == '"') {
                char e = src.charAt(pos++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case '"' -> b.append('"');
                    case '\\' -> b.append('\\');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(src.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> throw error("unsupported escape \\" + e);
                }
            } else {
                b.append(c);
            }
        }
    }

    private IllegalArgumentException error(String message) {
        int line = 1 + (int) src.substring(0, Math.min(pos, src.length())).chars().filter(ch -> ch == '\n').count();
        return new IllegalArgumentException("userData TOML line " + line + ": " + message);
    }
}
