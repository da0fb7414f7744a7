package dev.gantry.simulator.world.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.cluster.ClusterConfigReader;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.config.ConfigObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The simulated API server's NodePools and NodeClasses: resourceVersions as a real server bumps them, and the write hook. */
class ConfigStoreTest {
    static final String POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: general}
            spec:
              template: {spec: {nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}, requirements: []}}
              limits: {cpu: "%s"}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: default}
            """;

    @Test
    void aChangedObjectGetsANewResourceVersionAndTheSameOneChangesNothing() {
        ConfigStore store = new ConfigStore();
        List<ConfigStore.Write> writes = new ArrayList<>();
        store.onWrite(writes::add);

        assertThat(store.applyYaml(POOL.formatted("20"))).containsExactly("NodePool/general");
        String first = store.list().getFirst().resourceVersion();
        store.applyYaml(POOL.formatted("20"));
        assertThat(store.list().getFirst().resourceVersion()).isEqualTo(first);
        store.applyYaml(POOL.formatted("12"));
        ConfigObject changed = store.list().getFirst();

        assertThat(changed.resourceVersion()).isNotEqualTo(first);
        assertThat(changed.json()).contains("\"cpu\":\"12\"", "\"generation\":2");
        assertThat(writes).containsExactly(new ConfigStore.Write("NodePool/general", false),
                new ConfigStore.Write("NodePool/general", false));
    }

    @Test
    void aNodePoolNeverSwitchesBetweenStaticAndDynamicButItsReplicasChange() {
        // Karpenter core pkg/apis/v1/nodepool.go CEL transition rule: has(self.replicas) == has(oldSelf.replicas).
        ConfigStore store = new ConfigStore();
        String dynamic = POOL.formatted("20").replace("  limits: {cpu: \"20\"}\n", "");
        String fixed = dynamic.replace("spec:\n", "spec:\n  replicas: %d\n");
        assertThat(store.applyYaml(dynamic)).containsExactly("NodePool/general");
        assertThat(store.applyYaml(fixed.formatted(3))).isEmpty();
        store.delete("NodePool", "general");
        assertThat(store.applyYaml(fixed.formatted(3))).containsExactly("NodePool/general");
        assertThat(store.applyYaml(fixed.formatted(5))).containsExactly("NodePool/general");
        assertThat(store.list().getFirst().json()).contains("\"replicas\":5");
        assertThat(store.applyYaml(dynamic)).isEmpty();
    }

    @Test
    void aWriteTheAdmissionRefusesIsNotStoredNorHeard() {
        ConfigStore store = new ConfigStore();
        store.applyYaml(POOL.formatted("20"));
        String before = store.list().getFirst().resourceVersion();
        List<String> reviewed = new ArrayList<>();
        store.admission((operation, json) -> {
            reviewed.add(operation);
            return json.contains("\"cpu\":\"99\"") ? "Gantry refused NodePool/general: spec.limits.cpu: too many" : null;
        });
        List<ConfigStore.Write> writes = new ArrayList<>();
        store.onWrite(writes::add);

        assertThat(store.applyYaml(POOL.formatted("99"))).isEmpty();

        assertThat(store.list().getFirst().resourceVersion()).isEqualTo(before);
        assertThat(store.list().getFirst().json()).contains("\"cpu\":\"20\"");
        assertThat(writes).isEmpty();
        assertThat(store.applyYaml(POOL.formatted("12"))).containsExactly("NodePool/general");
        assertThat(reviewed).containsExactly("UPDATE", "UPDATE");
        assertThat(writes).hasSize(1);
    }

    @Test
    void aDeleteRemovesTheObjectAndIsHeard() {
        ConfigStore store = new ConfigStore();
        store.applyYaml(POOL.formatted("20"));
        List<ConfigStore.Write> writes = new ArrayList<>();
        store.onWrite(writes::add);

        assertThat(store.delete("NodePool", "general")).isTrue();
        assertThat(store.delete("NodePool", "general")).isFalse();
        assertThat(store.list()).isEmpty();
        assertThat(writes).containsExactly(new ConfigStore.Write("NodePool/general", true));
    }

    /** What the simulator's handlers read from the API server is what the scenario's files say, for every sample pool. */
    @Test
    void everySampleNodePoolReadsTheSameFromTheStoreAsFromItsFile() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("../../samples/nodepools"))) {
            files = s.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(7);
        for (Path f : files) {
            ConfigStore store = new ConfigStore();
            store.applyYaml(Files.readString(f));
            ClusterConfig read = new ClusterConfigReader(store::list, "us-east-1", List.of()).current(Instant.EPOCH);
            LoadResult file = ConfigLoader.load(List.of(f), LoadOptions.DEFAULT);
            var withClass = file.nodePools().stream().filter(p -> file.nodeClasses().stream()
                    .anyMatch(c -> c.name().equals(p.template().nodeClassRef().name()))).toList();
            assertThat(read.config().nodePools()).as(f.toString()).containsExactlyInAnyOrderElementsOf(withClass);
            assertThat(read.config().nodeClasses()).as(f.toString()).containsExactlyInAnyOrderElementsOf(file.nodeClasses());
        }
    }
}
