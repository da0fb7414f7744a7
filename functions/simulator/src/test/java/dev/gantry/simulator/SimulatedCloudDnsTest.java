package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.model.NodePool;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimulatedCloudDnsTest {
    @Test
    void everyInstanceGetsItsOwnPrivateDnsNameAtAThousandNodes() {
        // Found by the 1,000-node scenario: names drawn from a /16 collided about ten times, two instances shared one
        // Node, and the invariants saw pods killed without a drain and pods pending for 17 minutes.
        Simulation sim = new Simulation(ScenarioReader.read(Path.of("src/test/resources/scenarios/invariants.yaml")), v -> { },
                Progress.none());
        NodePool pool = sim.config.nodePools().getFirst();
        var nodeClass = sim.config.nodeClassOf(pool).orElseThrow();
        var type = sim.catalog.instanceTypes(nodeClass).stream().filter(t -> pool.requirements().compatible(t.requirements()))
                .findFirst().orElseThrow();
        Set<String> names = new HashSet<>();
        // Fleets of 100: fifteen CreateFleet calls at one instant fit EC2's mutating-request bucket (50), 1,500 do not.
        for (int i = 0; i < 15; i++) {
            var launched = sim.cloud.launch(new LaunchRequest("launch-" + i, pool, nodeClass, List.of(type), pool.requirements(),
                    Map.of(), List.of(), 100, dev.gantry.core.model.Resources.ZERO));
            launched.instances().forEach(x -> names.add(x.privateDnsName()));
        }
        assertThat(names).hasSize(1500);
    }
}
