package dev.gantry.simulator.world.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.SelectorTerm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What an EC2NodeClass's {@code subnetSelectorTerms} select of the simulated VPC: the samples' own terms (real subnet
 * ids, discovery tags) keep selecting the primaries, as before subnets were modelled; a term naming the secondaries
 * selects only them, so running nodes in the primaries drift (SubnetDrift).
 */
class SimulatedSubnetsTest {
    static final List<String> ZONES = List.of("us-east-1a", "us-east-1b");

    private static NodeClass selecting(SelectorTerm... terms) {
        return new NodeClass("c", "karpenter.k8s.aws", "EC2NodeClass", "AL2023", List.of(), List.of(terms), List.of(),
                "role", null, null, Map.of(), List.of(), null, null, null, null, null);
    }

    private static List<String> ids(NodeClass c) {
        return SimulatedSubnets.selected(c, ZONES).stream().map(SimulatedSubnets.Subnet::id).toList();
    }

    @Test
    void theSamplesTermsSelectThePrimariesAsBefore() {
        assertThat(ids(selecting())).containsExactly("subnet-us-east-1a", "subnet-us-east-1b");
        assertThat(ids(selecting(SelectorTerm.id("subnet-096bfe6623a87be3f")))).containsExactly("subnet-us-east-1a", "subnet-us-east-1b");
        assertThat(ids(selecting(new SelectorTerm(null, null, Map.of("karpenter.sh/discovery", "demo")))))
                .as("the discovery tag is on both; launches use the first of a zone, the primary")
                .containsExactly("subnet-us-east-1a", "subnet-us-east-1a-secondary", "subnet-us-east-1b", "subnet-us-east-1b-secondary");
        assertThat(SimulatedSubnets.in(selecting(new SelectorTerm(null, null, Map.of("karpenter.sh/discovery", "demo"))), "us-east-1b"))
                .hasValue("subnet-us-east-1b");
    }

    @Test
    void aTermNamingTheSecondariesSelectsOnlyThem() {
        NodeClass secondary = selecting(new SelectorTerm(null, null, Map.of("network", "secondary")));
        assertThat(ids(secondary)).containsExactly("subnet-us-east-1a-secondary", "subnet-us-east-1b-secondary");
        assertThat(SimulatedSubnets.in(secondary, "us-east-1a")).hasValue("subnet-us-east-1a-secondary");
        assertThat(ids(selecting(SelectorTerm.id("subnet-us-east-1b-secondary")))).containsExactly("subnet-us-east-1b-secondary");
        assertThat(ids(selecting(new SelectorTerm(null, null, Map.of("network", "secondary", "Name", "secondary-us-east-1a")))))
                .as("a term's tags are ANDed").containsExactly("subnet-us-east-1a-secondary");
        assertThat(ids(selecting(new SelectorTerm(null, null, Map.of("network", "*")))))
                .as("a wildcard value").hasSize(4);
    }
}
