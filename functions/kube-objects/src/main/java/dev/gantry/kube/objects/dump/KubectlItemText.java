package dev.gantry.kube.objects.dump;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

/**
 * The text of one item of a kubectl List, gathered line by line as {@link DumpReader} cuts it from the file, as bytes:
 * kept as written ({@code - apiVersion: v1} and its lines indented two spaces, a one-item YAML sequence, so the
 * parser's lines and columns are the file's), with every {@link #UNREAD} block blanked out as it goes by, and its
 * {@code kind} noted on the way. The worker that maps the item decodes it once ({@link #chars}) and parses it.
 */
final class KubectlItemText {
    /**
     * Blocks of an item no mapper reads, left out before the item is parsed (the same fields fabric8's model would
     * decode and the mappers ignore): field-ownership records, a node's list of cached images, ephemeral containers'
     * statuses, a pod's volumes. A mapper that comes to read one of them must take it off here: the pod mapper reads
     * its containers' and init containers' statuses (their restarts, what an AMI rollout's canary is judged by).
     */
    static final Set<String> UNREAD = Set.of("metadata.managedFields", "status.images", "status.ephemeralContainerStatuses",
            "spec.volumes");

    private final int firstLine;
    private byte[] b = new byte[4096];
    private int n;
    private String topKey = "";
    private boolean skipping;
    private String kind = "";
    private String name = "";
    private String namespace = "";

    KubectlItemText(int firstLine) {
        this.firstLine = firstLine;
    }

    /**
     * Adds the item's next line (its first is the {@code - } line). A line of an {@link #UNREAD} block (the block's key
     * two spaces under a top-level key, then its lines indented deeper, or its sequence items, which kubectl writes at
     * the key's own indent) becomes an empty line, so later lines keep their numbers.
     */
    void line(ByteLines l) {
        int len = l.len();
        // Column 2 onwards is the item's own text: the "- " of the first line and the indent of the others taken off.
        if (n == 0 || len > 2 && l.at(0) == ' ' && l.at(1) == ' ' && l.at(2) != ' ') {
            topKey = key(l, 2);
            skipping = false;
            if (topKey.equals("kind")) {
                kind = kindValue(new String(l.buf(), l.off() + 2 + 5, len - 7, StandardCharsets.UTF_8));
            }
        } else if (skipping) {
            if (startsAt(l, 2, "  - ") || startsAt(l, 2, "   ") || l.blank()) {
                blank();
                return;
            }
            skipping = false;
        }
        if (topKey.equals("metadata") && len > 10 && startsAt(l, 0, "    ") && l.at(4) != ' ') {
            if (startsAt(l, 4, "name:")) {
                name = nameValue(new String(l.buf(), l.off() + 9, len - 9, StandardCharsets.UTF_8));
            } else if (startsAt(l, 4, "namespace:")) {
                namespace = nameValue(new String(l.buf(), l.off() + 14, len - 14, StandardCharsets.UTF_8));
            }
        }
        if (len > 5 && startsAt(l, 2, "  ") && l.at(4) != ' ' && l.at(len - 1) == ':' && l.at(0) == ' '
                && UNREAD.contains(topKey + "." + new String(l.buf(), l.off() + 4, len - 5, StandardCharsets.UTF_8))) {
            skipping = true;
            blank();
            return;
        }
        ensure(len + 1);
        System.arraycopy(l.buf(), l.off(), b, n, len);
        n += len;
        b[n++] = '\n';
    }

    /** The finished item. */
    DumpItem.Text item(Path file) {
        return new DumpItem.Text(file, Arrays.copyOf(b, n), firstLine, kind, name, namespace);
    }

    /** The value of a {@code kind:} line ({@code rest}: what follows the colon), or "" when not written plainly. */
    static String kindValue(String rest) {
        String v = rest.trim();
        if (v.length() >= 2 && (v.charAt(0) == '"' || v.charAt(0) == '\'') && v.charAt(v.length() - 1) == v.charAt(0)) {
            v = v.substring(1, v.length() - 1);
        }
        if (v.isEmpty() || !letter(v.charAt(0))) {
            return "";
        }
        for (int i = 1; i < v.length(); i++) {
            if (!letter(v.charAt(i)) && !(v.charAt(i) >= '0' && v.charAt(i) <= '9')) {
                return "";
            }
        }
        return v;
    }

    /**
     * The value of a {@code metadata.name:} or {@code namespace:} line, or "" unless written plainly as a name the API
     * server accepts (lower-case letters, digits, '-' and '.', starting with a letter, so YAML cannot read it as a
     * number, a boolean or null), optionally quoted.
     */
    static String nameValue(String rest) {
        String v = rest.trim();
        if (v.length() >= 2 && (v.charAt(0) == '"' || v.charAt(0) == '\'') && v.charAt(v.length() - 1) == v.charAt(0)) {
            v = v.substring(1, v.length() - 1);
        }
        if (v.isEmpty() || v.charAt(0) < 'a' || v.charAt(0) > 'z' || v.equals("null") || v.equals("true") || v.equals("false")
                || v.equals("yes") || v.equals("no") || v.equals("on") || v.equals("off")) {
            return "";
        }
        for (int i = 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.')) {
                return "";
            }
        }
        return v;
    }

    private static boolean letter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /** UTF-8 text, or the file's one-line error. */
    static String decode(Path file, byte[] bytes, int firstLine) {
        return chars(file, bytes, firstLine).toString();
    }

    /** UTF-8 text as characters (not copied into a String: the parser reads them once), or the file's one-line error. */
    static CharBuffer chars(Path file, byte[] bytes, int firstLine) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            throw new DumpException(file + ":" + firstLine + ": not YAML: the file is not UTF-8 text", e);
        }
    }

    /** A line of the file that is not the item's (a comment at column 0): an empty line, so later lines keep their numbers. */
    void skipped() {
        blank();
    }

    private void blank() {
        ensure(1);
        b[n++] = '\n';
    }

    private static String key(ByteLines l, int from) {
        int len = l.len();
        for (int i = from; i < len; i++) {
            if (l.at(i) == ':') {
                return new String(l.buf(), l.off() + from, i - from, StandardCharsets.UTF_8);
            }
        }
        return len <= from ? "" : new String(l.buf(), l.off() + from, len - from, StandardCharsets.UTF_8);
    }

    private static boolean startsAt(ByteLines l, int at, String s) {
        if (l.len() < at + s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (l.at(at + i) != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private void ensure(int more) {
        if (n + more > b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, n + more));
        }
    }
}
