package dev.gantry.kube.objects;

import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.JsonScalarResolver;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.JsonSchema;

/**
 * snakeyaml-engine's JSON schema (its default, which Jackson's YAML parser asks what type each plain scalar is), with
 * the same answers given sooner. The library's resolver tries its patterns for the scalar's first character, then
 * matches every scalar against a catch-all pattern for the empty string: one regular-expression match per name, label
 * and image in a dump, a twentieth of reading one. A plain scalar whose first character starts none of the schema's
 * patterns (booleans, numbers, null, {@code ${ENV}}) is a string, and that is answered without a match; any other is
 * left to the library. {@code YamlScalarsTest} holds the answers equal to the library's.
 */
final class YamlScalars extends JsonSchema {
    private final ScalarResolver resolver = new Resolver();

    @Override
    public ScalarResolver getScalarResolver() {
        return resolver;
    }

    /** The JSON schema's resolver, answering "string" at once for a scalar none of its patterns can match. */
    static final class Resolver extends JsonScalarResolver {
        @Override
        public Tag resolve(String value, Boolean implicit) {
            if (implicit && !value.isEmpty() && !yamlImplicitResolvers.containsKey(value.charAt(0))) {
                return Tag.STR; // only the empty-string pattern applies to every first character
            }
            return super.resolve(value, implicit);
        }
    }
}
