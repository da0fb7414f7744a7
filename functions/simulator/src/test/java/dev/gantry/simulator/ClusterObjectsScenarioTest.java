package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.status.Condition;
import dev.gantry.core.status.PoolStatus;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The real sweep's NodeClaim projection and status steps in a scenario, against the simulated API server's Karpenter
 * objects (resourceVersion conflicts, status subresource, finalizers): what {@code kubectl get nodepools,nodeclaims}
 * would show at the end of the quickstart, and what it costs in API calls.
 */
class ClusterObjectsScenarioTest {
    @Test
    void afterTheQuickstartEveryLiveClaimIsANodeClaimObjectAndTheNodePoolCountsThem() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/quickstart.yaml")),
                line -> { }, new Progress(new PrintWriter(new StringWriter()), false)).run();
        Simulation s = r.simulation();

        List<NodeClaim> live = s.store.list(s.clock.instant()).stream()
                .filter(c -> c.state() == NodeClaimState.Initialized).toList();
        assertThat(live).isNotEmpty();
        for (NodeClaim c : live) {
            assertThat(s.karpenterObjects.nodeClaim(c.name())).as(c.name()).isNotNull();
            assertThat(Condition.find(s.karpenterObjects.nodeClaim(c.name()).status().conditions(), "Ready"))
                    .hasValueSatisfying(ready -> assertThat(ready.status()).isEqualTo(Condition.Status.True));
        }
        assertThat(s.karpenterObjects.nodeClaims()).as("no object outlives its claim by more than a sweep")
                .isLessThanOrEqualTo(s.store.list(s.clock.instant()).size());
        PoolStatus pool = s.karpenterObjects.nodePoolStatus(s.config.nodePools().getFirst().name());
        assertThat(pool.nodes()).isEqualTo(s.store.list(s.clock.instant()).stream()
                .filter(c -> c.state() != NodeClaimState.Terminated && c.nodePool().equals(s.config.nodePools().getFirst().name())).count());
        assertThat(Condition.find(pool.conditions(), "Ready")).hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(Condition.Status.True));
        int sweeps = 30; // a 30-minute scenario, one sweep a minute
        System.out.println("quickstart: " + s.karpenterObjects.requests() + " Karpenter-object requests over " + sweeps
                + " sweeps (" + s.karpenterObjects.requests() / (double) sweeps + " a sweep)");
        assertThat(s.karpenterObjects.requests() / (double) sweeps).as("lists plus the writes of what changed").isLessThan(20);
    }

    /** The figures at 1,000 nodes: {@code -Dgantry.scale=true} (a few minutes; the scale scenarios run in their own test). */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "gantry.scale", matches = "true")
    void apiCallsAtAThousandNodes() {
        ClusterObjectsScaleRun.main(new String[] {"../../samples/scenarios/scale/spot-interruptions.yaml"});
    }
}
