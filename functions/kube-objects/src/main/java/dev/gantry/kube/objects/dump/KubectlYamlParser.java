package dev.gantry.kube.objects.dump;

import dev.gantry.kube.objects.KubeJson;
import java.math.BigInteger;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A parser for the YAML that {@code kubectl get -o yaml} writes, and only that: block mappings and sequences (a
 * sequence's items at its key's indent or deeper), plain, single- and double-quoted scalars (folded over several lines
 * too), literal and folded block scalars, and the empty flow collections <code>{}</code> and {@code []}. It is several
 * times faster than a general YAML parser on a dump, which is most of what a what-if on a large cluster spends. Anything
 * else (anchors, aliases, tags, non-empty flow collections, complex keys, tabs) is {@link NotKubectl}: the caller then
 * parses the text with snakeyaml-engine, so no YAML is ever read differently, only more slowly. Plain scalars are typed
 * as Jackson's YAML parser types them (null, booleans, integers, floats); number-like text in any other form goes to the
 * general parser too. KubectlYamlParserTest compares the two on every item of a generated dump.
 */
final class KubectlYamlParser {
    private static final JsonNodeFactory NODES = KubeJson.JSON.getNodeFactory();
    /** Integers and floats as kubectl writes them; other number-like text is left to the general parser. */
    private static final Pattern INT = Pattern.compile("-?(0|[1-9][0-9]*)");
    private static final Pattern FLOAT = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
    private static final Pattern NUMBERISH = Pattern.compile(
            "[-+]?(\\.[0-9]|[0-9])[0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9_]+)?|[-+]?\\.(inf|Inf|INF|nan|NaN|NAN)|0[xo][0-9a-fA-F_]+");

    /** The text is YAML this parser does not read; parse it with a general parser instead. */
    static final class NotKubectl extends RuntimeException {
        NotKubectl(String why) {
            super(why, null, false, false);
        }
    }

    private final String[] lines;
    private int pos;

    private KubectlYamlParser(String text) {
        this.lines = text.split("\n", -1);
    }

    /** The document {@code text} holds, which must be a mapping. */
    static ObjectNode parse(String text) {
        KubectlYamlParser p = new KubectlYamlParser(text);
        p.skipBlank();
        if (p.pos >= p.lines.length) {
            throw new NotKubectl("empty");
        }
        int indent = indent(p.lines[p.pos]);
        if (indent != 0 || isSequenceItem(p.lines[p.pos], 0)) {
            throw new NotKubectl("not a mapping at column 0");
        }
        ObjectNode o = p.mapping(0);
        p.skipBlank();
        if (p.pos < p.lines.length) {
            throw new NotKubectl("text after the document at line " + (p.pos + 1));
        }
        return o;
    }

    // ---------------------------------------------------------------- structure

    private ObjectNode mapping(int indent) {
        ObjectNode o = NODES.objectNode();
        while (true) {
            skipBlank();
            if (pos >= lines.length) {
                return o;
            }
            String line = lines[pos];
            int in = indent(line);
            if (in < indent || in == indent && isSequenceItem(line, in)) {
                return o;
            }
            if (in > indent) {
                throw new NotKubectl("unexpected indentation at line " + (pos + 1));
            }
            int[] keyEnd = new int[1];
            String key = key(line, in, keyEnd);
            o.set(key, value(line, keyEnd[0], indent));
        }
    }

    private ArrayNode sequence(int indent) {
        ArrayNode a = NODES.arrayNode();
        while (true) {
            skipBlank();
            if (pos >= lines.length) {
                return a;
            }
            String line = lines[pos];
            int in = indent(line);
            if (in != indent || !isSequenceItem(line, in)) {
                if (in > indent) {
                    throw new NotKubectl("unexpected indentation at line " + (pos + 1));
                }
                return a;
            }
            String rest = line.length() > in + 2 ? line.substring(in + 2) : "";
            if (rest.isBlank()) {
                pos++;
                a.add(nested(indent, true));
            } else if (isSequenceItem(rest, 0) || looksLikeKey(rest)) {
                // "- key: v" or "- - x": the item's content starts on this line, two columns in.
                lines[pos] = " ".repeat(in + 2) + rest;
                a.add(isSequenceItem(rest, 0) ? sequence(in + 2) : mapping(in + 2));
            } else {
                a.add(scalar(rest, in));
            }
        }
    }

    /** The value after {@code key:} at {@code line[from]}; {@code indent} is the key's. */
    private JsonNode value(String line, int from, int indent) {
        String rest = line.substring(from).strip();
        if (rest.isEmpty() || rest.startsWith("#")) {
            pos++;
            return nested(indent, false);
        }
        return scalar(rest, indent);
    }

    /** What follows a key or a dash with nothing after it: a deeper block, a sequence at the key's indent, or null. */
    private JsonNode nested(int indent, boolean inSequence) {
        skipBlank();
        if (pos >= lines.length) {
            return NODES.nullNode();
        }
        String next = lines[pos];
        int in = indent(next);
        if (in > indent) {
            return isSequenceItem(next, in) ? sequence(in) : mapping(in);
        }
        if (!inSequence && in == indent && isSequenceItem(next, in)) {
            return sequence(in);
        }
        return NODES.nullNode();
    }

    // ---------------------------------------------------------------- scalars

    /**
     * A scalar that starts with {@code text} on line {@code pos}; on return {@code pos} is past its last line.
     * Continuation lines of a plain scalar are those indented deeper than {@code indent} (its key's, or its dash's).
     */
    private JsonNode scalar(String text, int indent) {
        char c = text.charAt(0);
        if (c == '"' || c == '\'') {
            return NODES.stringNode(quoted(text, c));
        }
        if (c == '|') {
            return NODES.stringNode(literal(text, indent));
        }
        if (text.equals("{}")) {
            pos++;
            return NODES.objectNode();
        }
        if (text.equals("[]")) {
            pos++;
            return NODES.arrayNode();
        }
        if (c == '>' || c == '{' || c == '[' || c == '&' || c == '*' || c == '!' || c == '%' || c == '@' || c == '`'
                || c == '?' || text.indexOf('\t') >= 0) {
            throw new NotKubectl("folded scalar, flow collection, anchor, alias, tag or tab: " + text);
        }
        return plain(text, indent);
    }

    /** A plain scalar, folded over the lines indented deeper than {@code indent} that follow it. */
    private JsonNode plain(String first, int indent) {
        String s = stripComment(first);
        pos++;
        StringBuilder out = null;
        while (pos < lines.length) {
            int j = pos;
            int blanks = 0;
            while (j < lines.length && lines[j].isBlank()) {
                blanks++;
                j++;
            }
            if (j >= lines.length || indent(lines[j]) <= indent) {
                break;
            }
            String c = lines[j].strip();
            if (c.startsWith("#")) {
                break;
            }
            if (looksLikeKey(c) || isSequenceItem(c, 0)) {
                throw new NotKubectl("a block under a scalar at line " + (j + 1));
            }
            out = out == null ? new StringBuilder(s) : out;
            out.append(blanks == 0 ? " " : "\n".repeat(blanks)).append(stripComment(c));
            pos = j + 1;
        }
        return out == null ? typed(s) : NODES.stringNode(out.toString());
    }

    private static JsonNode typed(String s) {
        switch (s) {
            case "", "null", "Null", "NULL" -> {
                return NODES.nullNode();
            }
            case "true", "True", "TRUE" -> {
                return NODES.booleanNode(true);
            }
            case "false", "False", "FALSE" -> {
                return NODES.booleanNode(false);
            }
            default -> {
                char c = s.charAt(0);
                if (c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9') {
                    if (INT.matcher(s).matches()) {
                        BigInteger i = new BigInteger(s);
                        return i.bitLength() < 32 ? NODES.numberNode(i.intValue())
                                : i.bitLength() < 64 ? NODES.numberNode(i.longValue()) : NODES.numberNode(i);
                    }
                    if (FLOAT.matcher(s).matches()) {
                        return NODES.numberNode(Double.parseDouble(s));
                    }
                    if (NUMBERISH.matcher(s).matches()) {
                        throw new NotKubectl("a number written " + s);
                    }
                }
                return NODES.stringNode(s);
            }
        }
    }

    /**
     * A single- or double-quoted scalar, folded over lines until its closing quote: a line break is a space, each
     * blank line a line feed, leading and trailing blanks of the lines dropped; in double quotes a backslash at the end
     * of a line joins it to the next with nothing between.
     */
    private String quoted(String first, char q) {
        StringBuilder out = new StringBuilder();
        String text = first.substring(1);
        while (true) {
            int i = 0;
            boolean joined = false;
            while (i < text.length()) {
                char ch = text.charAt(i);
                if (ch == q) {
                    if (q == '\'' && i + 1 < text.length() && text.charAt(i + 1) == '\'') {
                        out.append('\'');
                        i += 2;
                        continue;
                    }
                    String after = text.substring(i + 1).strip();
                    if (!after.isEmpty() && !after.startsWith("#")) {
                        throw new NotKubectl("text after a quoted scalar at line " + (pos + 1));
                    }
                    pos++;
                    return out.toString();
                }
                if (q == '"' && ch == '\\') {
                    if (i + 1 == text.length()) {
                        joined = true;
                        break;
                    }
                    i = escape(text, i + 1, out);
                    continue;
                }
                out.append(ch);
                i++;
            }
            if (!joined) {
                trimTrailingSpaces(out);
            }
            pos++;
            int blanks = 0;
            while (pos < lines.length && lines[pos].isBlank()) {
                blanks++;
                pos++;
            }
            if (pos >= lines.length) {
                throw new NotKubectl("unterminated quoted scalar");
            }
            out.append(joined ? "\n".repeat(blanks) : blanks == 0 ? " " : "\n".repeat(blanks));
            text = lines[pos].stripLeading();
        }
    }

    /** A double-quoted escape at {@code s[i]} (after the backslash); returns where the text goes on. */
    private static int escape(String s, int i, StringBuilder out) {
        char e = s.charAt(i);
        switch (e) {
            case '0' -> out.append('\0');
            case 'a' -> out.append('\u0007');
            case 'b' -> out.append('\b');
            case 't', '\t' -> out.append('\t');
            case 'n' -> out.append('\n');
            case 'v' -> out.append('\u000b');
            case 'f' -> out.append('\f');
            case 'r' -> out.append('\r');
            case 'e' -> out.append('\u001b');
            case ' ' -> out.append(' ');
            case '"' -> out.append('"');
            case '/' -> out.append('/');
            case '\\' -> out.append('\\');
            case 'N' -> out.append('\u0085');
            case '_' -> out.append('\u00a0');
            case 'L' -> out.append('\u2028');
            case 'P' -> out.append('\u2029');
            case 'x', 'u', 'U' -> {
                int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                if (i + 1 + n > s.length()) {
                    throw new NotKubectl("short escape");
                }
                try {
                    out.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 1 + n), 16));
                } catch (IllegalArgumentException bad) {
                    throw new NotKubectl("bad escape");
                }
                return i + 1 + n;
            }
            default -> throw new NotKubectl("unknown escape \\" + e);
        }
        return i + 1;
    }

    /**
     * A literal block scalar ({@code |}, {@code |-} keeping no final line break, {@code |+} keeping every one): the lines
     * indented deeper than {@code indent}, less the first one's indentation. Folded blocks and explicit indentation are
     * not kubectl's: {@link NotKubectl}.
     */
    private String literal(String header, int indent) {
        String mods = stripComment(header).substring(1);
        if (!mods.isEmpty() && !mods.equals("-") && !mods.equals("+")) {
            throw new NotKubectl("block scalar header " + header);
        }
        pos++;
        int start = pos;
        int contentIndent = -1;
        int lastContent = -1;
        while (pos < lines.length) {
            String l = lines[pos];
            if (l.isBlank()) {
                if (contentIndent >= 0 && l.length() > contentIndent) {
                    throw new NotKubectl("spaces beyond a block scalar's indent");
                }
                pos++;
                continue;
            }
            int in = indent(l);
            if (contentIndent < 0) {
                if (in <= indent) {
                    break;
                }
                contentIndent = in;
            } else if (in < contentIndent) {
                break;
            }
            lastContent = pos;
            pos++;
        }
        if (contentIndent < 0) {
            pos = start;
            return "";
        }
        int end = mods.equals("+") ? pos : lastContent + 1;
        pos = end;
        StringBuilder out = new StringBuilder();
        for (int i = start; i < end; i++) {
            String l = lines[i];
            out.append(l.length() > contentIndent ? l.substring(contentIndent) : "").append('\n');
        }
        if (mods.equals("-")) {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }

    // ---------------------------------------------------------------- lines

    /** The key of a {@code key: value} line, and where its value begins. */
    private String key(String line, int in, int[] valueStart) {
        char c = line.charAt(in);
        if (c == '"' || c == '\'') {
            int close = line.indexOf(c, in + 1);
            if (close < 0 || c == '"' && line.substring(in + 1, close).indexOf('\\') >= 0
                    || close + 1 >= line.length() || line.charAt(close + 1) != ':') {
                throw new NotKubectl("quoted key at line " + (pos + 1));
            }
            valueStart[0] = close + 2;
            return line.substring(in + 1, close);
        }
        if (c == '-' && (line.length() == in + 1 || line.charAt(in + 1) == ' ') || c == '?' || c == '&' || c == '*' || c == '!'
                || c == '{' || c == '[' || c == '#' || c == '|' || c == '>') {
            throw new NotKubectl("not a key at line " + (pos + 1));
        }
        int colon = keyEnd(line, in);
        if (colon < 0) {
            throw new NotKubectl("no key at line " + (pos + 1));
        }
        valueStart[0] = colon + 1;
        String key = line.substring(in, colon);
        if (key.endsWith(" ") || key.indexOf('\t') >= 0 || key.contains(" #")) {
            throw new NotKubectl("odd key at line " + (pos + 1));
        }
        return key;
    }

    /** Where a plain key's colon is: the first {@code :} followed by a space or the end of the line. */
    private static int keyEnd(String line, int from) {
        int i = line.indexOf(':', from);
        while (i >= 0) {
            if (i + 1 == line.length() || line.charAt(i + 1) == ' ') {
                return i;
            }
            i = line.indexOf(':', i + 1);
        }
        return -1;
    }

    private static boolean looksLikeKey(String s) {
        char c = s.charAt(0);
        if (c == '"' || c == '\'') {
            int close = s.indexOf(c, 1);
            return close > 0 && close + 1 < s.length() && s.charAt(close + 1) == ':'
                    && (close + 2 == s.length() || s.charAt(close + 2) == ' ');
        }
        return c != '#' && c != '|' && c != '>' && keyEnd(s, 0) > 0;
    }

    private static boolean isSequenceItem(String line, int in) {
        return line.length() > in && line.charAt(in) == '-' && (line.length() == in + 1 || line.charAt(in + 1) == ' ');
    }

    private void skipBlank() {
        while (pos < lines.length && (lines[pos].isBlank() || lines[pos].stripLeading().startsWith("#"))) {
            pos++;
        }
    }

    private static int indent(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    private static String stripComment(String s) {
        int hash = s.indexOf(" #");
        return (hash < 0 ? s : s.substring(0, hash)).strip();
    }

    private static void trimTrailingSpaces(StringBuilder b) {
        int n = b.length();
        while (n > 0 && (b.charAt(n - 1) == ' ' || b.charAt(n - 1) == '\t')) {
            n--;
        }
        b.setLength(n);
    }
}
