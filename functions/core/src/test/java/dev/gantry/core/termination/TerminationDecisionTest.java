package dev.gantry.core.termination;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.daemon;
import static dev.gantry.core.lifecycle.LifecycleFixtures.initialized;
import static dev.gantry.core.lifecycle.LifecycleFixtures.node;
import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.termination.TerminationCommand.ContinueAfter;
import dev.gantry.core.termination.TerminationCommand.DeleteNode;
import dev.gantry.core.termination.TerminationCommand.DeletePod;
import dev.gantry.core.termination.TerminationCommand.Evict;
import dev.gantry.core.termination.TerminationCommand.MarkTerminated;
import dev.gantry.core.termination.TerminationCommand.RemoveFinalizer;
import dev.gantry.core.termination.TerminationCommand.TaintNode;
import dev.gantry.core.termination.TerminationCommand.TerminateInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TerminationDecisionTest {
    final NodeClaim claim = initialized("a", "default").draining("interruption", T0);
    final Node plain = node("a", "default");
    final Node tainted = new Node(plain.name(), plain.providerId(), Map.of(TerminationDecision.EXCLUDE_FROM_LB, "true"),
            Map.of(), List.of(Taint.DISRUPTED), plain.allocatable(), true, true, false, plain.createdAt(), plain.finalizers(), null);
    final String n = plain.name();

    List<TerminationCommand> next(Node node, List<Pod> pods, List<PodDisruptionBudget> pdbs, boolean va, Instant now,
                                  Optional<Duration> grace, Optional<Instant> deadline) {
        return TerminationDecision.next(claim, Optional.ofNullable(node), pods, pdbs, va, now, grace, deadline, false);
    }

    List<TerminationCommand> next(Node node, List<Pod> pods) {
        return next(node, pods, List.of(), false, T0, Optional.empty(), Optional.empty());
    }

    @Test
    void firstSliceTaintsTheNodeAndEvictsTheFirstTier() {
        Pod web = pod("web", n);
        List<TerminationCommand> c = next(plain, List.of(web));
        assertThat(c.get(0)).isEqualTo(new TaintNode(n));
        assertThat(c).contains(new Evict(web));
        assertThat(c.getLast()).isInstanceOf(ContinueAfter.class);
    }

    @Test
    void anAlreadyTaintedNodeIsNotTaintedAgain() {
        assertThat(next(tainted, List.of(pod("web", n)))).noneMatch(c -> c instanceof TaintNode);
    }

    @Test
    void aPartlyTaintedNodeIsTaintedAgain() {
        Node cordonedOnly = new Node(n, plain.providerId(), Map.of(), Map.of(), List.of(), plain.allocatable(), true, true,
                false, plain.createdAt(), plain.finalizers(), null);
        assertThat(next(cordonedOnly, List.of())).first().isEqualTo(new TaintNode(n));
    }

    @Test
    void evictsTiersInKubernetesShutdownOrder() {
        Pod web = pod("web", n);
        Pod ds = daemon("ds", n);
        Pod dns = pod("dns", n).toBuilder().priorityClassName("system-cluster-critical").build();
        Pod proxy = daemon("proxy", n).toBuilder().priorityClassName("system-node-critical").build();
        List<Pod> all = new ArrayList<>(List.of(proxy, dns, ds, web));
        List<Pod> order = new ArrayList<>();
        while (!all.isEmpty()) {
            List<Pod> evicted = next(tainted, all).stream().filter(c -> c instanceof Evict).map(c -> ((Evict) c).pod()).toList();
            assertThat(evicted).hasSize(1);
            order.addAll(evicted);
            all.removeAll(evicted);
        }
        assertThat(order).containsExactly(web, ds, dns, proxy);
    }

    @Test
    void skipsPodsThatTolerateTheDisruptedTaintMirrorPodsAndTerminalPods() {
        Pod tolerant = pod("tolerant", n).toBuilder().tolerations(List.of(Toleration.exists("karpenter.sh/disrupted"))).build();
        Pod tolerateAll = pod("all", n).toBuilder().tolerations(List.of(new Toleration("", Toleration.Operator.Exists, "", null))).build();
        Pod mirror = pod("static", n).toBuilder().owner("Node", n).build();
        Pod done = pod("job", n).toBuilder().status(new Pod.Status("Succeeded", false, T0, null, null)).build();
        List<TerminationCommand> c = next(tainted, List.of(tolerant, tolerateAll, mirror, done));
        assertThat(c).noneMatch(x -> x instanceof Evict || x instanceof ContinueAfter).last().isInstanceOf(MarkTerminated.class);
    }

    @Test
    void doNotDisruptPodsAreWaitedForNotEvicted() {
        Pod keep = pod("keep", n).toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        List<TerminationCommand> c = next(tainted, List.of(keep), List.of(), false, T0.plusSeconds(60),
                Optional.of(Duration.ofHours(1)), Optional.empty());
        assertThat(c).noneMatch(x -> x instanceof Evict || x instanceof DeletePod);
        assertThat(c).singleElement().isInstanceOf(ContinueAfter.class);
    }

    @Test
    void doNotDisruptPodsHoldLaterTiers() {
        Pod keep = pod("keep", n).toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        assertThat(next(tainted, List.of(keep, daemon("ds", n)))).noneMatch(x -> x instanceof Evict);
    }

    @Test
    void podsBlockedByAPdbWithNoDisruptionsLeftAreNotTriedButWaitedFor() {
        Pod web = pod("web", n);
        PodDisruptionBudget pdb = new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), "1", null, 0);
        List<TerminationCommand> c = next(tainted, List.of(web), List.of(pdb), false, T0, Optional.empty(), Optional.empty());
        assertThat(c).singleElement().isInstanceOf(ContinueAfter.class);
        assertThat(((ContinueAfter) c.get(0)).why()).contains("1 blocked");
    }

    @Test
    void podsAlreadyTerminatingAreWaitedForWithoutANewEviction() {
        Pod going = pod("going", n).toBuilder().status(new Pod.Status("Running", false, T0, T0, 30L)).build();
        assertThat(next(tainted, List.of(going), List.of(), false, T0.plusSeconds(10), Optional.empty(), Optional.empty()))
                .singleElement().isInstanceOf(ContinueAfter.class);
    }

    @Test
    void podsStuckTerminatingAreNoLongerWaitedFor() {
        Pod stuck = pod("stuck", n).toBuilder().status(new Pod.Status("Running", false, T0, T0, 30L)).build();
        assertThat(next(tainted, List.of(stuck), List.of(), false, T0.plus(Duration.ofMinutes(2)), Optional.empty(), Optional.empty()))
                .last().isInstanceOf(MarkTerminated.class);
    }

    @Test
    void whenTheGracePeriodRunsOutRemainingPodsAreDeletedAndTheFlowFinishes() {
        Pod keep = pod("keep", n).toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        Pod web = pod("web", n);
        PodDisruptionBudget pdb = new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), "1", null, 0);
        List<TerminationCommand> c = next(tainted, List.of(keep, web), List.of(pdb), false, T0.plus(Duration.ofHours(1)),
                Optional.of(Duration.ofHours(1)), Optional.empty());
        assertThat(c).contains(new DeletePod(keep), new DeletePod(web)).noneMatch(x -> x instanceof Evict);
        assertThat(c.getLast()).isEqualTo(new MarkTerminated("a"));
    }

    @Test
    void podsAreDeletedEarlyEnoughForTheirOwnGracePeriod() {
        Pod slow = pod("slow", n).toBuilder().status(new Pod.Status("Running", false, T0, null, 120L)).build();
        PodDisruptionBudget pdb = new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), "1", null, 0);
        Duration grace = Duration.ofMinutes(10);
        assertThat(next(tainted, List.of(slow), List.of(pdb), false, T0.plus(Duration.ofMinutes(7)), Optional.of(grace), Optional.empty()))
                .noneMatch(x -> x instanceof DeletePod);
        assertThat(next(tainted, List.of(slow), List.of(pdb), false, T0.plus(Duration.ofMinutes(8)), Optional.of(grace), Optional.empty()))
                .contains(new DeletePod(slow));
    }

    @Test
    void aDeadlineCapsTheGracePeriod() {
        Pod keep = pod("keep", n).toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        Instant deadline = T0.plus(Duration.ofMinutes(2));
        assertThat(next(tainted, List.of(keep), List.of(), false, deadline, Optional.of(Duration.ofHours(24)), Optional.of(deadline)))
                .contains(new DeletePod(keep));
    }

    @Test
    void continueAfterNeverSleepsPastTheGraceExpiry() {
        Pod keep = pod("keep", n).toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        List<TerminationCommand> c = next(tainted, List.of(keep), List.of(), false, T0.plusSeconds(28),
                Optional.empty(), Optional.of(T0.plusSeconds(31)));
        assertThat(((ContinueAfter) c.getLast()).delay()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void waitsForVolumeAttachmentsUntilTheGracePeriodEnds() {
        assertThat(next(tainted, List.of(), List.of(), true, T0.plusSeconds(10), Optional.of(Duration.ofMinutes(5)), Optional.empty()))
                .singleElement().isInstanceOf(ContinueAfter.class);
        assertThat(next(tainted, List.of(), List.of(), true, T0.plus(Duration.ofMinutes(5)), Optional.of(Duration.ofMinutes(5)), Optional.empty()))
                .last().isInstanceOf(MarkTerminated.class);
    }

    @Test
    void finishesByTerminatingTheInstanceDeletingTheNodeRemovingTheFinalizerAndMarkingTerminated() {
        assertThat(next(tainted, List.of())).containsExactly(new TerminateInstance("i-a"), new DeleteNode(n),
                new RemoveFinalizer(n), new MarkTerminated("a"));
    }

    @Test
    void withoutANodeItOnlyTerminatesTheInstance() {
        assertThat(next(null, List.of())).containsExactly(new TerminateInstance("i-a"), new MarkTerminated("a"));
    }

    @Test
    void aNodeWithoutOurFinalizerIsDeletedWithoutRemovingIt() {
        Node bare = new Node(n, plain.providerId(), tainted.labels(), Map.of(), tainted.taints(), plain.allocatable(), true, true,
                false, plain.createdAt(), List.of(), null);
        assertThat(next(bare, List.of())).noneMatch(c -> c instanceof RemoveFinalizer).contains(new DeleteNode(n));
    }

    @Test
    void aTerminatedClaimNeedsNothing() {
        assertThat(TerminationDecision.next(claim.terminated(T0, Duration.ofHours(1)), Optional.of(tainted), List.of(pod("x", n)),
                List.of(), false, T0, Optional.empty(), Optional.empty(), false)).isEmpty();
    }

    @Test
    void aSliceIsBounded() {
        List<Pod> many = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            many.add(pod("p" + i, n));
        }
        assertThat(next(tainted, many).stream().filter(c -> c instanceof Evict)).hasSize(TerminationDecision.MAX_CALLS_PER_SLICE);
    }

    @Test
    void aRebalanceDrainWaitsForItsReplacementButNotForever() {
        Pod web = pod("web", n);
        assertThat(TerminationDecision.next(claim, Optional.of(tainted), List.of(web), List.of(), false, T0.plusSeconds(30),
                Optional.empty(), Optional.empty(), true)).singleElement().isInstanceOf(ContinueAfter.class);
        assertThat(TerminationDecision.next(claim, Optional.of(tainted), List.of(web), List.of(), false,
                T0.plus(TerminationDecision.REPLACEMENT_WAIT_LIMIT), Optional.empty(), Optional.empty(), true)).contains(new Evict(web));
    }

    @Test
    void graceExpiryIsTheEarlierOfGraceAndDeadline() {
        assertThat(TerminationDecision.graceExpiry(T0, Optional.empty(), Optional.empty())).isNull();
        assertThat(TerminationDecision.graceExpiry(T0, Optional.of(Duration.ofMinutes(1)), Optional.empty())).isEqualTo(T0.plusSeconds(60));
        assertThat(TerminationDecision.graceExpiry(T0, Optional.of(Duration.ofMinutes(1)), Optional.of(T0.plusSeconds(30)))).isEqualTo(T0.plusSeconds(30));
        assertThat(TerminationDecision.graceExpiry(T0, Optional.empty(), Optional.of(T0.plusSeconds(30)))).isEqualTo(T0.plusSeconds(30));
    }

    @Test
    void requestBodyIsTheWaveTwoFormat() {
        assertThat(new TerminationRequest("default-x7k2p", 3).toJson()).isEqualTo("{\"claim\":\"default-x7k2p\",\"step\":3}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TerminationRequest("Bad\"name", 0)).isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TerminationRequest("a", -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
