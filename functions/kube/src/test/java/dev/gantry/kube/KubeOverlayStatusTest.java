package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.crd.AttachCrds;
import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.PriceChange;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.PriceView;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.status.OverlayStatusWriter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NodeOverlay {@code status.conditions} written by the sweep ({@link OverlayStatusWriter} through
 * {@link KubeStatusObjects}) on the mock server in CRUD mode with the NodeOverlay CRD (status subresource) applied.
 * Karpenter v1.14.1: kubernetes-sigs/karpenter {@code pkg/controllers/nodeoverlay/controller.go} sets
 * ValidationSucceeded True, or False with reason {@code RuntimeValidation} (a validation error) or {@code Conflict}
 * (same-weight conflict), and {@code pkg/apis/v1alpha1/nodeoverlay_status.go} makes Ready follow it. The unknown
 * preview type's {@code PreviewTypeNotFound} is Gantry's own.
 */
class KubeOverlayStatusTest {
    private static final Path SEED = Path.of("../../samples/nodepools/seed000-v1.yaml");
    private static final Instant NOW = Instant.parse("2026-09-01T12:00:00Z");

    private MockApi api;
    private GantryConfig config;
    private final Map<String, List<String>> diagnostics = new HashMap<>();
    private OverlayStatusWriter writer;

    @BeforeEach
    void start() throws Exception {
        api = new MockApi();
        try (InputStream crd = AttachCrds.class.getClassLoader().getResourceAsStream(AttachCrds.NODE_OVERLAY_RESOURCE)) {
            api.client.apiextensions().v1().customResourceDefinitions()
                    .resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        for (String name : List.of("discount", "a-same-weight", "b-same-weight", "preview", "refused", "foreign")) {
            GenericKubernetesResource o = new GenericKubernetesResource();
            o.setApiVersion("karpenter.sh/v1alpha1");
            o.setKind("NodeOverlay");
            o.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
            o.setAdditionalProperty("spec", Map.of("requirements", List.of(Map.of("key", WellKnownLabels.INSTANCE_TYPE,
                    "operator", "In", "values", List.of("m5.large"))), "priceAdjustment", "-10%"));
            api.client.genericKubernetesResources(KubeConfigObjects.NODE_OVERLAYS).resource(o).create();
        }
        LoadResult loaded = ConfigLoader.load(List.of(SEED), LoadOptions.DEFAULT);
        List<NodeOverlay> overlays = new ArrayList<>();
        overlays.add(overlay("discount", 10, PriceChange.adjustment("-10%", new String[1]), "m5.large"));
        overlays.add(overlay("a-same-weight", 5, PriceChange.adjustment("-20%", new String[1]), "m5.large"));
        overlays.add(overlay("b-same-weight", 5, PriceChange.adjustment("-30%", new String[1]), "m5.large"));
        overlays.add(overlay("preview", 1, PriceChange.price("0.2", new String[1]), "m10g.xlarge"));
        config = new GantryConfig(loaded.nodePools(), loaded.nodeClasses(), "us-east-1", List.of("us-east-1a"), overlays);
        diagnostics.put("NodeOverlay/refused", List.of("spec.capacity.cpu: only extended resources may be added"));
        var catalog = BuiltInCatalog.load("us-east-1", List.of("us-east-1a"));
        writer = new OverlayStatusWriter(new KubeStatusObjects(KubeClients.forUrl(api.url())), () -> config,
                () -> diagnostics, cfg -> PriceView.resolve(cfg, catalog));
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static NodeOverlay overlay(String name, int weight, PriceChange price, String type) {
        return new NodeOverlay(name, List.of(Requirement.of(WellKnownLabels.INSTANCE_TYPE, Operator.In, type)), price,
                Map.of(), weight);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, Object>> conditions(String name) {
        GenericKubernetesResource o = api.client.genericKubernetesResources(KubeConfigObjects.NODE_OVERLAYS).withName(name).get();
        Map<String, Map<String, Object>> out = new HashMap<>();
        if (o.getAdditionalProperties().get("status") instanceof Map<?, ?> s && s.get("conditions") instanceof List<?> l) {
            l.forEach(c -> out.put((String) ((Map<String, Object>) c).get("type"), (Map<String, Object>) c));
        }
        return out;
    }

    @Test
    void validationSucceededIsTrueOrFalseWithItsReason() {
        OverlayStatusWriter.Report r = writer.sync(NOW);

        assertThat(r.written()).isEqualTo(5);
        assertThat(conditions("discount").get("ValidationSucceeded")).containsEntry("status", "True");
        assertThat(conditions("discount").get("Ready")).containsEntry("status", "True");
        // Ordered by weight then name, reverse (controller.go): b-same-weight applies, a-same-weight conflicts with it.
        assertThat(conditions("b-same-weight").get("ValidationSucceeded")).containsEntry("status", "True");
        assertThat(conditions("a-same-weight").get("ValidationSucceeded")).containsEntry("status", "False")
                .containsEntry("reason", "Conflict");
        assertThat((String) conditions("a-same-weight").get("ValidationSucceeded").get("message")).contains("weight 5");
        assertThat(conditions("a-same-weight").get("Ready")).containsEntry("status", "False");
        assertThat(conditions("preview").get("ValidationSucceeded")).containsEntry("status", "False")
                .containsEntry("reason", "PreviewTypeNotFound");
        assertThat((String) conditions("preview").get("ValidationSucceeded").get("message")).contains("m10g.xlarge");
        assertThat(conditions("refused").get("ValidationSucceeded")).containsEntry("status", "False")
                .containsEntry("reason", "RuntimeValidation")
                .containsEntry("message", "spec.capacity.cpu: only extended resources may be added");
        assertThat(conditions("foreign")).as("not read by Gantry: not written").isEmpty();
    }

    /**
     * Regression (Gantry's own): when EC2 could not be asked about a preview type (a throttle, a 5xx), the overlay's
     * status stays as it is (it said PreviewTypeNotFound before); once EC2 answers that it does not know the type, it
     * says so.
     */
    @Test
    void aPreviewTypeEc2CouldNotBeAskedAboutLeavesTheStatusAsItIs() {
        boolean[] failing = {true};
        var catalog = BuiltInCatalog.load("us-east-1", List.of("us-east-1a"));
        class Flaky implements dev.gantry.core.catalog.InstanceTypeProvider, dev.gantry.core.catalog.overlay.PreviewShapes {
            @Override
            public List<dev.gantry.core.catalog.InstanceType> instanceTypes(dev.gantry.core.model.NodeClass nc) {
                return catalog.instanceTypes(nc);
            }

            @Override
            public java.util.Optional<dev.gantry.core.catalog.InstanceType> shape(String type, dev.gantry.core.model.NodeClass nc) {
                return java.util.Optional.empty();
            }

            @Override
            public boolean unanswered(String type) {
                return failing[0];
            }
        }
        Flaky flaky = new Flaky();
        writer = new OverlayStatusWriter(new KubeStatusObjects(KubeClients.forUrl(api.url())), () -> config,
                () -> diagnostics, cfg -> PriceView.resolve(cfg, flaky));

        writer.sync(NOW);

        assertThat(conditions("preview")).as("not written while EC2 could not be asked").isEmpty();
        assertThat(conditions("discount").get("ValidationSucceeded")).containsEntry("status", "True");
        failing[0] = false;
        writer.sync(NOW.plusSeconds(60));
        assertThat(conditions("preview").get("ValidationSucceeded")).containsEntry("reason", "PreviewTypeNotFound");
    }

    /** At-least-once: a second sweep (or the same one delivered twice) writes nothing; transition times hold. */
    @Test
    void anUnchangedStatusIsNotWrittenAgain() {
        writer.sync(NOW);
        Object since = conditions("a-same-weight").get("ValidationSucceeded").get("lastTransitionTime");

        assertThat(writer.sync(NOW.plusSeconds(60)).written()).isZero();
        assertThat(writer.sync(NOW.plusSeconds(60)).written()).isZero();
        assertThat(conditions("a-same-weight").get("ValidationSucceeded").get("lastTransitionTime")).isEqualTo(since);
    }

    /** A resolved conflict flips the condition to True with a new transition time; the others are not rewritten. */
    @Test
    void aFixedOverlayTurnsTrue() {
        writer.sync(NOW);
        List<NodeOverlay> fixed = new ArrayList<>(config.overlays());
        fixed.removeIf(o -> o.name().equals("a-same-weight"));
        fixed.add(overlay("a-same-weight", 6, PriceChange.adjustment("-20%", new String[1]), "m5.large"));
        config = new GantryConfig(config.nodePools(), config.nodeClasses(), "us-east-1", List.of("us-east-1a"), fixed);

        assertThat(writer.sync(NOW.plusSeconds(60)).written()).isEqualTo(1);
        assertThat(conditions("a-same-weight").get("ValidationSucceeded")).containsEntry("status", "True")
                .containsEntry("lastTransitionTime", "2026-09-01T12:01:00Z");
    }
}
