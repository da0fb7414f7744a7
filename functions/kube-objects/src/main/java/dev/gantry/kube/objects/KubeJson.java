package dev.gantry.kube.objects;

import io.fabric8.kubernetes.model.jackson.GoCompatibilityModule;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import io.fabric8.kubernetes.model.jackson.UnmatchedFieldTypeModule;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The Jackson 3 mappers that turn Kubernetes JSON and YAML into fabric8's model, configured as fabric8's own
 * serialization is (Go-compatible integers, unknown fields kept aside rather than refused), without its client.
 * The fields no mapper reads ({@link UnreadFields}) are skipped: in a cluster dump, {@code managedFields} alone is a
 * large share of every object.
 *
 * <p>YAML is read with the limits raised deliberately: snakeyaml-engine's default refuses a document over 3 MiB
 * (about 80 nodes of {@code kubectl get -o yaml}); here the limit is the largest a Java string can be, 2^31 - 1 code
 * points. Plain scalars are typed by the library's JSON schema, its default, answered sooner ({@link YamlScalars}).
 */
public final class KubeJson {
    /** The most code points one YAML document may have: Java's own string limit. */
    public static final int MAX_CODE_POINTS = Integer.MAX_VALUE;

    public static final ObjectMapper JSON = configure(JsonMapper.builderWithJackson2Defaults()).build();

    public static final ObjectMapper YAML = configure(YAMLMapper.builder(YAMLFactory.builder()
            .loadSettings(LoadSettings.builder().setCodePointLimit(MAX_CODE_POINTS).setSchema(new YamlScalars()).build()).build()))
            .build();

    private KubeJson() {
    }

    private static <M extends ObjectMapper, B extends tools.jackson.databind.cfg.MapperBuilder<M, B>> B configure(B b) {
        return UnreadFields.skippedBy(b).addModule(new Jackson2JdkTypesModule())
                .addModule(new UnmatchedFieldTypeModule())
                .addModule(new GoCompatibilityModule())
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS); // objects are read one at a time from a stream
    }
}
