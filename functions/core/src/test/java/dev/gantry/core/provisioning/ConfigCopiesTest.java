package dev.gantry.core.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.PriceChange;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.disruption.drift.rollout.PausedImages;
import dev.gantry.core.model.NodeClass;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The configuration a handler decides on is often a copy of the cluster's reading: only the NodePools Gantry manages
 * beside another autoscaler ({@link ManagedPools}), or the NodeClasses pinned to a paused rollout's images
 * ({@link PausedImages}). Each copy named four of {@link GantryConfig}'s five fields, and so dropped the NodeOverlays:
 * with either in force, scheduling and consolidation priced every type at list price. A copy keeps every field it does
 * not change.
 */
class ConfigCopiesTest {
    private static final NodeOverlay DISCOUNT = new NodeOverlay("savings-plan", List.of(),
            PriceChange.adjustment("-20%", new String[1]), Map.of(), 10);

    private static NodeClass nodeClass(String name, String alias) {
        return new NodeClass(name, "karpenter.k8s.aws", "EC2NodeClass", null, List.of(NodeClass.AmiSelectorTerm.alias(alias)),
                List.of(), List.of(), null, null, null, Map.of(), List.of(), null, null, null, null, null);
    }

    private static GantryConfig config() {
        return new GantryConfig(List.of(), List.of(nodeClass("default", "al2023@latest")), "us-east-1", List.of("us-east-1a"),
                List.of(DISCOUNT));
    }

    @Test
    void theManagedPoolsKeepTheNodeOverlays() {
        GantryConfig managed = ManagedPools.of(config(), Set.of("general-purpose"));

        assertThat(managed.overlays()).containsExactly(DISCOUNT);
        assertThat(managed.zones()).containsExactly("us-east-1a");
    }

    @Test
    void aPausedRolloutsPinnedConfigurationKeepsTheNodeOverlays() {
        ClusterConfig read = new ClusterConfig(config(), null, Map.of(), "1");
        PausedImages paused = new PausedImages(now -> read, c -> Map.of("default", nodeClass("default", "al2023@v20261101")));

        GantryConfig pinned = paused.current(Instant.EPOCH).config();

        assertThat(pinned.nodeClasses().getFirst().amiSelectorTerms().getFirst().alias()).isEqualTo("al2023@v20261101");
        assertThat(pinned.overlays()).containsExactly(DISCOUNT);
        assertThat(pinned.zones()).containsExactly("us-east-1a");
    }
}
