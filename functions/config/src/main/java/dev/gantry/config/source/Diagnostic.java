package dev.gantry.config.source;

import java.util.Objects;

/**
 * One problem (error or warning) found while loading configuration, pinned to where it was written.
 *
 * @param path    the file as the user named it (or found it in a directory)
 * @param line    1-based line
 * @param column  1-based column
 * @param object  the object it concerns, {@code Kind/name} (e.g. {@code NodePool/default}); empty for a file-level problem
 * @param field   the field path inside the object (e.g. {@code spec.template.spec.requirements[1].operator}); may be empty
 */
public record Diagnostic(String path, int line, int column, String object, String field, String message) {
    public Diagnostic {
        Objects.requireNonNull(path, "path");
        object = object == null ? "" : object;
        field = field == null ? "" : field;
        Objects.requireNonNull(message, "message");
    }

    /**
     * {@code path:line:column: <object>/<field>: <message>}. A problem with the object as a whole drops the
     * {@code /<field>}; a problem with the file as a whole (not YAML, not an object) drops the object
     * too, and one found before the object's kind is known shows only the field.
     */
    @Override
    public String toString() {
        String where = object.isEmpty() ? (field.isEmpty() ? "" : field + ": ")
                : field.isEmpty() ? object + ": " : object + "/" + field + ": ";
        return path + ":" + line + ":" + column + ": " + where + message;
    }
}
