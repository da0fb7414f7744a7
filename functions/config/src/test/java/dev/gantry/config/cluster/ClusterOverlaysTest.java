package dev.gantry.config.cluster;

import static dev.gantry.config.cluster.ClusterConfigReaderTest.T0;
import static dev.gantry.config.cluster.ClusterConfigReaderTest.nodeClass;
import static dev.gantry.config.cluster.ClusterConfigReaderTest.pool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.config.ClusterConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NodeOverlays come from the cluster through the one reader, like NodePools: a changed overlay is a new configuration
 * (so services built over it see the new prices, as Karpenter's overlay controller re-reconciles on every overlay
 * change, kubernetes-sigs/karpenter {@code pkg/controllers/nodeoverlay/controller.go}); an invalid one is left out
 * with its message.
 */
class ClusterOverlaysTest {
    static String overlay(String name, String adjustment) {
        return """
                {"apiVersion":"karpenter.sh/v1alpha1","kind":"NodeOverlay","metadata":{"name":"%s"},
                 "spec":{"requirements":[{"key":"kubernetes.io/arch","operator":"In","values":["arm64"]}],
                 "priceAdjustment":"%s","weight":10}}
                """.formatted(name, adjustment);
    }

    @Test
    void overlaysAreReadWithThePoolsAndAChangeRebuildsTheConfiguration() {
        ClusterConfigReaderTest.Objects objects = new ClusterConfigReaderTest.Objects()
                .put("EC2NodeClass", "default", nodeClass("default")).put("NodePool", "web", pool("web", "default", "100"))
                .put("NodeOverlay", "graviton", overlay("graviton", "-20%"));
        ClusterConfigReader reader = new ClusterConfigReader(objects, "us-east-1", List.of());
        ClusterConfig first = reader.current(T0);
        assertThat(first.config().overlays()).singleElement().satisfies(o -> assertThat(o.price().text()).isEqualTo("-20%"));

        objects.put("NodeOverlay", "graviton", overlay("graviton", "-30%"));
        ClusterConfig second = reader.current(T0.plusSeconds(10));
        assertThat(second.config()).isNotSameAs(first.config());
        assertThat(second.config().overlays().getFirst().price().text()).isEqualTo("-30%");
    }

    @Test
    void anInvalidOverlayIsLeftOutWithItsMessage() {
        ClusterConfigReaderTest.Objects objects = new ClusterConfigReaderTest.Objects()
                .put("EC2NodeClass", "default", nodeClass("default")).put("NodePool", "web", pool("web", "default", "100"))
                .put("NodeOverlay", "bad", overlay("bad", "-150%"));
        ClusterConfig c = new ClusterConfigReader(objects, "us-east-1", List.of()).current(T0);
        assertThat(c.config().overlays()).isEmpty();
        assertThat(c.config().nodePools()).hasSize(1);
        assertThat(c.invalid().get("NodeOverlay/bad")).singleElement().asString().startsWith("spec.priceAdjustment:");
    }
}
