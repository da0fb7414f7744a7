package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.config;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.headroom.InMemoryDemandHistoryStore;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.termination.TerminationMarkers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue #21, defect 3: the pods of nodes on their way out are planned with the pending ones, so their capacity is
 * launched before they are evicted, sized for them, once.
 */
class LeavingNodesTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);
    private final InMemoryDemandHistoryStore demand = new InMemoryDemandHistoryStore();

    private Provisioner provisioner() {
        return new Provisioner(cluster, cluster, store, cloud, provider(), config(pool("default", null)), clock)
                .withDemandHistory(demand);
    }

    /** An m5.large of the pool, its claim stored: marked for deletion ({@code reason}) or not (null). */
    private void node(String name, String reason, boolean tainted) {
        String id = "i-" + name;
        NodeClaim c = NodeClaim.launching(name, "default", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", ZONE_A,
                        "on-demand", 0.096, T0.minusSeconds(3600))
                .launched(id, "m5.large", ZONE_A, "on-demand", 0.096, T0.minusSeconds(3600))
                .registered(name, T0.minusSeconds(3500)).initialized(T0.minusSeconds(3500));
        store.create(reason == null ? c : c.draining(reason, T0.minusSeconds(1)));
        cluster.putNode(new Node(name, "aws:///" + ZONE_A + "/" + id, Map.of(WellKnownLabels.NODEPOOL, "default",
                WellKnownLabels.INSTANCE_TYPE, "m5.large", WellKnownLabels.ZONE, ZONE_A, WellKnownLabels.ARCH, "amd64",
                WellKnownLabels.CAPACITY_TYPE, "on-demand"), Map.of(), tainted ? List.of(Taint.DISRUPTED) : List.of(),
                new Resources(2000, 8L << 30, 100L << 30, 110, Map.of()), true, tainted, false, T0.minusSeconds(3500)));
    }

    private static Pod.Builder running(String name, String node) {
        return pending(name, 500, 256).nodeName(node).owner("ReplicaSet", "web").labels(Map.of("app", "web"))
                .status(new Pod.Status("Running", false, T0.minusSeconds(600), null, null));
    }

    @Test
    void theReplacementForADrainingNodesPodsIsLaunchedBeforeTheyAreEvicted() {
        node("old", "expired", true);
        for (int i = 0; i < 3; i++) {
            cluster.putPod(running("web-" + i, "old").build());
        }

        ProvisioningOutcome out = provisioner().provision();

        assertThat(out.launched()).hasSize(1);
        NodeClaim replacement = store.get(out.launched().getFirst().claim(), T0).orElseThrow();
        assertThat(replacement.pods()).containsExactlyInAnyOrder("default/web-0", "default/web-1", "default/web-2");
        assertThat(replacement.name()).as("named apart from the claim its pods first launched").isNotEqualTo("old");
        assertThat(store.marker(TerminationMarkers.REPLACEMENTS_PLANNED)).contains(T0);
        // Running pods: no nomination, no Event, not in the outcome, not pending demand.
        assertThat(out.pendingPods()).isZero();
        assertThat(out.nominations()).isEmpty();
        assertThat(cluster.events()).isEmpty();
        assertThat(demand.read(T0).samples()).isEmpty();
    }

    /**
     * A Terminated claim never matches a node ({@link dev.gantry.core.lifecycle.ClaimsByNode}): the EC2 host name it
     * registered with now names another instance's node, which is not leaving. Was: matched by that name, the node read
     * as leaving (its claim "deleting") and its pods got a replacement launched for them.
     */
    @Test
    void aNodeUnderTheReusedNameOfATerminatedClaimIsNotLeaving() {
        node("ip-10-0-0-1", "expired", false);
        store.update(store.get("ip-10-0-0-1", T0).orElseThrow().terminated(T0.minusSeconds(60), Duration.ofHours(1)));
        Node was = cluster.node("ip-10-0-0-1");
        cluster.putNode(new Node(was.name(), "aws:///" + ZONE_A + "/i-new", was.labels(), Map.of(), List.of(), was.allocatable(),
                true, false, false, T0.minusSeconds(30)));
        cluster.putPod(running("web-0", "ip-10-0-0-1").build());

        assertThat(provisioner().provision().launched()).isEmpty();
        assertThat(cloud.requests()).isEmpty();
    }

    @Test
    void aSecondRunWhileTheReplacementBootsLaunchesNothingMore() {
        node("old", "expired", true);
        cluster.putPod(running("web-0", "old").build());
        Provisioner p = provisioner();
        p.provision();

        clock.advance(Duration.ofSeconds(10));
        ProvisioningOutcome again = p.provision();

        assertThat(again.launched()).isEmpty();
        assertThat(cloud.requests()).hasSize(1);
    }

    @Test
    void aPodThatGoesPendingWhileTheReplacementBootsGetsCapacityOfItsOwn() {
        // Was: the booting replacement looked empty, the new pod was planned into its room, and at hand-off the
        // evicted pods found it taken.
        node("old", "expired", true);
        for (int i = 0; i < 3; i++) {
            cluster.putPod(running("web-" + i, "old").build());
        }
        Provisioner p = provisioner();
        p.provision();

        cluster.putPod(pending("late", 1500, 256).build());
        clock.advance(Duration.ofSeconds(10));
        ProvisioningOutcome out = p.provision();

        // Whichever of the two it lands on, there is room for it and for the three.
        assertThat(out.launched()).hasSize(1);
        assertThat(out.nominations()).containsKey("default/late");
    }

    @Test
    void aLeavingNodesPodsStayWithTheClaimRecordedForThemWhenMoreNodesLeave() {
        // A later plan re-packed every leaving pod (the first node's onto the second's new claim, the second's into the
        // first's spare room in flight), so a drain found no claim recorded for its pods still booting, and evicted
        // them into a wait.
        node("first", "expired", true);
        cluster.putPod(running("a-0", "first").build());
        Provisioner p = provisioner();
        p.provision();
        NodeClaim forFirst = store.list(T0).stream().filter(c -> c.pods().contains("default/a-0")).findFirst().orElseThrow();

        node("second", "expired", true);
        for (int i = 0; i < 3; i++) {
            cluster.putPod(running("b-" + i, "second").build());
        }
        clock.advance(Duration.ofSeconds(10));
        ProvisioningOutcome out = p.provision();

        assertThat(out.launched()).isNotEmpty();
        for (ProvisioningOutcome.LaunchedClaim l : out.launched()) {
            assertThat(store.get(l.claim(), clock.instant()).orElseThrow().pods()).allMatch(k -> k.startsWith("default/b-"));
        }
        assertThat(store.get(forFirst.name(), clock.instant()).orElseThrow().state().isInFlight()).isTrue();
    }

    @Test
    void aClaimMarkedForDeletionBeforeItsNodeIsTaintedIsLeavingToo() {
        node("old", "expired", false);
        cluster.putPod(running("web-0", "old").build());

        assertThat(provisioner().provision().launched()).hasSize(1);
    }

    @Test
    void podsThatWillNotMoveGetNoCapacity() {
        node("old", "expired", true);
        cluster.putPod(running("daemon", "old").owner("DaemonSet", "agent").build());
        cluster.putPod(running("done", "old").status(new Pod.Status("Succeeded", false, T0, null, null)).build());
        cluster.putPod(running("going", "old").status(new Pod.Status("Running", false, T0, T0, null)).build());
        cluster.putPod(running("pinned", "old").annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build());
        cluster.putPod(running("guarded", "old").labels(Map.of("app", "guarded")).build());
        cluster.putPdb(new PodDisruptionBudget("default", "guarded", LabelSelector.of(Map.of("app", "guarded")), null, "0", 0));
        cluster.putPod(running("twice", "old").labels(Map.of("app", "twice")).build());
        cluster.putPdb(new PodDisruptionBudget("default", "twice-a", LabelSelector.of(Map.of("app", "twice")), "1", null, 1));
        cluster.putPdb(new PodDisruptionBudget("default", "twice-b", LabelSelector.of(Map.of("app", "twice")), "1", null, 1));

        ProvisioningOutcome out = provisioner().provision();

        assertThat(out.launched()).isEmpty();
        assertThat(cloud.requests()).isEmpty();
    }

    @Test
    void aStatefulSetPodBeingDeletedStillGetsRoomForItsSuccessor() {
        node("old", "expired", true);
        cluster.putPod(running("db-0", "old").owner("StatefulSet", "db")
                .status(new Pod.Status("Running", false, T0, T0, null)).build());

        assertThat(provisioner().provision().launched()).hasSize(1);
    }

    @Test
    void podsOfALeavingNodeGoToRoomOnANodeThatStaysBeforeAnythingIsLaunched() {
        node("old", "expired", true);
        node("stays", null, false);
        cluster.putPod(running("web-0", "old").build());

        ProvisioningOutcome out = provisioner().provision();

        assertThat(out.launched()).isEmpty();
        assertThat(store.marker(TerminationMarkers.REPLACEMENTS_PLANNED)).as("planned: room found").contains(T0);
    }

    @Test
    void consolidationCandidatesArePlannedOntoTheirOwnReplacementAndNothingMoreIsLaunched() {
        // The command recorded its replacement (Launching), then tainted its candidate; the provisioner launches the
        // replacement and plans the candidate's pods onto it, in flight.
        node("candidate", null, true);
        for (int i = 0; i < 3; i++) {
            cluster.putPod(running("web-" + i, "candidate").build());
        }
        store.create(NodeClaim.launching("cmd-1-r0", "default", "h", List.of(), List.of("m5.large"),
                List.of("default/web-0", "default/web-1", "default/web-2"), "m5.large", ZONE_A, "on-demand", 0.096, T0)
                .launchedByConsolidation());

        ProvisioningOutcome out = provisioner().provision();

        assertThat(out.resumed()).containsExactly("cmd-1-r0");
        assertThat(out.launched()).extracting(ProvisioningOutcome.LaunchedClaim::claim).containsExactly("cmd-1-r0");
        assertThat(store.list(T0)).extracting(NodeClaim::name).containsExactlyInAnyOrder("candidate", "cmd-1-r0");
    }

    @Test
    void aPodThatGoesPendingWhileAConsolidationReplacementBootsGetsCapacityOfItsOwn() {
        // Was: the replacement in flight looked empty, the new pod was nominated into its room and nothing launched, so
        // at hand-off the candidate's evicted pods found it taken and waited a whole boot.
        node("candidate", null, true);
        for (int i = 0; i < 3; i++) {
            cluster.putPod(running("web-" + i, "candidate").build());
        }
        store.create(NodeClaim.launching("cmd-1-r0", "default", "h", List.of(), List.of("m5.large"),
                List.of("default/web-0", "default/web-1", "default/web-2"), "m5.large", ZONE_A, "on-demand", 0.096, T0)
                .launchedByConsolidation());
        Provisioner p = provisioner();
        p.provision();

        cluster.putPod(pending("late", 1500, 256).build());
        clock.advance(Duration.ofSeconds(10));
        ProvisioningOutcome out = p.provision();

        assertThat(out.launched()).as("capacity of its own for the late pod").hasSize(1);
        assertThat(out.nominations()).containsEntry("default/late", out.launched().getFirst().claim());
    }

    /**
     * A consolidation command in phase Launching: {@code candidate} (its leader, tainted) is to be replaced by the claims
     * named in {@code replacements}, each recorded Launching with its capacity type and pods.
     */
    private void command(String candidate, List<String> replacements, List<String> capacityTypes, List<List<String>> pods) {
        ConsolidationMark m = new ConsolidationMark("cmd-1", candidate, ConsolidationMark.Phase.Launching, 2,
                List.of(candidate), List.of(candidate), replacements, "underutilized", 0.096, 0.06, T0.minusSeconds(20),
                T0.plusSeconds(600), T0.minusSeconds(5));
        store.update(store.get(candidate, T0).orElseThrow().withConsolidation(m));
        for (int i = 0; i < replacements.size(); i++) {
            store.create(NodeClaim.launching(replacements.get(i), "default", "h",
                            List.of(ProvisioningFixtures.req(WellKnownLabels.CAPACITY_TYPE, capacityTypes.get(i)),
                                    ProvisioningFixtures.req(WellKnownLabels.ZONE, ZONE_A)),
                            List.of("m5.large"), pods.get(i), "m5.large", ZONE_A, capacityTypes.get(i), 0.03, T0)
                    .launchedByConsolidation().withConsolidation(m));
        }
    }

    @Test
    void whenACommandsSpotReplacementFindsNoCapacityItsOtherReplacementIsNotLaunched() {
        // Was (the spot split storm scenario): r0, on-demand, launched; r1, spot, failed; the command was aborted and r0
        // terminated without having run a pod, once a minute for the whole storm. Now the spot one goes first and its
        // failure leaves r0 unlaunched (closed when the command is aborted), and the candidate's pods get nothing new.
        node("candidate", null, true);
        for (int i = 0; i < 3; i++) {
            cluster.putPod(running("web-" + i, "candidate").build());
        }
        command("candidate", List.of("cmd-1-r0", "cmd-1-r1"), List.of("on-demand", "spot"),
                List.of(List.of("default/web-0"), List.of("default/web-1", "default/web-2")));
        cloud.fail("m5.large", ZONE_A, "spot");

        ProvisioningOutcome out = provisioner().provision();

        assertThat(cloud.instances()).as("nothing launched").isEmpty();
        assertThat(out.launched()).isEmpty();
        assertThat(store.get("cmd-1-r0", T0).orElseThrow().state()).as("left for the abort to close").isEqualTo(NodeClaimState.Launching);
        assertThat(store.list(T0)).extracting(NodeClaim::name).containsExactlyInAnyOrder("candidate", "cmd-1-r0", "cmd-1-r1");

        // The same hint delivered again (or the next run before the abort): the store says the command is lost.
        clock.advance(Duration.ofSeconds(2));
        assertThat(provisioner().provision().launched()).isEmpty();
        assertThat(cloud.instances()).isEmpty();
        assertThat(store.get("cmd-1-r0", T0).orElseThrow().state()).isEqualTo(NodeClaimState.Launching);
    }

    @Test
    void aLostCommandsCandidateIsNotLeavingAndAPodThatGoesPendingIsPlannedIntoItsRoom() {
        // r1 failed in an earlier run; the command is aborted at its next look and its candidate untainted. Until then
        // its pods stay (no capacity for them), and its room is the room a pending pod will be bound to.
        node("candidate", null, true);
        Node tainted = cluster.nodes().getFirst(); // consolidation taints its candidates, it does not cordon them
        cluster.putNode(new Node(tainted.name(), tainted.providerId(), tainted.labels(), tainted.annotations(), tainted.taints(),
                tainted.allocatable(), true, false, true, tainted.createdAt()));
        cluster.putPod(running("web-0", "candidate").build());
        command("candidate", List.of("cmd-1-r0", "cmd-1-r1"), List.of("on-demand", "spot"),
                List.of(List.of(), List.of("default/web-0")));
        NodeClaim r1 = store.get("cmd-1-r1", T0).orElseThrow();
        store.update(r1.draining("launch-failed", T0).terminated(T0, Provisioner.RETENTION));
        cluster.putPod(pending("late", 500, 256).build());

        ProvisioningOutcome out = provisioner().provision();

        assertThat(cloud.instances()).as("nothing launched").isEmpty();
        assertThat(out.unschedulable()).isEmpty();
        assertThat(PlanningInputs.leaving(ClusterView.read(cluster), store.list(T0))).isEmpty();
        assertThat(store.get("cmd-1-r0", T0).orElseThrow().state()).isEqualTo(NodeClaimState.Launching);
    }
}
