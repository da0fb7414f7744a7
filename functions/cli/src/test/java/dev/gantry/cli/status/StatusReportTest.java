package dev.gantry.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.cli.status.StatusSnapshot.GantryEvent;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The status view computed from a snapshot, without I/O: the part the simulator will render too. */
class StatusReportTest {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final long GI = 1L << 30;

    private static StatusSnapshot snapshot(List<NodePool> pools, List<NodeClaim> claims, List<Node> nodes, List<Pod> pods,
                                           List<GantryEvent> events, Map<String, String> plan, List<CapacityBuffer> buffers,
                                           BufferTargets targets) {
        return new StatusSnapshot(NOW, pools, claims, List.of(), nodes, pods, events, plan, buffers, targets, null,
                Duration.ofMinutes(5), List.of());
    }

    private static Pod pending(String name, boolean unschedulable) {
        return Pod.builder("web", name).status(new Pod.Status("Pending", unschedulable, NOW.minusSeconds(90), null, null)).build();
    }

    @Test
    void withoutAUsageSnapshotAPoolCountsItsNodesCapacityAgainstItsLimits() {
        NodePool pool = new NodePool("default", Map.of(), new NodePool.Template(null, null, null, null, null,
                new NodePool.NodeClassRef(null, null, "default"), null, null), null,
                Map.of("cpu", Quantity.parse("10"), "nodes", Quantity.parse("4")), null, null);
        Node n = new Node("n1", null, Map.of("karpenter.sh/nodepool", "default"), Map.of(), List.of(),
                new Resources(4000, 16 * GI, 0, 29, Map.of()), true, false, false, null);
        Pod running = Pod.builder("web", "a").nodeName("n1").status(new Pod.Status("Running", false, null, null, null)).build();
        Pod done = Pod.builder("web", "b").nodeName("n1").status(new Pod.Status("Succeeded", false, null, null, null)).build();
        StatusReport r = StatusReport.of(snapshot(List.of(pool), List.of(), List.of(n), List.of(running, done), List.of(), Map.of(),
                List.of(), null));
        StatusReport.PoolStatus p = r.pools().getFirst();
        assertThat(p.nodes()).isEqualTo(1);
        assertThat(p.usageAt()).isNull();
        assertThat(p.runningPods()).isEqualTo(1);
        assertThat(p.usage()).containsExactly(new StatusReport.Usage("cpu", 4000, 10000L),
                new StatusReport.Usage("memory", 16 * GI, null), new StatusReport.Usage("pods", 29, null),
                new StatusReport.Usage("nodes", 1, 4L));
        assertThat(StatusView.usage(p.usage().getFirst())).isEqualTo("4/10           [########------------] 40%");
    }

    @Test
    void aPoolBackingOffSaysWhatItHoldsBackAndUntilWhenInTheTableAndTheJson() {
        NodePool pool = new NodePool("default", Map.of(), new NodePool.Template(null, null, null, null, null,
                new NodePool.NodeClassRef(null, null, "default"), null, null), null, Map.of(), null, null);
        Instant until = NOW.plus(Duration.ofMinutes(4));
        StatusSnapshot s = new StatusSnapshot(NOW, List.of(pool), List.of(), List.of(), List.of(), List.of(), List.of(),
                Map.of(), List.of(), null, null, Duration.ofMinutes(5),
                List.of(new dev.gantry.core.disruption.execution.BackOffs.Held("default", "consolidation launches", until)));

        StatusReport r = StatusReport.of(s);

        assertThat(StatusView.table(r)).contains("    held     consolidation launches until 2026-12-01T10:04:00Z (4m0s more): "
                + "its last replacement failed");
        assertThat(StatusView.json(r).replaceAll("\\s", "")).contains("\"backoffs\":[{\"what\":\"consolidationlaunches\","
                + "\"until\":\"2026-12-01T10:04:00Z\"}]");
    }

    @Test
    void aPoolShowsWhatItsNodesCostPerHourNowByCapacityType() {
        NodeClaim od = NodeClaim.launching("default-a", "default", null, List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "on-demand", 0.096, NOW.minusSeconds(600))
                .launched("i-a", "m5.large", "us-east-1a", "on-demand", 0.096, NOW.minusSeconds(590));
        NodeClaim spot = NodeClaim.launching("default-b", "default", null, List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1b", "spot", 0.035, NOW.minusSeconds(600))
                .launched("i-b", "m5.large", "us-east-1b", "spot", 0.035, NOW.minusSeconds(590));
        NodeClaim gone = NodeClaim.launching("default-c", "default", null, List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1b", "spot", 0.035, NOW.minusSeconds(600))
                .launched("i-c", "m5.large", "us-east-1b", "spot", 0.035, NOW.minusSeconds(590)).terminated(NOW, Duration.ofHours(1));
        NodePool pool = new NodePool("default", Map.of(), new NodePool.Template(null, null, null, null, null,
                new NodePool.NodeClassRef(null, null, "default"), null, null), null, Map.of(), null, null);
        StatusReport r = StatusReport.of(snapshot(List.of(pool), List.of(od, spot, gone), List.of(), List.of(),
                List.of(), Map.of(), List.of(), null));
        StatusReport.PoolStatus p = r.pools().getFirst();
        assertThat(p.cost().perHour()).isEqualTo(0.131);
        assertThat(StatusView.table(r)).contains("    cost     $0.1310/h (on-demand $0.0960, spot $0.0350)\n");
        assertThat(StatusView.json(r)).contains("\"perHour\" : 0.131");
    }

    @Test
    void aPendingPodsReasonIsGantrysLastEventThenTheFreshPlanThenWhatKubeSchedulerSays() {
        List<GantryEvent> events = List.of(
                new GantryEvent(NOW.minusSeconds(60), "Pod", "web", "a", "Normal", "Nominated", "Pod should schedule on: nodeclaim/x"),
                new GantryEvent(NOW.minusSeconds(30), "Pod", "web", "a", "Warning", "FailedScheduling", "Failed to schedule pod, no room"));
        StatusReport r = StatusReport.of(snapshot(List.of(), List.of(), List.of(),
                List.of(pending("a", true), pending("b", true), pending("c", true), pending("d", false),
                        pending("bound", true).withNodeName("n1")),
                events, Map.of("web/a", "plan says a", "web/b", "plan says b"), List.of(), null));
        assertThat(r.pending()).extracting(StatusReport.PendingPod::pod, StatusReport.PendingPod::reason, StatusReport.PendingPod::source)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("web/a", "FailedScheduling: Failed to schedule pod, no room", "event"),
                        org.assertj.core.groups.Tuple.tuple("web/b", "plan says b", "plan"),
                        org.assertj.core.groups.Tuple.tuple("web/c", "not yet planned by Gantry", "none"),
                        org.assertj.core.groups.Tuple.tuple("web/d", "waiting for kube-scheduler (not marked Unschedulable)", "none"));
        assertThat(r.pending().getFirst().waiting()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void onlyTheTwentyNewestDecisionsAreListedNewestFirst() {
        List<NodeClaim> claims = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            claims.add(NodeClaim.launching("c-" + i, "default", "h", List.of(), List.of(), List.of(), "m5.large", "us-east-1a",
                    "spot", 0.1, NOW.minusSeconds(1000 - i)));
        }
        NodeClaim interrupted = claims.get(3).draining("interruption: spot interruption warning", NOW.minusSeconds(1));
        claims.set(3, interrupted);
        StatusReport r = StatusReport.of(snapshot(List.of(), claims, List.of(), List.of(), List.of(), Map.of(), List.of(), null));
        assertThat(r.decisions()).hasSize(StatusReport.DECISIONS);
        assertThat(r.decisions().getFirst()).isEqualTo(new StatusReport.Decision(NOW.minusSeconds(1), "interruption",
                "nodeclaim/c-3", "interruption: spot interruption warning"));
        assertThat(r.decisions().get(1).object()).isEqualTo("nodeclaim/c-24");
        assertThat(r.decisions().getLast().object()).isEqualTo("nodeclaim/c-6");
    }

    /** A claim closed because EC2 refused its launch is a launch that failed, in EC2's words, not a disruption. */
    @Test
    void aRefusedLaunchIsListedAsALaunchWithEc2sWords() {
        String why = NodeClaim.launchRefused("InvalidBlockDeviceMapping: CreateFleet launched no instance: Volume of size 2GB "
                + "is smaller than snapshot 'snap-0f59', expect size >= 4GB");
        NodeClaim refused = NodeClaim.launching("r", "default", "h", List.of(), List.of(), List.of(), "m5.large", "us-east-1a",
                "on-demand", 0.1, NOW.minusSeconds(10)).draining(why, NOW.minusSeconds(9)).terminated(NOW.minusSeconds(9), Duration.ofHours(1));

        StatusReport r = StatusReport.of(snapshot(List.of(), List.of(refused), List.of(), List.of(), List.of(), Map.of(), List.of(), null));

        assertThat(r.decisions().getFirst()).isEqualTo(new StatusReport.Decision(NOW.minusSeconds(9), "launch", "nodeclaim/r", why));
    }

    @Test
    void claimsAreGroupedByStateWithTheOldestOfEach() {
        NodeClaim young = NodeClaim.launching("young", "default", "h", List.of(), List.of(), List.of(), null, null, null, 0, NOW.minusSeconds(5));
        NodeClaim old = NodeClaim.launching("old", "default", "h", List.of(), List.of(), List.of(), null, null, null, 0, NOW.minusSeconds(500));
        StatusReport r = StatusReport.of(snapshot(List.of(), List.of(young, old), List.of(), List.of(), List.of(), Map.of(), List.of(), null));
        assertThat(r.claims()).containsExactly(new StatusReport.ClaimGroup(dev.gantry.core.lifecycle.NodeClaimState.Launching, 2,
                "old", Duration.ofSeconds(500)));
    }

    @Test
    void aBufferOutsideItsWindowIsListedInactiveWithItsOpening() {
        Pod chunk = Pod.builder("default", "t").requests(Resources.of(2000, 8 * GI)).build();
        CapacityBuffer b = new CapacityBuffer("default", "evening", new CapacityBuffer.PodTemplateRef("t"), 2, null, Map.of(),
                null, new CapacityBuffer.Schedule("0 18 * * *", Duration.ofHours(2)), null);
        StatusReport r = StatusReport.of(snapshot(List.of(), List.of(), List.of(), List.of(), List.of(), Map.of(), List.of(b),
                BufferTargets.of(List.of(new BufferTargets.Target("default", "PodTemplate", "t", chunk, 0)))));
        assertThat(r.buffers().getFirst().nextOpening()).isEqualTo(Instant.parse("2026-12-01T17:55:00Z"));
        assertThat(StatusView.table(r)).contains("default/evening              inactive   outside its schedule, opens 2026-12-01T17:55:00Z");
    }
}
