package dev.gantry.aws.ec2;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/** Test side: a TOML text as a tree, read by a plain Jackson TOML mapper, to compare documents by meaning. */
final class TomlTrees {
    private static final TomlMapper TOML = new TomlMapper();

    private TomlTrees() {}

    static Map<String, Object> parse(String toml) {
        try {
            return TOML.readValue(toml, new TypeReference<LinkedHashMap<String, Object>>() {});
        } catch (JsonProcessingException e) {
            throw new AssertionError("not valid TOML: " + e.getMessage() + "\n" + toml, e);
        }
    }
}
