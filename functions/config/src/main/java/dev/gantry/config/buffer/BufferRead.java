package dev.gantry.config.buffer;

import dev.gantry.config.source.SourceLocation;
import dev.gantry.core.headroom.CapacityBuffer;
import java.util.Map;

/**
 * A CapacityBuffer as read, with where its fields are written, for the checks that need the whole input (does the
 * PodTemplate exist, is the NodePool defined).
 *
 * @param label    {@code CapacityBuffer/name}, as diagnostics name it
 * @param location where the document starts
 * @param fields   where each field read is written, by field path
 */
public record BufferRead(CapacityBuffer buffer, String label, SourceLocation location, Map<String, SourceLocation> fields) {
    public BufferRead {
        fields = Map.copyOf(fields);
    }

    public SourceLocation locationOf(String field) {
        return fields.getOrDefault(field, location);
    }
}
