package dev.gantry.core.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.KubeletLabels;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RegistrationTest {
    private static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");

    private static NodePool pool(Map<String, String> labels, List<Requirement> requirements) {
        return new NodePool("workers", Map.of(), new NodePool.Template(labels, Map.of(), List.of(), List.of(), requirements,
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()), null, Map.of(),
                null, null);
    }

    /**
     * Regression (#21): the kubelet refuses {@code kubernetes.io}/{@code k8s.io} labels outside its own set, so they
     * are kept out of the user data; registration is where they reach the node, from the pool's template labels and
     * from the requirements the claim pins to one value.
     */
    @Test
    void registrationSetsTheLabelsTheKubeletMayNotSetFromTheTemplateAndTheClaimsRequirements() {
        List<Requirement> reqs = List.of(Requirement.of("node-restriction.kubernetes.io/tier", Operator.In, "gold"),
                Requirement.of("karpenter.sh/capacity-type", Operator.In, "spot", "on-demand"),
                Requirement.of("kubernetes.io/hostname", Operator.In, "should-not-be-written"));
        NodePool pool = pool(Map.of("node-role.kubernetes.io/worker", "", "team", "web"), reqs);
        NodeClaim claim = NodeClaim.launching("workers-abcde", "workers", "h", reqs, List.of("m5.large"), List.of(),
                "m5.large", "us-east-1a", "spot", 0.04, T0).launched("i-1", "m5.large", "us-east-1a", "spot", 0.04, T0);
        Node node = new Node("ip-10-0-0-1", "aws:///us-east-1a/i-1", Map.of("karpenter.sh/nodepool", "workers", "team", "web",
                "kubernetes.io/hostname", "ip-10-0-0-1"), Map.of(), List.of(), Resources.of(2000, 8L << 30), false, false,
                false, T0);

        Registration.Transition step = Registration.decide(claim, node, pool, InstanceFacts.NONE, T0).orElseThrow();

        assertThat(step.patch().setLabels()).containsEntry("node-role.kubernetes.io/worker", "")
                .containsEntry("node-restriction.kubernetes.io/tier", "gold").doesNotContainKey("team")
                .doesNotContainKey("kubernetes.io/hostname").containsEntry("gantry.dev/nodeclaim", "workers-abcde");
        assertThat(KubeletLabels.refusal(Map.of("node-role.kubernetes.io/worker", ""))).contains("unknown 'kubernetes.io'");
    }

    /**
     * The pool's template annotations reach the node at registration, as Karpenter syncs its NodeClaim's annotations
     * to the Node; those the node already has with that value are not written again, and nothing is written after
     * registration.
     */
    @Test
    void registrationPutsTheTemplateAnnotationsTheNodeLacksOnIt() {
        NodePool plain = pool(Map.of(), List.of());
        NodePool pool = new NodePool(plain.name(), Map.of(), new NodePool.Template(Map.of(),
                Map.of("example.com/team", "web", "example.com/cost-centre", "42"), List.of(), List.of(), List.of(),
                plain.template().nodeClassRef(), Optional.empty(), Optional.empty()), null, Map.of(), null, null);
        NodeClaim claim = NodeClaim.launching("workers-abcde", "workers", "h", List.of(), List.of("m5.large"), List.of(),
                "m5.large", "us-east-1a", "spot", 0.04, T0).launched("i-1", "m5.large", "us-east-1a", "spot", 0.04, T0);
        Node node = new Node("ip-10-0-0-1", "aws:///us-east-1a/i-1", Map.of(), Map.of("example.com/cost-centre", "42",
                "node.alpha.kubernetes.io/ttl", "0"), List.of(), Resources.of(2000, 8L << 30), false, false, false, T0);

        Registration.Transition step = Registration.decide(claim, node, pool, InstanceFacts.NONE, T0).orElseThrow();

        assertThat(step.patch().setAnnotations()).containsExactly(Map.entry("example.com/team", "web"));
        Registration.Transition later = Registration.decide(step.updated(), node, pool, InstanceFacts.NONE, T0).orElse(null);
        assertThat(later == null || later.patch() == null || later.patch().setAnnotations().isEmpty())
                .as("annotations are written at registration only").isTrue();
    }

    @Test
    void theKubeletAcceptsItsOwnLabelsAndNamespacesAndRefusesTheRestOfTheKubernetesDomains() {
        assertThat(KubeletLabels.refusal(Map.of("kubernetes.io/arch", "amd64", "topology.kubernetes.io/zone", "us-east-1a",
                "node.kubernetes.io/instance-type", "m5.large", "node.kubernetes.io/lifecycle", "spot",
                "kubelet.kubernetes.io/x", "y", "example.node.kubernetes.io/z", "1", "team", "web",
                "karpenter.sh/nodepool", "workers"))).isNull();
        for (String refused : List.of("node-role.kubernetes.io/worker", "node-restriction.kubernetes.io/tier",
                "kubernetes.io/role", "example.k8s.io/x", "k8s.io/y", "topology.kubernetes.io/rack")) {
            assertThat(KubeletLabels.kubeletMaySet(refused)).as(refused).isFalse();
        }
        assertThat(KubeletLabels.refusal(Map.of("team", "-bad-"))).startsWith("invalid node labels");
        assertThat(KubeletLabels.forUserData(Map.of("node-role.kubernetes.io/worker", "", "team", "web",
                "node.kubernetes.io/lifecycle", "spot"))).containsOnlyKeys("team", "node.kubernetes.io/lifecycle");
    }
}
