package dev.gantry.config.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CapacityBuffer CRD attach installs where none exists ({@link AttachCrds}): every buffer in samples/ is valid
 * against it, and each broken variant it refuses, Gantry's reader refuses too (the reader is stricter: it also refuses
 * scalable kinds it cannot size and Gantry's malformed annotations, which the CRD cannot know).
 */
class CapacityBufferCrdTest {
    private static final Path SAMPLES = Path.of("../../samples");
    private static final CrdValidator CRD = CrdValidator.of(AttachCrds.all().stream()
            .filter(m -> m.name().equals(AttachCrds.CAPACITY_BUFFER_NAME)).findFirst().orElseThrow().yaml());

    private static List<Map<String, Object>> sampleBuffers() throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SAMPLES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object doc : Yaml.all(Files.readString(f))) {
                    if (doc instanceof Map<?, ?> m && "CapacityBuffer".equals(m.get("kind"))) {
                        out.add(Yaml.map(m));
                    }
                }
            }
        }
        return out;
    }

    private static String buffer(String spec) {
        return """
                apiVersion: autoscaling.x-k8s.io/v1beta1
                kind: CapacityBuffer
                metadata: {name: warm, namespace: default}
                spec: %s
                ---
                apiVersion: v1
                kind: PodTemplate
                metadata: {name: worker, namespace: default}
                template:
                  spec:
                    containers: [{name: c, image: pause, resources: {requests: {cpu: "1"}}}]
                """.formatted(spec);
    }

    @Test
    void theManifestIsGantrysForKarpenters1141Api() {
        Map<String, Object> m = CRD.manifest();
        assertThat(Yaml.at(m, "metadata", "name")).isEqualTo(AttachCrds.CAPACITY_BUFFER_NAME);
        assertThat(Yaml.at(m, "metadata", "annotations")).isEqualTo(Map.of(KarpenterCrd.API_VERSION_ANNOTATION,
                KarpenterCrd.KARPENTER_RELEASE));
        assertThat(Yaml.at(m, "spec", "versions", 0, "name")).isEqualTo("v1beta1");
        assertThat(CRD.rules()).hasSize(2).allSatisfy(r -> assertThat(r.compiled().ok()).as(r.message()).isTrue());
        assertThat(AttachCrds.all()).extracting(AttachCrds.Manifest::name).containsExactly("nodepools.karpenter.sh",
                "nodeclaims.karpenter.sh", "ec2nodeclasses.karpenter.k8s.aws", AttachCrds.CAPACITY_BUFFER_NAME,
                AttachCrds.NODE_OVERLAY_NAME);
    }

    @Test
    void everySampleBufferIsValidAgainstIt() throws IOException {
        List<Map<String, Object>> buffers = sampleBuffers();
        assertThat(buffers).hasSizeGreaterThanOrEqualTo(4);
        for (Map<String, Object> b : buffers) {
            assertThat(CRD.validateCreate(b)).as(String.valueOf(Yaml.at(b, "metadata", "name"))).isEmpty();
        }
    }

    @Test
    void eachVariantTheCrdRefusesTheReaderRefusesToo() {
        Map<String, String> broken = Map.of(
                "both refs", "{podTemplateRef: {name: worker}, scalableRef: {apiGroup: apps, kind: Deployment, name: web}, replicas: 1}",
                "template without replicas or limits", "{podTemplateRef: {name: worker}}",
                "negative replicas", "{podTemplateRef: {name: worker}, replicas: -1}",
                "negative percentage", "{scalableRef: {apiGroup: apps, kind: Deployment, name: web}, percentage: -5}",
                "empty template name", "{podTemplateRef: {name: \"\"}, replicas: 1}",
                "unknown field", "{podTemplateRef: {name: worker}, replicas: 1, replica: 2}");
        broken.forEach((what, spec) -> {
            String yaml = buffer(spec);
            Map<String, Object> object = Yaml.map(Yaml.all(yaml).getFirst());
            assertThat(CRD.validateCreate(object)).as("CRD refuses " + what).isNotEmpty();
            assertThat(ConfigLoader.loadString(what, yaml, LoadOptions.DEFAULT).errors()).as("reader refuses " + what).isNotEmpty();
        });
        String good = buffer("{podTemplateRef: {name: worker}, replicas: 2}");
        assertThat(CRD.validateCreate(Yaml.map(Yaml.all(good).getFirst()))).isEmpty();
        assertThat(ConfigLoader.loadString("good", good, LoadOptions.DEFAULT).errors()).isEmpty();
    }
}
