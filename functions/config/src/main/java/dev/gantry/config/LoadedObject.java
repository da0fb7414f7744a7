package dev.gantry.config;

import dev.gantry.config.source.SourceLocation;
import java.util.Map;

/**
 * One object read from the input, in the order written. Converted and implicit objects (a Provisioner's inline
 * provider becomes an EC2NodeClass) appear as the kind Gantry uses, with {@code convertedFrom} saying what was written.
 *
 * @param kind          {@code NodePool}, {@code EC2NodeClass}, {@code NodeClass}, {@code Deployment}, …
 * @param apiVersion    as written
 * @param convertedFrom {@code apiVersion kind} of an older schema this was converted from, or null
 * @param location      where the document starts
 * @param fields        where each field that was read is written, by field path ({@code spec.weight})
 */
public record LoadedObject(String kind, String name, String apiVersion, String convertedFrom, SourceLocation location,
                           Map<String, SourceLocation> fields) {
    public LoadedObject {
        fields = Map.copyOf(fields == null ? Map.of() : fields);
    }

    /** Where a field is written, or the object's own location when the field was not written. */
    public SourceLocation locationOf(String field) {
        return fields.getOrDefault(field, location);
    }

    /** {@code Kind/name}, as diagnostics name objects. */
    public String label() {
        return kind + "/" + name;
    }
}
