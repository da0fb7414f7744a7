package dev.gantry.kube;

import dev.gantry.kube.objects.UnreadFields;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import tools.jackson.databind.json.JsonMapper;

/**
 * How Gantry's clients turn the API server's JSON into fabric8's model: fabric8's own serialization (the mapper its
 * default constructor builds, configured by it as always), except that the fields no mapper reads ({@link UnreadFields},
 * shared with the dump reader) are skipped while decoding, at the token level, without building them.
 *
 * <p>They are skipped on reads only: an object Gantry builds and sends is written as before. An object read, changed and
 * written back whole (an update) goes without its managedFields, which the API server then keeps as they were:
 * managedFields are reset only by a write that sets them (Kubernetes' "Server-Side Apply", Clearing managedFields);
 * Gantry updates no Node or Pod, so nothing else skipped is written back either.
 */
final class KubeSerialization {
    private KubeSerialization() {
    }

    /** A new serialization for one client (fabric8 registers resource types on it, so clients do not share one). */
    static KubernetesSerialization create() {
        return new KubernetesSerialization(UnreadFields.skippedBy(JsonMapper.builderWithJackson2Defaults())
                .addModule(new Jackson2JdkTypesModule()).build(), true);
    }
}
