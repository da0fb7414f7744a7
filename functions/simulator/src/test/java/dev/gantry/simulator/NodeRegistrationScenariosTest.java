package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.WellKnownLabels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nodes of NodePools that the real world treats strictly (the kubelet's label rules, EC2's ClientToken limit) join. */
class NodeRegistrationScenariosTest {
    @TempDir
    Path dir;

    private Simulation run(String poolName, String templateLabels, String nodeSelector) throws IOException {
        return run(poolName, templateLabels, nodeSelector, "", "amd64", "1");
    }

    private Simulation run(String poolName, String templateLabels, String nodeSelector, String templateAnnotations,
                           String arch, String podCpu) throws IOException {
        Files.writeString(dir.resolve("pools.yaml"), """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: %s
                spec:
                  template:
                    metadata:
                      labels:
                %s
                %s
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements:
                        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                        - {key: kubernetes.io/arch, operator: In, values: [%s]}
                  limits:
                    cpu: "64"
                """.formatted(poolName, templateLabels.indent(8).stripTrailing(),
                templateAnnotations.isEmpty() ? "" : ("annotations:\n" + templateAnnotations.indent(2)).indent(6).stripTrailing(),
                arch));
        Files.writeString(dir.resolve("work.yaml"), """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: work
                spec:
                  replicas: 6
                  selector:
                    matchLabels: {app: work}
                  template:
                    metadata:
                      labels: {app: work}
                    spec:
                      nodeSelector: %s
                      containers:
                        - name: work
                          image: public.ecr.aws/eks-distro/kubernetes/pause:3.7
                          resources:
                            requests: {cpu: "%s", memory: 1Gi}
                """.formatted(nodeSelector, podCpu));
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, """
                name: registration
                region: us-east-1
                zones: [us-east-1a, us-east-1b]
                duration: 20m
                seed: 3
                config: [pools.yaml]
                events:
                  - {at: 0s, apply: work.yaml}
                """);
        return new Simulation(ScenarioReader.read(scenario), v -> { }, Progress.none()).run().simulation();
    }

    private static List<Node> gantryNodes(Simulation sim) {
        return sim.cluster.nodes().stream().filter(n -> n.labels().containsKey(WellKnownLabels.NODEPOOL)).toList();
    }

    /**
     * Regression (#21): claim names are the pool's name plus suffixes, and they are the CreateFleet ClientToken (EC2
     * takes 64 characters) and the value of the node's nodeclaim label (63): a 63-character NodePool name never got a
     * node. Claim names are now bounded.
     */
    @Test
    void aNodePoolWithASixtyThreeCharacterNameLaunchesAndItsNodesJoin() throws IOException {
        String name = "batch-" + "x".repeat(57);
        Simulation sim = run(name, "team: web", "{team: web}");
        assertThat(sim.pendingPods()).isZero();
        assertThat(sim.invariants.kept()).isEmpty();
        assertThat(gantryNodes(sim)).isNotEmpty().allSatisfy(n -> {
            assertThat(n.labels()).containsEntry(WellKnownLabels.NODEPOOL, name);
            assertThat(n.labels().get("gantry.dev/nodeclaim")).isNotNull().hasSizeLessThanOrEqualTo(63);
        });
    }

    /**
     * A NodePool's template annotations reach every node it launches, at registration, as Karpenter syncs them; they
     * were dropped with a warning.
     */
    @Test
    void aNodePoolsTemplateAnnotationsReachItsNodes() throws IOException {
        Simulation sim = run("workers", "team: web", "{team: web}", """
                example.com/owner: platform
                prometheus.io/scrape: "true"
                """, "amd64", "1");
        assertThat(sim.pendingPods()).isZero();
        assertThat(sim.invariants.kept()).isEmpty();
        assertThat(gantryNodes(sim)).isNotEmpty().allSatisfy(n -> assertThat(n.annotations())
                .containsEntry("example.com/owner", "platform").containsEntry("prometheus.io/scrape", "true"));
    }

    /**
     * Regression: an arm64 pool under AL2023 (the default image) with CPU-heavy pods was given A1 nodes, A1 being the
     * cheapest arm64 vCPU; AL2023 does not boot on A1, so they never joined and the pods waited out the registration
     * timeout. Gantry now leaves A1 out under AL2023, as Karpenter does.
     */
    @Test
    void anArmPoolUnderAl2023GetsNodesThatJoin() throws IOException {
        Simulation sim = run("arm", "team: web", "{team: web}", "", "arm64", "3");
        assertThat(sim.kubelet.refusals()).isEmpty();
        assertThat(sim.pendingPods()).isZero();
        assertThat(sim.invariants.kept()).isEmpty();
        assertThat(gantryNodes(sim)).isNotEmpty().allSatisfy(n -> assertThat(n.labels().get(WellKnownLabels.INSTANCE_TYPE))
                .doesNotStartWith("a1."));
    }

    @Test
    void aNodePoolLabelTheKubeletRefusesReachesItsNodesAtRegistrationAndThePodsThatSelectItRun() throws IOException {
        Simulation sim = run("workers", """
                node-role.kubernetes.io/worker: ""
                node-restriction.kubernetes.io/tier: gold
                team: web""", "{node-role.kubernetes.io/worker: \"\"}");
        assertThat(sim.kubelet.refusals()).isEmpty();
        assertThat(sim.pendingPods()).isZero();
        assertThat(sim.invariants.kept()).isEmpty();
        assertThat(gantryNodes(sim)).isNotEmpty().allSatisfy(n -> assertThat(n.labels())
                .containsEntry("node-role.kubernetes.io/worker", "")
                .containsEntry("node-restriction.kubernetes.io/tier", "gold").containsEntry("team", "web"));
    }
}
