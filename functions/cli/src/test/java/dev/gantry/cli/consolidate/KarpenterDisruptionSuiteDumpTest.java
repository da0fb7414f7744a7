package dev.gantry.cli.consolidate;

import static dev.gantry.cli.consolidate.DumpCase.method;
import static dev.gantry.cli.consolidate.DumpCase.removed;
import static dev.gantry.cli.consolidate.DumpCase.why;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.DumpPdb;
import dev.gantry.testing.dumps.DumpPod;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Behaviours of Karpenter's disruption suite (kubernetes-sigs/karpenter v1.14, {@code pkg/controllers/disruption/*_test.go})
 * that a cluster dump can express, run through {@code gantry consolidate} on dumps written as kubectl writes them: each
 * test names the test it ports. They are also issue #22's defect classes, each of which the old dump reader got wrong.
 */
class KarpenterDisruptionSuiteDumpTest {
    private static final Instant NOW = DumpNode.NOW;

    @TempDir
    Path dir;

    private DumpCase c() {
        return new DumpCase(dir);
    }

    // ---------------------------------------------------------------- DaemonSet pods

    @Test
    @DisplayName("emptiness_test.go: will consider a node with a DaemonSet pod as empty")
    void aNodeWithOnlyDaemonSetPodsIsEmpty() {
        DumpCase c = c().add(DumpNode.named("ds-only").type("c6a.large")).daemons("ds-only")
                .add(DumpNode.named("busy").type("c6a.large")).daemons("busy").add(DumpPod.named("web-1").on("busy").requests("1", "1Gi"));
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("EMPTY");
        assertThat(removed(d)).containsExactly("ds-only");
    }

    @Test
    @DisplayName("emptiness_test.go Emptiness: can delete empty nodes (a WhenEmpty pool, nodes running only DaemonSets)")
    void aWhenEmptyPoolDeletesNodesThatRunOnlyDaemonSets() {
        DumpCase c = c().disruption("WhenEmpty", "0s", "100%").add(DumpNode.named("ds-only").type("c6a.large")).daemons("ds-only");
        assertThat(removed(c.consolidate())).containsExactly("ds-only");
    }

    @Test
    @DisplayName("consolidation_test.go Multi-NodeClaim: can merge 3 nodes into 1 (DaemonSet pods stay with their nodes: "
            + "no replacement is launched for them)")
    void aRepackLaunchesNoNodeForDaemonSetPods() {
        DumpCase c = c();
        for (int i = 0; i < 6; i++) {
            String n = "small-" + i;
            c.add(DumpNode.named(n).type("c6a.large")).daemons(n)
                    .add(DumpPod.named("app-" + i + "a").on(n).requests("600m", "512Mi"))
                    .add(DumpPod.named("app-" + i + "b").on(n).requests("600m", "512Mi"));
        }
        JsonNode d = c.consolidate();
        assertThat(d.get("command").get("launch")).isNotEmpty();
        for (JsonNode r : d.get("command").get("launch")) {
            List<String> pods = new ArrayList<>();
            r.get("pods").forEach(p -> pods.add(p.asText()));
            assertThat(pods).isNotEmpty().allMatch(p -> p.startsWith("default/app-"));
        }
        // Where it settles: $0.306/h (one c6a.2xlarge, or a c6a.xlarge beside two c6a.large), the packing bound; three
        // new nodes, one of them for aws-node and kube-proxy alone, cost $0.434/h.
        JsonNode settled = c.consolidate("--until-settled").get("settled");
        assertThat(settled.get("pricePerHourAfter").asDouble()).isLessThanOrEqualTo(0.306 + 1e-9);
        assertThat(settled.get("pricePerHourAfter").asDouble()).isLessThanOrEqualTo(settled.get("packingBoundPerHour").asDouble() + 1e-9);
    }

    // ---------------------------------------------------------------- terminal and terminating pods

    @Test
    @DisplayName("emptiness_test.go: will consider a node with terminating Deployment pods as empty; "
            + "suite_test.go: should consider candidates that have do-not-disrupt terminal pods")
    void terminalAndTerminatingPodsDoNotKeepANode() {
        DumpCase c = c().add(DumpNode.named("done").type("c6a.large")).daemons("done")
                .add(DumpPod.named("batch", "report-1").owner("Job", "report").on("done").succeeded().doNotDisrupt("true"))
                .add(DumpPod.named("batch", "report-2").owner("Job", "report").on("done").failed())
                .add(DumpPod.named("web-1").on("done").deleting(NOW.minusSeconds(10)))
                .add(DumpNode.named("busy").type("c6a.large")).add(DumpPod.named("web-2").on("busy").requests("1500m", "1Gi"));
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("EMPTY");
        assertThat(removed(d)).containsExactly("done");
    }

    @Test
    @DisplayName("emptiness_test.go: will not consider a node with a terminating StatefulSet pod as empty")
    void aTerminatingStatefulSetPodStillNeedsItsRoom() {
        DumpCase c = c().add(DumpNode.named("db").type("c6a.large"))
                .add(DumpPod.named("db-0").owner("StatefulSet", "db").on("db").requests("1500m", "1Gi").deleting(NOW.minusSeconds(10)))
                .add(DumpNode.named("busy").type("c6a.large")).add(DumpPod.named("web-2").on("busy").requests("1500m", "1Gi"));
        JsonNode d = c.consolidate();
        assertThat(removed(d)).doesNotContain("db");
    }

    // ---------------------------------------------------------------- do-not-disrupt durations

    @Test
    @DisplayName("consolidation_test.go: does not consolidate nodes with pods that have a duration-based do-not-disrupt "
            + "annotation that is still active (measured from the pod's start)")
    void aDoNotDisruptDurationCountsFromThePodsStart() {
        DumpCase c = c().add(DumpNode.named("a").type("c6a.large"))
                // Pending for an hour, started five minutes ago: still protected by its 30m.
                .add(DumpPod.named("late-1").on("a").requests("500m", "512Mi").doNotDisrupt("30m")
                        .created(NOW.minusSeconds(3600)).started(NOW.minusSeconds(300)))
                .add(DumpNode.named("b").type("c6a.large"))
                .add(DumpPod.named("old-1").on("b").requests("500m", "512Mi").doNotDisrupt("30m")
                        .created(NOW.minusSeconds(7200)).started(NOW.minusSeconds(7100)));
        JsonNode d = c.consolidate();
        assertThat(why(d, "a")).contains("karpenter.sh/do-not-disrupt");
        assertThat(removed(d)).containsExactly("b");
    }

    @Test
    @DisplayName("consolidation_test.go: can delete nodes, considers invalid do-not-disrupt annotation format as not blocking")
    void anInvalidDoNotDisruptValueDoesNotBlock() {
        DumpCase c = c().add(DumpNode.named("a").type("c6a.large")).add(DumpPod.named("x-1").on("a").requests("500m", "512Mi"))
                .add(DumpNode.named("b").type("c6a.large")).add(DumpPod.named("y-1").on("b").requests("500m", "512Mi")
                        .doNotDisrupt("invalid-format"));
        assertThat(removed(c.consolidate())).hasSize(1);
    }

    // ---------------------------------------------------------------- node state

    @Test
    @DisplayName("suite_test.go: should not consider candidates that aren't yet initialized; consolidation_test.go: won't "
            + "delete node if it would require pods to schedule on an uninitialized node")
    void anUninitializedNodeIsNeitherCandidateNorDestination() {
        DumpCase c = c().add(DumpNode.named("a").type("c6a.large")).add(DumpPod.named("web-1").on("a").requests("500m", "512Mi"))
                .add(DumpNode.named("starting").type("c6a.large").uninitialized().created(NOW.minusSeconds(60)));
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("none");
        assertThat(why(d, "starting")).contains("isn't initialized");
    }

    @Test
    @DisplayName("consolidation_test.go: should not consolidate pods onto a destination node that is under its "
            + "consolidateAfter window")
    void aDestinationWithinConsolidateAfterTakesNoPods() {
        DumpCase c = c().disruption("WhenEmptyOrUnderutilized", "10m", "100%")
                .add(DumpNode.named("recent").type("c6a.large"))
                .add(DumpPod.named("web-1").on("recent").requests("500m", "512Mi").scheduled(NOW.minusSeconds(60)))
                .add(DumpNode.named("old").type("c6a.large"))
                .add(DumpPod.named("web-2").on("old").requests("500m", "512Mi").scheduled(NOW.minusSeconds(7200)));
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("none");
        assertThat(why(d, "recent")).contains("consolidateAfter");
    }

    @Test
    @DisplayName("suite_test.go: should not consider nodes that are not initialized as part of disruption count")
    void uninitializedNodesDoNotWidenTheBudget() {
        DumpCase c = c().disruption("WhenEmptyOrUnderutilized", "0s", "50%");
        for (int i = 0; i < 8; i++) {
            c.add(DumpNode.named("empty-" + i).type("c6a.large"));
        }
        for (int i = 0; i < 4; i++) {
            c.add(DumpNode.named("starting-" + i).type("c6a.large").uninitialized().created(NOW.minusSeconds(30)));
        }
        assertThat(removed(c.consolidate())).hasSize(4);
    }

    @Test
    @DisplayName("suite_test.go: should consider not ready nodes to the disruption count; should consider nodes with a "
            + "deletion timestamp set and MarkedForDeletion to the disruption count")
    void notReadyAndDeletingNodesUseUpTheBudget() {
        DumpCase c = c().disruption("WhenEmptyOrUnderutilized", "0s", "50%");
        for (int i = 0; i < 8; i++) {
            c.add(DumpNode.named("empty-" + i).type("c6a.large"));
        }
        c.add(DumpNode.named("sick").type("c6a.large").notReady()).add(DumpPod.named("web-1").on("sick"))
                .add(DumpNode.named("leaving").type("c6a.large").deleting(NOW.minusSeconds(30)));
        // roundup(10 x 50%) = 5, less the NotReady and the deleting node.
        assertThat(removed(c.consolidate())).hasSize(3);
    }

    // ---------------------------------------------------------------- pending pods

    @Test
    @DisplayName("emptiness_test.go: considers pending pods when consolidating")
    void aPendingPodKeepsTheRoomItNeeds() {
        DumpCase c = c().add(DumpNode.named("big").type("c6a.4xlarge")).add(DumpPod.named("web-1").on("big").requests("1", "1Gi"))
                .add(DumpPod.named("huge-1").pending().requests("14", "8Gi"));
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("none");
    }

    @Test
    @DisplayName("consolidation_test.go: can delete nodes with a permanently pending pod")
    void aPodThatFitsNowhereBlocksNothing() {
        DumpCase c = c().add(DumpNode.named("a").type("c6a.large")).add(DumpPod.named("x-1").on("a").requests("500m", "512Mi"))
                .add(DumpNode.named("b").type("c6a.large")).add(DumpPod.named("y-1").on("b").requests("500m", "512Mi"))
                .add(DumpPod.named("nowhere-1").pending().nodeSelector("non-existent", "node-label"));
        assertThat(removed(c.consolidate())).hasSize(1);
    }

    // ---------------------------------------------------------------- PodDisruptionBudgets

    @Test
    @DisplayName("consolidation_test.go Delete: can delete nodes, considers PDB")
    void aBudgetWithNoDisruptionAllowedBlocks() {
        DumpCase c = c().add(DumpNode.named("a").type("c6a.large")).add(DumpPod.named("db-1").label("app", "db").on("a"))
                .add(DumpNode.named("b").type("c6a.large")).add(DumpPod.named("web-1").on("b"))
                .add(DumpPdb.named("default", "db").allowed(0));
        JsonNode d = c.consolidate();
        assertThat(why(d, "a")).contains("pdb \"default/db\" prevents pod evictions");
        assertThat(removed(d)).containsExactly("b");
    }

    @Test
    @DisplayName("consolidation_test.go Replace: can replace nodes, considers PDB policy (AlwaysAllow, unready pods)")
    void anAlwaysAllowBudgetDoesNotHoldUnreadyPods() {
        DumpCase c = c().add(DumpNode.named("a").type("m6a.xlarge"));
        for (int i = 0; i < 3; i++) {
            c.add(DumpPod.named("api-" + i).label("app", "api").on("a").requests("200m", "256Mi").notReady());
        }
        c.add(DumpPdb.named("default", "api").app("api").allowed(0).alwaysAllowUnhealthy());
        JsonNode d = c.consolidate();
        assertThat(removed(d)).containsExactly("a");
        assertThat(d.get("command").get("launch").get(0).get("instanceType").asText()).isEqualTo("c6a.large");
    }

    // ---------------------------------------------------------------- minValues, static pools, emptiness first

    @Test
    @DisplayName("consolidation_test.go Replace: spot to spot consolidation should consider the max of default and minimum "
            + "number of instanceTypeOptions from minValues in requirement for truncation if minimum number of "
            + "instanceTypeOptions from minValues in requirement is greater than 15.")
    void spotToSpotOffersAsManyOptionsAsMinValuesNeeds() {
        DumpCase c = c().spotAndOnDemand().requirement("{key: node.kubernetes.io/instance-type, operator: Exists, minValues: 16}")
                .add(DumpNode.named("a").type("m6a.4xlarge").spot()).add(DumpPod.named("web-1").on("a").requests("500m", "512Mi"));
        JsonNode d = c.consolidate("--spot-to-spot");
        JsonNode launch = d.get("command").get("launch").get(0);
        assertThat(launch.get("capacityType").asText()).isEqualTo("spot");
        assertThat(launch.get("instanceTypeOptions").size()).isEqualTo(16);
    }

    @Test
    @DisplayName("consolidation_test.go Replace: should handle failing filterOutSameInstanceType correctly (without a panic) "
            + "when minValues isn't satisfied (a replacement must keep the pool's minValues after the price filter)")
    void aReplacementThatWouldBreakMinValuesIsNoReplacement() {
        DumpCase c = c().requirement("{key: node.kubernetes.io/instance-type, operator: Exists, minValues: 40}")
                .add(DumpNode.named("a").type("c6a.xlarge")).add(DumpPod.named("web-1").on("a").requests("500m", "512Mi"));
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("none");
        assertThat(why(d, "a")).contains("minValues requirement is not met");
    }

    @Test
    @DisplayName("consolidation_test.go Static NodePool: should not consolidate static NodePool nodes; emptiness_test.go "
            + "Static NodePool: should not consolidate static NodePool nodes")
    void staticPoolsAreNeverConsolidated() {
        DumpCase c = c().replicas(2).add(DumpNode.named("s-1").type("c6a.large")).add(DumpNode.named("s-2").type("m6a.2xlarge"))
                .add(DumpPod.named("web-1").on("s-2").requests("100m", "128Mi"));
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("none");
        assertThat(why(d, "s-1")).contains("static");
    }

    @Test
    @DisplayName("controller.go: methods in order, emptiness first (three empty nodes go before any re-pack)")
    void emptyNodesGoFirst() {
        DumpCase c = c();
        for (int i = 0; i < 3; i++) {
            c.add(DumpNode.named("empty-" + i).type("c6a.large")).daemons("empty-" + i);
        }
        for (int i = 0; i < 4; i++) {
            String n = "under-" + i;
            c.add(DumpNode.named(n).type("m6a.xlarge")).daemons(n).add(DumpPod.named("app-" + i).on(n).requests("600m", "1Gi"));
        }
        JsonNode d = c.consolidate();
        assertThat(method(d)).isEqualTo("EMPTY");
        assertThat(removed(d)).containsExactlyInAnyOrder("empty-0", "empty-1", "empty-2");
    }
}
