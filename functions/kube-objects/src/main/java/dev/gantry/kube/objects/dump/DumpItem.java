package dev.gantry.kube.objects.dump;

import java.nio.file.Path;
import tools.jackson.databind.node.ObjectNode;

/**
 * One object of a dump, not yet decoded: a parsed tree, the YAML text of one item of a kubectl List, or where a JSON
 * object is in its file.
 */
sealed interface DumpItem {
    Path file();

    /** An object already parsed (JSON, or YAML not laid out as kubectl writes it). */
    record Tree(Path file, ObjectNode object) implements DumpItem {
    }

    /**
     * One item of a kubectl-style YAML List as read ({@code - apiVersion: v1} and its indented lines, its unread blocks
     * blanked: {@link KubectlItemText}), not decoded yet: the worker that maps it decodes and parses it.
     *
     * @param firstLine the file line the item starts on (1-based), for error positions
     * @param kind      its {@code kind} as written at the item's top level, or "" when not written plainly
     * @param name      its {@code metadata.name} as written, or "" when not written plainly
     * @param namespace its {@code metadata.namespace} as written, or "" when not written (or not plainly)
     */
    record Text(Path file, byte[] raw, int firstLine, String kind, String name, String namespace) implements DumpItem {
    }

    /**
     * One JSON object of a kind a CapacityBuffer may name, parsed only as far as its metadata: where it is in its file
     * ({@code length} bytes from byte {@code offset}), read again only if a buffer names it.
     */
    record Span(Path file, long offset, int length, String kind, String name, String namespace) implements DumpItem {
    }
}
