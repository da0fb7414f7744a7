package dev.gantry.config;

import dev.gantry.config.source.Diagnostic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Quantities and durations as YAML writes them (strings, integers, floats) through the loader. */
class QuantityAndDurationLoadingTest {
    private static Pod pod(String cpu, String memory) {
        LoadResult r = ConfigLoader.loadString("p.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers:
                    - name: c
                      resources: {requests: {cpu: %s, memory: %s}}
                """.formatted(cpu, memory), LoadOptions.DEFAULT);
        assertThat(r.errors()).isEmpty();
        return r.pods().getFirst();
    }

    @ParameterizedTest(name = "cpu {0} is {2}m, memory {1} is {3} bytes")
    @CsvSource(delimiter = '|', value = {
            "250m   | 512Mi  | 250  | 536870912",
            "0.25   | 1Gi    | 250  | 1073741824",
            "1.5    | 1e3    | 1500 | 1000",
            "'2'    | 2k     | 2000 | 2000",
            "0.0001 | 1.5Mi  | 1    | 1572864",
            "1      | 100    | 1000 | 100"})
    void readsQuantitiesAsKubernetesDoesRoundingUp(String cpu, String memory, long millis, long bytes) {
        Pod p = pod(cpu, memory);
        assertThat(p.requests().cpuMillis()).isEqualTo(millis);
        assertThat(p.requests().memoryBytes()).isEqualTo(bytes);
    }

    @Test
    void rejectsANegativeQuantity() {
        LoadResult r = ConfigLoader.loadString("p.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers: [{name: c, resources: {requests: {cpu: -1}}}]
                """, LoadOptions.DEFAULT);
        assertThat(r.errors()).extracting(Diagnostic::toString)
                .containsExactly("p.yaml:5:54: Pod/p/spec.containers[0].resources.requests.cpu: quantity -1 is negative");
    }

    private static LoadResult pool(String expireAfter, String consolidateAfter) {
        return ConfigLoader.loadString("n.yaml", """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: p}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: c}
                      requirements: []
                      expireAfter: %s
                  disruption:
                    consolidateAfter: %s
                """.formatted(expireAfter, consolidateAfter), LoadOptions.DEFAULT);
    }

    @Test
    void readsCompoundDurationsAndNever() {
        LoadResult r = pool("24h0m0s", "Never");
        assertThat(r.errors()).isEmpty();
        assertThat(r.nodePools().getFirst().template().expireAfter()).contains(Duration.ofHours(24));
        assertThat(r.nodePools().getFirst().disruption().consolidateAfter()).isEqualTo(Optional.empty());
        assertThat(pool("336h", "30s").nodePools().getFirst().template().expireAfter()).contains(Duration.ofHours(336));
        assertThat(pool("1h30m", "0s").nodePools().getFirst().template().expireAfter()).contains(Duration.ofMinutes(90));
    }

    @Test
    void rejectsDurationsKarpenterRejects() {
        assertThat(pool("1.5h", "30s").errors()).extracting(Diagnostic::message).containsExactly(
                "'1.5h' is not a duration (whole hours, minutes, seconds: 30s, 10m, 24h0m0s, or Never)");
        assertThat(pool("720h", "30").errors()).extracting(Diagnostic::toString).containsExactly(
                "n.yaml:11:23: NodePool/p/spec.disruption.consolidateAfter: '30' is not a duration (whole hours, minutes, seconds: 30s, 10m, 24h0m0s, or Never)");
        assertThat(pool("500ms", "30s").errors()).hasSize(1);
    }
}
