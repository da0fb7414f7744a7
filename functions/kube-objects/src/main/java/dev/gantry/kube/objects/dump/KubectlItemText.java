package dev.gantry.kube.objects.dump;

import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The text of one item that {@link DumpReader} cut from a kubectl List, made ready for the YAML parser on a mapping
 * worker: decoded as UTF-8, dedented into a document of its own, and without the blocks no mapper reads.
 */
final class KubectlItemText {
    private KubectlItemText() {
    }

    /** UTF-8 text, or the file's one-line error. */
    static String decode(Path file, byte[] bytes, int firstLine) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new DumpException(file + ":" + firstLine + ": not YAML: the file is not UTF-8 text", e);
        }
    }

    /**
     * One item of a kubectl List as a document of its own: the {@code - } and each line's two-space indent taken off,
     * and every {@link #UNREAD} block replaced by blank lines (a top-level key's block under a nested key: its lines
     * indented deeper, or its sequence items, which kubectl writes at the key's own indent), so line numbers still
     * match the file.
     */
    static String dedent(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        String topKey = "";
        boolean skipping = false;
        int i = 0;
        boolean first = true;
        while (i < raw.length()) {
            int nl = raw.indexOf('\n', i);
            int e = nl < 0 ? raw.length() : nl;
            String l = first ? raw.substring(Math.min(e, i + 2), e) : e - i < 2 ? "" : raw.substring(i + 2, e);
            i = nl < 0 ? raw.length() : nl + 1;
            first = false;
            if (!l.isEmpty() && l.charAt(0) != ' ') {
                topKey = keyOf(l);
                skipping = false;
            } else if (skipping) {
                if (l.startsWith("  - ") || l.startsWith("   ") || l.isBlank()) {
                    out.append('\n');
                    continue;
                }
                skipping = false;
            }
            if (l.startsWith("  ") && l.length() > 2 && l.charAt(2) != ' ' && l.endsWith(":")
                    && UNREAD.contains(topKey + "." + l.substring(2, l.length() - 1))) {
                skipping = true;
                out.append('\n');
                continue;
            }
            out.append(l).append('\n');
        }
        return out.toString();
    }

    /**
     * Blocks of an item no mapper reads, left out before the item is parsed (the same fields fabric8's model would
     * decode and the mappers ignore): field-ownership records, a node's list of cached images, containers' statuses, a
     * pod's volumes. They are over half of a pod's text. A mapper that comes to read one of them must take it off here.
     */
    static final java.util.Set<String> UNREAD = java.util.Set.of("metadata.managedFields", "status.images",
            "status.containerStatuses", "status.initContainerStatuses", "status.ephemeralContainerStatuses", "spec.volumes");

    private static String keyOf(String line) {
        int colon = line.indexOf(':');
        return colon < 0 ? "" : line.substring(0, colon);
    }
}
