package dev.gantry.kube.objects.dump;

import java.nio.file.Path;
import tools.jackson.databind.node.ObjectNode;

/** One object of a dump, not yet decoded: a parsed tree, or the YAML text of one item of a kubectl List. */
sealed interface DumpItem {
    Path file();

    /** An object already parsed (JSON, or YAML not laid out as kubectl writes it). */
    record Tree(Path file, ObjectNode object) implements DumpItem {
    }

    /**
     * One item of a kubectl-style YAML List, dedented to a document of its own.
     *
     * @param firstLine the file line the item starts on (1-based), for error positions
     * @param kind      the item's top-level {@code kind}, or "" when the text does not say it plainly
     */
    record Text(Path file, String yaml, int firstLine, String kind) implements DumpItem {
    }
}
