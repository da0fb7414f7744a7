package dev.gantry.infra;

import java.nio.file.Path;
import java.util.List;

/**
 * Checks NodePool and NodeClass YAML at synth, so a bad file fails {@code cdk synth} instead of a deployed handler.
 */
@FunctionalInterface
public interface ConfigValidator {
    /**
     * @param files the YAML files, in the order they will be bundled
     * @return one line per error, formatted {@code path:line:column: Kind/name/field: message}; empty when valid.
     *         Warnings are not returned: they must not fail a deploy.
     */
    List<String> errors(List<Path> files);
}
