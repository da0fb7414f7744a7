package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.LiveHeadroom;
import java.util.List;
import org.junit.jupiter.api.Test;

class BufferSourceTest {
    private static final String TEMPLATE = """
            apiVersion: v1
            kind: PodTemplate
            metadata: {name: warm-m, namespace: default}
            template:
              spec:
                containers: [{name: pause, image: pause, resources: {requests: {cpu: "2", memory: 8Gi}}}]
            """;
    private static final String BUNDLE = TEMPLATE + """
            ---
            apiVersion: autoscaling.x-k8s.io/v1beta1
            kind: CapacityBuffer
            metadata: {name: warm, namespace: default}
            spec: {podTemplateRef: {name: warm-m}, replicas: 2}
            """;

    private static LoadResult bundle() {
        return ConfigLoader.loadString("bundle", BUNDLE, LoadOptions.DEFAULT);
    }

    @Test
    void withoutClusterBuffersTheBundlesAreUsed() {
        LiveHeadroom.Buffers b = new BufferSource(BUNDLE, bundle(), List::of).read();
        assertThat(b.buffers()).extracting(CapacityBuffer::key).containsExactly("default/warm");
        assertThat(b.targets().resolve(b.buffers().getFirst())).isPresent();
    }

    @Test
    void clusterBuffersAreAddedMayUseTheBundlesTemplatesAndADuplicateOrInvalidOneIsLeftOut() {
        String duplicate = """
                {"apiVersion":"autoscaling.x-k8s.io/v1beta1","kind":"CapacityBuffer",
                 "metadata":{"name":"warm","namespace":"default"},"spec":{"podTemplateRef":{"name":"warm-m"},"replicas":5}}""";
        String added = """
                {"apiVersion":"autoscaling.x-k8s.io/v1beta1","kind":"CapacityBuffer",
                 "metadata":{"name":"web","namespace":"shop"},
                 "spec":{"scalableRef":{"apiGroup":"apps","kind":"Deployment","name":"web"},"percentage":20}}""";
        String deployment = """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},
                 "spec":{"replicas":10,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"web","image":"nginx","resources":{"requests":{"cpu":"500m"}}}]}}}}""";
        String invalid = """
                {"apiVersion":"autoscaling.x-k8s.io/v1beta1","kind":"CapacityBuffer",
                 "metadata":{"name":"both","namespace":"shop"},
                 "spec":{"podTemplateRef":{"name":"x"},"scalableRef":{"kind":"Deployment","name":"web"},"replicas":1}}""";

        LiveHeadroom.Buffers b = new BufferSource(BUNDLE, bundle(), () -> List.of(duplicate, added, deployment, invalid)).read();

        assertThat(b.buffers()).extracting(CapacityBuffer::key).containsExactly("default/warm", "shop/web");
        assertThat(b.buffers().getFirst().replicas()).as("the bundle's definition wins").isEqualTo(2);
        assertThat(b.targets().resolve(b.buffers().get(1))).hasValueSatisfying(t -> assertThat(t.replicas()).isEqualTo(10));
    }
}
