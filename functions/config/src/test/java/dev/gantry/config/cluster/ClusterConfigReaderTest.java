package dev.gantry.config.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.config.ConfigObjects;
import dev.gantry.core.config.ConfigUnavailable;
import dev.gantry.core.model.NodePool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cluster's configuration objects read through ConfigLoader, cached by resourceVersion. */
class ClusterConfigReaderTest {
    static final Instant T0 = Instant.parse("2026-01-05T12:00:00Z");

    /** A settable cluster: objects by key, each write a new resourceVersion; {@code down} makes the list fail. */
    static final class Objects implements ConfigObjects {
        final Map<String, ConfigObject> byKey = new LinkedHashMap<>();
        int rv;
        boolean down;
        boolean crdMissing;
        int lists;

        Objects put(String kind, String name, String yaml) {
            byKey.put(kind + "/" + name, new ConfigObject(kind, "", name, String.valueOf(++rv), yaml));
            return this;
        }

        @Override
        public List<ConfigObject> list() {
            lists++;
            if (down) {
                throw new ClusterException(0, "connection refused", null);
            }
            return crdMissing ? List.of() : new ArrayList<>(byKey.values());
        }
    }

    static String pool(String name, String nodeClass, String cpuLimit) {
        return """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: %s, resourceVersion: "7", uid: u-1, generation: 2, managedFields: [{manager: kubectl, operation: Apply}]}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: %s}
                      requirements:
                        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                  limits: {cpu: "%s"}
                status: {conditions: [{type: Ready, status: "True"}]}
                """.formatted(name, nodeClass, cpuLimit);
    }

    static String nodeClass(String name) {
        return """
                apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata: {name: %s}
                spec:
                  amiSelectorTerms: [{alias: al2023@latest}]
                  role: KarpenterNodeRole
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                """.formatted(name);
    }

    static Objects seeded() {
        return new Objects().put("EC2NodeClass", "default", nodeClass("default")).put("NodePool", "general", pool("general", "default", "100"));
    }

    static ClusterConfigReader reader(Objects o) {
        return new ClusterConfigReader(o, "us-east-1", List.of("us-east-1a", "us-east-1b"));
    }

    @Test
    void readsTheClustersNodePoolsAndNodeClassesThroughTheConfigLoader() {
        ClusterConfig c = reader(seeded()).current(T0);

        assertThat(c.config().nodePools()).extracting(NodePool::name).containsExactly("general");
        assertThat(c.config().nodeClasses()).extracting(n -> n.name()).containsExactly("default");
        assertThat(c.config().nodePools().getFirst().limits().get("cpu").toMillis()).isEqualTo(100_000);
        assertThat(c.config().zones()).containsExactly("us-east-1a", "us-east-1b");
        assertThat(c.invalid()).isEmpty();
    }

    @Test
    void anUnchangedClusterIsListedEachTimeButParsedOnceAndAnswersTheSameInstance() {
        Objects o = seeded();
        ClusterConfigReader r = reader(o);
        ClusterConfig first = r.current(T0);
        ClusterConfig second = r.current(T0.plusSeconds(5));

        assertThat(second).isSameAs(first);
        assertThat(o.lists).isEqualTo(2);
        assertThat(r.parses()).isEqualTo(1);
    }

    @Test
    void aNewResourceVersionIsParsedAgainAndTheNextRunSeesTheNewLimit() {
        Objects o = seeded();
        ClusterConfigReader r = reader(o);
        ClusterConfig before = r.current(T0);
        o.put("NodePool", "general", pool("general", "default", "8"));
        ClusterConfig after = r.current(T0.plusSeconds(5));

        assertThat(r.parses()).isEqualTo(2);
        assertThat(after.config()).isNotSameAs(before.config());
        assertThat(after.config().nodePools().getFirst().limits().get("cpu").toMillis()).isEqualTo(8_000);
    }

    @Test
    void aChangedBufferTargetKeepsTheSameGantryConfigInstance() {
        Objects o = seeded();
        ClusterConfigReader r = reader(o);
        ClusterConfig before = r.current(T0);
        o.put("PodTemplate", "warm", """
                apiVersion: v1
                kind: PodTemplate
                metadata: {name: warm, namespace: default}
                template: {spec: {containers: [{name: pause, image: pause, resources: {requests: {cpu: "1"}}}]}}
                """);
        ClusterConfig after = r.current(T0.plusSeconds(5));

        assertThat(after).isNotSameAs(before);
        assertThat(after.config()).isSameAs(before.config());
    }

    @Test
    void anInvalidNodePoolIsLeftOutWithItsMessagesAndTheValidOnesAreStillUsed() {
        Objects o = seeded().put("NodePool", "broken", pool("broken", "default", "100").replace("operator: In", "operator: Inn"));

        ClusterConfig c = reader(o).current(T0);

        assertThat(c.config().nodePools()).extracting(NodePool::name).containsExactly("general");
        assertThat(c.invalidNodePools()).containsOnlyKeys("broken");
        assertThat(c.invalidNodePools().get("broken")).singleElement().asString()
                .startsWith("spec.template.spec.requirements[0].operator: ").contains("Inn");
    }

    @Test
    void aNodePoolWhoseNodeClassIsMissingOrInvalidIsLeftOutWithADiagnostic() {
        Objects o = seeded().put("NodePool", "orphan", pool("orphan", "nowhere", "10"))
                .put("EC2NodeClass", "bad", nodeClass("bad").replace("role: KarpenterNodeRole", "role: 12"))
                .put("NodePool", "on-bad", pool("on-bad", "bad", "10"));
        o.put("EC2NodeClass", "bad", nodeClass("bad").replace("amiSelectorTerms: [{alias: al2023@latest}]", "amiSelectorTerms: []"));

        ClusterConfig c = reader(o).current(T0);

        assertThat(c.config().nodePools()).extracting(NodePool::name).containsExactly("general");
        assertThat(c.invalidNodePools().get("orphan")).containsExactly(
                "spec.template.spec.nodeClassRef: EC2NodeClass/nowhere is not in the cluster");
        assertThat(c.invalidNodeClasses()).containsOnlyKeys("bad");
        assertThat(c.invalidNodePools().get("on-bad")).containsExactly("spec.template.spec.nodeClassRef: EC2NodeClass/bad is invalid");
    }

    @Test
    void aClusterWithoutTheCrdsHasAnEmptyConfigurationNotAnError() {
        Objects o = seeded();
        o.crdMissing = true;

        ClusterConfig c = reader(o).current(T0);

        assertThat(c.config().nodePools()).isEmpty();
        assertThat(c.invalid()).isEmpty();
    }

    @Test
    void aFailedListUsesTheLastGoodReadingForTenMinutesThenFailsTheRun() {
        Objects o = seeded();
        ClusterConfigReader r = reader(o);
        ClusterConfig good = r.current(T0);
        o.down = true;

        assertThat(r.current(T0.plus(ClusterConfigReader.MAX_STALE))).isSameAs(good);
        assertThatThrownBy(() -> r.current(T0.plus(ClusterConfigReader.MAX_STALE).plusSeconds(1)))
                .isInstanceOf(ConfigUnavailable.class).hasMessageContaining("older than 10 min")
                .hasCauseInstanceOf(ClusterException.class);
    }

    @Test
    void aFailedFirstListFailsTheRunRatherThanRunningWithNoNodePools() {
        Objects o = seeded();
        o.down = true;

        assertThatThrownBy(() -> reader(o).current(T0)).isInstanceOf(ConfigUnavailable.class);
        o.down = false;
        assertThat(reader(o).current(T0.plus(Duration.ofSeconds(1))).config().nodePools()).hasSize(1);
    }

    @Test
    void aCapacityBufferIsReadWithItsPodTemplateAndAnInvalidOneIsLeftOutAlone() {
        Objects o = seeded().put("PodTemplate", "warm", """
                apiVersion: v1
                kind: PodTemplate
                metadata: {name: warm, namespace: default}
                template: {spec: {containers: [{name: pause, image: pause, resources: {requests: {cpu: "1"}}}]}}
                """).put("CapacityBuffer", "warm", """
                apiVersion: autoscaling.x-k8s.io/v1beta1
                kind: CapacityBuffer
                metadata: {name: warm, namespace: default}
                spec: {podTemplateRef: {name: warm}, replicas: 2}
                """).put("CapacityBuffer", "typo", """
                apiVersion: autoscaling.x-k8s.io/v1beta1
                kind: CapacityBuffer
                metadata: {name: typo, namespace: default}
                spec: {podTemplateRef: {name: warm}, replicaz: 2}
                """);

        ClusterConfig c = reader(o).current(T0);

        assertThat(c.buffers().buffers()).hasSize(1);
        assertThat(c.invalid()).containsOnlyKeys("CapacityBuffer/typo");
        assertThat(c.config().nodePools()).hasSize(1);
    }
}
