package dev.gantry.config.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Karpenter's way to turn a NodePool off, {@code limits: {cpu: "0"}}, read from YAML and solved with the real catalogue. */
class ZeroLimitPoolTest {
    private static final String YAML = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: off}
            spec:
              limits:
                %s: "0"
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements: []
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: web}
            spec:
              containers: [{name: c, resources: {requests: {cpu: 500m, memory: 512Mi}}}]
            """;

    @ParameterizedTest
    @ValueSource(strings = {"cpu", "memory", "pods"})
    void aPoolWithAZeroLimitGetsNoNodes(String resource) {
        LoadResult r = ConfigLoader.loadString("t.yaml", YAML.formatted(resource), LoadOptions.DEFAULT);
        assertThat(r.errors()).isEmpty();
        NodePool pool = r.nodePools().getFirst();
        var types = BuiltInCatalog.load("us-east-1").instanceTypes(CatalogFixtures.al2023());
        var input = new SchedulingInput(r.pods(), List.of(), List.of(), List.of(),
                List.of(new SchedulingInput.PoolOffer(pool, types, Resources.ZERO, 0)), Map.of());
        SchedulingResult result = Scheduler.solve(input, Scheduler.Strategy.values()[0]);
        assertThat(result.newClaims()).isEmpty();
        assertThat(result.unschedulable()).singleElement()
                .satisfies(u -> assertThat(u.reason()).isEqualTo("NodePool off would exceed its " + resource + " limit (0)"));
    }
}
