package dev.gantry.kube.objects.dump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.DumpPdb;
import dev.gantry.testing.dumps.DumpPod;
import dev.gantry.testing.dumps.KubeDump;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a dump's objects mean once mapped: each class of fact the old dump reader missed (issue #22's list), read from
 * objects as the API server writes them.
 */
class DumpMappingTest {
    private static final Instant NOW = DumpNode.NOW;

    @TempDir
    Path dir;

    private ClusterDump read(KubeDump d) {
        try {
            return ClusterDump.read(List.of(Files.writeString(dir.resolve("c.yaml"), d.yaml())), DumpProgress.NONE);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Map<String, Pod> byName(ClusterDump d) {
        return d.pods().stream().collect(Collectors.toMap(Pod::name, Function.identity()));
    }

    @Test
    void daemonSetPodsAreTheDaemonSetsAndItsTemplateIsNotPinnedToTheirNode() {
        ClusterDump d = read(new KubeDump().add(DumpNode.named("n1")).add(DumpNode.named("n2"))
                .add(DumpPod.daemonSet("kube-system", "aws-node", "n1", "25m", "128Mi"))
                .add(DumpPod.daemonSet("kube-system", "aws-node", "n2", "25m", "128Mi")));
        assertThat(d.pods()).allSatisfy(p -> assertThat(p.isDaemon()).isTrue()).extracting(Pod::ownerName).containsOnly("aws-node");
        DaemonSet ds = d.daemonSets().getFirst();
        assertThat(d.daemonSets()).hasSize(1);
        assertThat(ds.name()).isEqualTo("aws-node");
        assertThat(ds.template().nodeName()).isNull();
        assertThat(ds.template().requiredNodeAffinity()).isEmpty();
        assertThat(ds.template().requests().cpuMillis()).isEqualTo(25);
        // The pods themselves stay pinned to their nodes, as the API server has them.
        assertThat(byName(d).values()).allSatisfy(p -> assertThat(p.requiredNodeAffinity()).hasSize(1));
    }

    @Test
    void terminalAndTerminatingPodsSayWhatTheyAre() {
        ClusterDump d = read(new KubeDump().add(DumpNode.named("n1"))
                .add(DumpPod.named("batch", "job-1").owner("Job", "job").on("n1").succeeded())
                .add(DumpPod.named("batch", "job-2").owner("Job", "job").on("n1").failed())
                .add(DumpPod.named("web-1").on("n1").deleting(NOW.minusSeconds(5))));
        Map<String, Pod> pods = byName(d);
        assertThat(pods.get("job-1").status().isTerminal()).isTrue();
        assertThat(pods.get("job-2").status().isTerminal()).isTrue();
        assertThat(pods.get("web-1").status().deletingSince()).isEqualTo(NOW.minusSeconds(5));
    }

    @Test
    void readinessAndStartTimeAreRead() {
        ClusterDump d = read(new KubeDump().add(DumpNode.named("n1"))
                .add(DumpPod.named("web-1").on("n1").notReady().started(NOW.minusSeconds(90)))
                .add(DumpPod.named("web-2").on("n1"))
                .add(DumpPod.named("web-3").pending()));
        Map<String, Pod> pods = byName(d);
        assertThat(pods.get("web-1").status().ready()).isFalse();
        assertThat(pods.get("web-1").status().startedAt()).isEqualTo(NOW.minusSeconds(90));
        assertThat(pods.get("web-2").status().ready()).isTrue();
        assertThat(pods.get("web-3").status().ready()).isNull();
        assertThat(pods.get("web-3").isProvisionable()).isTrue();
    }

    @Test
    void aBudgetKeepsItsUnhealthyPodEvictionPolicyAndAllowance() {
        ClusterDump d = read(new KubeDump().add(DumpPdb.named("default", "web").alwaysAllowUnhealthy().allowed(0)));
        PodDisruptionBudget b = d.pdbs().getFirst();
        assertThat(b.unhealthyPodEvictionPolicy()).isEqualTo("AlwaysAllow");
        assertThat(b.disruptionsAllowed()).isZero();
    }

    @Test
    void managedNodesBecomeTheClaimsTheStoreWouldHold() {
        Instant created = NOW.minusSeconds(7200);
        ClusterDump d = read(new KubeDump()
                .add(DumpNode.named("ready").created(created).readySince(created.plusSeconds(70)))
                .add(DumpNode.named("starting").uninitialized().created(NOW.minusSeconds(30)))
                .add(DumpNode.named("joining").unregistered())
                .add(DumpNode.named("group").pool(null))
                .add(DumpPod.named("web-1").on("ready").scheduled(NOW.minusSeconds(600)))
                .add(DumpPod.named("web-2").on("ready").scheduled(NOW.minusSeconds(300)))
                .add(DumpPod.daemonSet("kube-system", "kube-proxy", "ready", "100m", "64Mi").scheduled(NOW.minusSeconds(10))));
        Map<String, NodeClaim> claims = d.claims().stream().collect(Collectors.toMap(NodeClaim::nodeName, Function.identity()));
        assertThat(claims).doesNotContainKey("group");
        assertThat(claims.get("ready").state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(claims.get("ready").initializedAt()).isEqualTo(created.plusSeconds(70));
        // A DaemonSet pod is no pod event, as in Karpenter.
        assertThat(claims.get("ready").lastPodEventAt()).isEqualTo(NOW.minusSeconds(300));
        assertThat(claims.get("starting").state()).isEqualTo(NodeClaimState.Registered);
        assertThat(claims.get("starting").initializedAt()).isNull();
        assertThat(claims.get("joining").state()).isEqualTo(NodeClaimState.Launched);
    }

    @Test
    void karpentersNodeClaimsInTheDumpGiveTheirOwnTimes() {
        Map<String, Object> claim = Map.of("apiVersion", "karpenter.sh/v1", "kind", "NodeClaim",
                "metadata", Map.of("name", "default-abcde", "labels", Map.of("karpenter.sh/nodepool", "default")),
                "status", Map.of("nodeName", "n1", "lastPodEventTime", NOW.minusSeconds(42).toString(),
                        "conditions", List.of(Map.of("type", "Initialized", "status", "True",
                                "lastTransitionTime", NOW.minusSeconds(5000).toString()))));
        ClusterDump d = read(new KubeDump().add(DumpNode.named("n1")).add(claim).add(DumpPod.named("web-1").on("n1")));
        NodeClaim c = d.claims().getFirst();
        assertThat(c.name()).isEqualTo("default-abcde");
        assertThat(c.initializedAt()).isEqualTo(NOW.minusSeconds(5000));
        assertThat(c.lastPodEventAt()).isEqualTo(NOW.minusSeconds(42));
        assertThat(d.stats().nodeClaims()).isTrue();
    }

    /**
     * A node's NodeClaim is the one with its provider id before one naming it (a stale claim of a reused node name):
     * Karpenter pairs them by provider id (kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/registration.go
     * Registration.Reconcile, via NodeForNodeClaim), as Gantry's own rule does (ClaimsByNode).
     */
    @Test
    void theNodeClaimWithTheNodesProviderIdIsItsBeforeOneNamingIt() {
        Map<String, Object> stale = Map.of("apiVersion", "karpenter.sh/v1", "kind", "NodeClaim",
                "metadata", Map.of("name", "default-stale", "labels", Map.of("karpenter.sh/nodepool", "default")),
                "status", Map.of("nodeName", "n1", "providerID", "aws:///us-east-1a/i-0old"));
        Map<String, Object> fresh = Map.of("apiVersion", "karpenter.sh/v1", "kind", "NodeClaim",
                "metadata", Map.of("name", "default-fresh", "labels", Map.of("karpenter.sh/nodepool", "default")),
                "status", Map.of("providerID", "aws:///us-east-1a/i-0new"));
        ClusterDump d = read(new KubeDump().add(DumpNode.named("n1").zone("us-east-1a").instanceId("i-0new")).add(stale).add(fresh));
        assertThat(d.claims()).extracting(NodeClaim::name).containsExactly("default-fresh");
    }
}
