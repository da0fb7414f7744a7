package dev.gantry.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Beside another autoscaler, only the NodePools named at deploy are Gantry's. */
class NamedPoolsTest {
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    private static NodePool pool(String name) {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
        return new NodePool(name, Map.of(), t, null, Map.of(), null, null);
    }

    private static ClusterConfig read(String version, String... pools) {
        GantryConfig config = new GantryConfig(java.util.Arrays.stream(pools).map(NamedPoolsTest::pool).toList(), List.of(),
                "us-east-1", List.of());
        return new ClusterConfig(config, null, Map.of("NodePool/auto", List.of("bad"), "NodePool/batch", List.of("bad too"),
                "EC2NodeClass/gpu", List.of("no AMI")), version);
    }

    @Test
    void theOtherPoolsAndTheirMessagesAreLeftOut() {
        ConfigSource named = NamedPools.of(now -> read("1", "batch", "general", "system"), Set.of("batch", "system"));

        ClusterConfig c = named.current(NOW);

        assertThat(c.config().nodePools()).extracting(NodePool::name).containsExactly("batch", "system");
        assertThat(c.invalid()).containsOnlyKeys("NodePool/batch", "EC2NodeClass/gpu");
    }

    @Test
    void theSameReadingGivesTheSameInstances() {
        AtomicReference<ClusterConfig> cluster = new AtomicReference<>(read("1", "batch", "general"));
        ConfigSource named = NamedPools.of(now -> cluster.get(), Set.of("batch"));
        ClusterConfig first = named.current(NOW);

        assertThat(named.current(NOW)).isSameAs(first);
        // A buffer changed: a new reading, but the same pools and classes, so the same GantryConfig instance.
        ClusterConfig before = cluster.get();
        cluster.set(new ClusterConfig(before.config(), null, before.invalid(), "2"));
        ClusterConfig second = named.current(NOW);
        assertThat(second).isNotSameAs(first);
        assertThat(second.config()).isSameAs(first.config());
    }

    @Test
    void noNamesIsEveryPool() {
        ConfigSource source = now -> read("1", "a");
        assertThat(NamedPools.of(source, Set.of())).isSameAs(source);
    }
}
