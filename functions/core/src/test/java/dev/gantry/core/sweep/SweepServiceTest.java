package dev.gantry.core.sweep;

import static dev.gantry.core.lifecycle.LifecycleFixtures.CLUSTER;
import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.disruption.DisruptionDecision;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SweepServiceTest {
    static NodePool whenEmpty30s() {
        return poolWith("default", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ofSeconds(30)),
                List.of(NodePool.Budget.DEFAULT)), Optional.empty(), Optional.empty(), Map.of());
    }

    static NodePool quiet() {
        return poolWith("default", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.empty(), List.of()),
                Optional.empty(), Optional.empty(), Map.of());
    }

    @Test
    void aLaunchedClaimRegistersWhenItsNodeAppearsGettingFinalizerAndLabels() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        NodeClaim c = w.store.create(LifecycleFixtures.launched("a", "default"));
        w.cloud.addOwned("i-a", "a");
        w.cluster.putNode(new Node("ip-1", "aws:///us-east-1a/i-a", Map.of(), Map.of(), List.of(), Resources.of(2000, 8L << 30),
                false, false, false, T0));
        SweepReport r = w.sweep.sweep();
        assertThat(r.registered()).isEqualTo(1);
        Node n = w.cluster.node("ip-1");
        assertThat(n.finalizers()).contains(Node.FINALIZER);
        assertThat(n.labels()).containsEntry("karpenter.sh/nodepool", "default").containsEntry("node.kubernetes.io/instance-type", "m5.large")
                .containsEntry("topology.kubernetes.io/zone", "us-east-1a").containsEntry("karpenter.sh/capacity-type", "spot")
                .containsEntry("karpenter.k8s.aws/instance-family", "m5");
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Registered);
        assertThat(w.claim("a").nodeName()).isEqualTo("ip-1");

        w.cluster.putNode(new Node("ip-1", n.providerId(), n.labels(), Map.of(), List.of(), n.allocatable(), true, false, false,
                T0, n.finalizers(), null));
        assertThat(w.sweep.sweep().initialized()).isEqualTo(1);
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(w.sweep.sweep().registered()).isZero();
    }

    @Test
    void registrationASweepHasNoTimeLeftForIsLeftForTheNextSweep() {
        // The webhook burst: about a thousand nodes registering at once, two writes each, took 2 sweeps of 30 past their
        // timeout. A sweep out of time starts no registration; the next one with time registers them all.
        LifecycleWorld w = new LifecycleWorld(quiet());
        for (String name : List.of("a", "b", "c")) {
            w.store.create(LifecycleFixtures.launched(name, "default"));
            w.cloud.addOwned("i-" + name, name);
            w.cluster.putNode(new Node("ip-" + name, "aws:///us-east-1a/i-" + name, Map.of(), Map.of(), List.of(),
                    Resources.of(2000, 8L << 30), false, false, false, T0));
        }
        assertThat(w.sweep.sweep(w.clock.instant(), w.clock.instant()).registered()).isZero(); // out of time at once
        assertThat(List.of("a", "b", "c")).allSatisfy(n -> assertThat(w.claim(n).state()).isEqualTo(NodeClaimState.Launched));
        w.clock.advance(Duration.ofMinutes(1));
        assertThat(w.sweep.sweep(w.clock.instant(), java.time.Instant.MAX).registered()).isEqualTo(3);
        assertThat(List.of("a", "b", "c")).allSatisfy(n -> assertThat(w.claim(n).state()).isEqualTo(NodeClaimState.Registered));
    }

    @Test
    void aLeakedInstanceIsCollectedButNeverAnUntaggedOne() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.cloud.add("i-leak", T0.minusSeconds(31), Map.of(CloudInstance.TAG_CLUSTER, CLUSTER));
        w.cloud.add("i-young", T0.minusSeconds(5), Map.of(CloudInstance.TAG_CLUSTER, CLUSTER));
        w.cloud.add("i-other", T0.minusSeconds(3600), Map.of(CloudInstance.TAG_CLUSTER, "someone-else"));
        w.cloud.add("i-untagged", T0.minusSeconds(3600), Map.of());
        assertThat(w.sweep.sweep().leakedTerminated()).isEqualTo(1);
        assertThat(w.cloud.terminated).containsExactly("i-leak");
    }

    @Test
    void anInstanceOfABatchWhoseClaimsStillWaitForItsWritesIsNotCollectedAsLeaked() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        // A crash between the batch's CreateFleet and its writes: the claims are Launching, the instances carry only
        // the launch token, and the provisioner's replay will hand them out.
        w.store.create(NodeClaim.launching("default-a", "default", "h", List.of(), List.of(), List.of("default/a"),
                "m5.large", "us-east-1a", "spot", 0, T0.minusSeconds(60)).withLaunchToken("default-a"));
        w.store.create(NodeClaim.launching("default-b", "default", "h", List.of(), List.of(), List.of("default/b"),
                "m5.large", "us-east-1a", "spot", 0, T0.minusSeconds(60)).withLaunchToken("default-a"));
        w.cloud.add("i-a", T0.minusSeconds(59), Map.of(CloudInstance.TAG_CLUSTER, CLUSTER, CloudInstance.TAG_LAUNCH, "default-a"));
        w.cloud.add("i-b", T0.minusSeconds(59), Map.of(CloudInstance.TAG_CLUSTER, CLUSTER, CloudInstance.TAG_LAUNCH, "default-a"));
        w.cloud.add("i-old", T0.minusSeconds(59), Map.of(CloudInstance.TAG_CLUSTER, CLUSTER, CloudInstance.TAG_LAUNCH, "gone"));

        assertThat(w.sweep.sweep().leakedTerminated()).isEqualTo(1);

        assertThat(w.cloud.terminated).containsExactly("i-old");
    }

    @Test
    void aClaimThatNeverRegistersIsTerminatedAfterFifteenMinutes() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        NodeClaim c = NodeClaim.launching("a", "default", "h", List.of(), List.of(), List.of("default/web"), "m5.large",
                "us-east-1a", "spot", 0, T0).launched("i-a", "m5.large", "us-east-1a", "spot", 0, T0);
        w.store.create(c);
        w.cloud.addOwned("i-a", "a");
        w.clock.set(T0.plus(Duration.ofMinutes(14)));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).isEmpty();
        w.clock.set(T0.plus(Duration.ofMinutes(15)));
        assertThat(w.sweep.sweep().claimsFinished()).isEqualTo(1);
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.claim("a").deletionReason()).isEqualTo("registration-timeout");
    }

    @Test
    void aClaimStuckLaunchingWithoutAnInstanceIsFinishedOnlyAfterTheProvisioningQueueCouldRedeliverItsBatch() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.store.create(NodeClaim.launching("a", "default", "h", List.of(), List.of(), List.of(), "m5.large", "us-east-1a", "spot", 0, T0));
        w.clock.set(T0.plus(Duration.ofMinutes(7))); // past the 6-minute visibility timeout, and the redelivery's run
        w.sweep.sweep();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Launching);
        w.clock.set(T0.plus(Housekeeping.LAUNCH_TIMEOUT));
        w.sweep.sweep();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
    }

    @Test
    void aLaunchThatCrashedBeforeItWasRecordedKeepsItsInstanceAndPods() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.store.create(NodeClaim.launching("a", "default", "h", List.of(), List.of(), List.of("default/web"), "m5.large",
                "us-east-1a", "spot", 0.04, T0));
        // CreateFleet ran (the instance carries the claim's tag), then the provisioner died before recording it.
        w.cloud.add("i-a", T0.plusSeconds(2), Map.of(CloudInstance.TAG_CLUSTER, CLUSTER, CloudInstance.TAG_NODECLAIM, "a"));
        w.cluster.putNode(new Node("ip-1", "aws:///us-east-1a/i-a", Map.of(), Map.of(), List.of(), Resources.of(2000, 8L << 30),
                true, false, false, T0.plusSeconds(60)));
        w.cluster.putPod(pod("web", "ip-1"));

        for (int minute = 1; minute <= 12; minute++) {
            w.clock.set(T0.plus(Duration.ofMinutes(minute)));
            w.sweep.sweep();
        }

        assertThat(w.cloud.terminated).isEmpty();
        assertThat(w.claim("a").instanceId()).isEqualTo("i-a");
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(w.cluster.pod("default/web")).isNotNull();
    }

    @Test
    void anInstanceNoLiveClaimOwnsIsDrainedBeforeItIsTerminatedWhenItsNodeRunsPods() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        NodeClaim c = w.addNode("a", "default");
        w.store.update(c.draining("launch-timeout", T0).terminated(T0, java.time.Duration.ofHours(1))); // closed, yet it runs
        w.cluster.putPod(pod("web", "node-a"));

        w.sweep.sweep();

        assertThat(w.cloud.terminated).as("not before its pods are gone").isEmpty();
        assertThat(w.cluster.node("node-a").taints()).contains(dev.gantry.core.model.Taint.DISRUPTED);
        assertThat(w.cluster.pod("default/web")).as("evicted").isNull();
        w.continueLast();
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.cluster.node("node-a")).isNull();
        w.clock.advance(Duration.ofMinutes(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-a");
    }

    @Test
    void aClaimWhoseInstanceVanishedIsFinishedAndItsNotReadyNodeDeleted() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.addNode("a", "default");
        w.cloud.instances.clear();
        Node n = w.cluster.node("node-a");
        w.cluster.putNode(new Node(n.name(), n.providerId(), n.labels(), Map.of(), List.of(), n.allocatable(), false, false, false,
                n.createdAt(), n.finalizers(), null));
        w.sweep.sweep();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.cluster.node("node-a")).isNull();
    }

    static Node readiness(Node n, boolean ready) {
        return new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(), ready,
                n.unschedulable(), false, n.createdAt(), n.finalizers(), n.deletionTimestamp());
    }

    @Test
    void aClaimWhoseNodeWasRemovedOutOfBandWhileItsInstanceRunsIsTerminated() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.addNode("a", "default");
        w.addNode("b", "default");
        Node a = w.cluster.node("node-a");
        w.cluster.putNode(new Node(a.name(), a.providerId(), a.labels(), Map.of(), List.of(), a.allocatable(), true, false,
                false, a.createdAt())); // someone stripped the finalizer…
        w.cluster.deleteNode("node-a"); // …and deleted the Node; the instance keeps running

        w.sweep.sweep();

        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.claim("a").deletionReason()).isEqualTo("node-deleted");
        assertThat(w.claim("b").state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void aNodeNotReadyForThirtyMinutesIsRepairedThoughAPodThereMayNotBeDisrupted() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        for (String n : List.of("a", "b", "c", "d", "e", "f")) {
            w.addNode(n, "default");
        }
        w.cluster.putNode(readiness(w.cluster.node("node-a"), false)); // 1 of 6 unhealthy: under a fifth of the pool
        w.cluster.putPod(pod("keep", "node-a").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build());

        w.sweep.sweep();
        w.clock.advance(Housekeeping.REPAIR_AFTER.minusSeconds(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).as("within the toleration").isEmpty();

        w.clock.advance(Duration.ofSeconds(1));
        w.sweep.sweep();
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.claim("a").deletionReason()).isEqualTo("unhealthy");
        assertThat(w.cluster.node("node-a")).isNull();
    }

    @Test
    void aNodeReadyAgainStartsItsTolerationOver() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        for (String n : List.of("a", "b", "c", "d", "e", "f")) {
            w.addNode(n, "default");
        }
        Node a = w.cluster.node("node-a");
        w.cluster.putNode(readiness(a, false));
        w.sweep.sweep();
        w.clock.advance(Duration.ofMinutes(20));
        w.cluster.putNode(readiness(a, true));
        w.sweep.sweep();
        w.cluster.putNode(readiness(a, false));
        w.clock.advance(Duration.ofMinutes(20));
        w.sweep.sweep();

        assertThat(w.cloud.terminated).isEmpty();
    }

    @Test
    void repairHoldsOffWhileMoreThanAFifthOfThePoolIsNotReady() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        for (String n : List.of("a", "b", "c", "d")) {
            w.addNode(n, "default");
        }
        w.cluster.putNode(readiness(w.cluster.node("node-a"), false));
        w.cluster.putNode(readiness(w.cluster.node("node-b"), false)); // half the pool: a wider outage, not a bad node
        w.sweep.sweep();
        w.clock.advance(Duration.ofHours(1));
        w.sweep.sweep();

        assertThat(w.cloud.terminated).isEmpty();
    }

    @Test
    void aDeletedNodeTheWebhookMissedStartsTheTerminationFlow() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.addNode("a", "default");
        w.cluster.deleteNodeAt("node-a", T0);
        assertThat(w.sweep.sweep().deletedNodesStarted()).isEqualTo(1);
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.cluster.node("node-a")).isNull();
    }

    @Test
    void theBackstopHintsOncePerMinuteWhilePodsArePending() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.cluster.putPod(Pod.builder("default", "web").status(new Pod.Status("Pending", true, T0, null, null)).build());
        assertThat(w.sweep.sweep().backstopHint()).isTrue();
        w.clock.advance(Duration.ofSeconds(30));
        assertThat(w.sweep.sweep().backstopHint()).isFalse();
        w.clock.advance(Duration.ofSeconds(30));
        assertThat(w.sweep.sweep().backstopHint()).isTrue();
        assertThat(w.hints.sent).containsExactly("backstop default/web", "backstop default/web");
    }

    /** The next sweep comes a minute later, give or take a little: 59.9 s after the last one's hint still sends it. */
    @Test
    void theBackstopHintsAtTheNextSweepEvenWhenItStartsALittleEarly() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.cluster.putPod(Pod.builder("default", "web").status(new Pod.Status("Pending", true, T0, null, null)).build());
        assertThat(w.sweep.sweep().backstopHint()).isTrue();
        w.clock.advance(Duration.ofMillis(59_900));
        assertThat(w.sweep.sweep().backstopHint()).isTrue();
        assertThat(w.hints.sent).containsExactly("backstop default/web", "backstop default/web");
    }

    @Test
    void aRecentHintFromTheWebhookSilencesTheBackstop() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.cluster.putPod(Pod.builder("default", "web").status(new Pod.Status("Pending", true, T0, null, null)).build());
        w.store.setMarker(ProvisioningHints.LAST_HINT, T0.minusSeconds(10));
        assertThat(w.sweep.sweep().backstopHint()).isFalse();
    }

    @Test
    void drainsASweepStartsPastItsInlineDeadlineAreQueuedForTheTerminationHandlerNotRunInTheSweep() {
        LifecycleWorld w = new LifecycleWorld(whenEmpty30s());
        w.addNode("a", "default");
        w.sweep.sweep();
        w.clock.advance(Duration.ofSeconds(30));

        assertThat(w.sweep.sweep(w.clock.instant()).disrupted()).isEqualTo(1); // no time left for inline slices

        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Draining);
        assertThat(w.cloud.terminated).isEmpty();
        assertThat(w.queue.sent).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo("{\"claim\":\"a\",\"step\":0}");
            assertThat(m.delay()).isEqualTo(Duration.ZERO);
        });
        w.continueLast();
        assertThat(w.cloud.terminated).containsExactly("i-a");
    }

    @Test
    void anEmptyNodeIsRemovedAfterConsolidateAfter() {
        LifecycleWorld w = new LifecycleWorld(whenEmpty30s());
        w.addNode("a", "default");
        w.sweep.sweep();
        assertThat(w.cluster.node("node-a").labels()).containsEntry(DisruptionDecision.EMPTY_SINCE, Long.toString(T0.getEpochSecond()));
        w.clock.advance(Duration.ofSeconds(20));
        assertThat(w.sweep.sweep().disrupted()).isZero();
        w.clock.advance(Duration.ofSeconds(10));
        assertThat(w.sweep.sweep().disrupted()).isEqualTo(1);
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.claim("a").deletionReason()).isEqualTo("empty");
    }

    @Test
    void budgetsLetOneOfTenEmptyNodesGoAtATime() {
        LifecycleWorld w = new LifecycleWorld(whenEmpty30s());
        for (int i = 0; i < 10; i++) {
            w.addNode("n" + i, "default");
            w.cluster.putPod(pod("keep" + i, "node-n" + i).toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build());
        }
        for (int i = 0; i < 10; i++) {
            w.cluster.removePod("default/keep" + i);
        }
        w.sweep.sweep();
        w.clock.advance(Duration.ofSeconds(30));
        // each node empties at once; a drain of an empty node finishes in its first slice, so the count drops by one per sweep
        for (int sweep = 1; sweep <= 3; sweep++) {
            assertThat(w.sweep.sweep().disrupted()).isEqualTo(1);
            assertThat(w.cloud.terminated).hasSize(sweep);
        }
    }

    @Test
    void expiryReplacesPodsFirstAndIgnoresBudgets() {
        NodePool p = poolWith("default", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.empty(),
                List.of(new NodePool.Budget("0", Optional.empty(), Optional.empty(), List.of()))), Optional.of(Duration.ofHours(1)),
                Optional.empty(), Map.of());
        LifecycleWorld w = new LifecycleWorld(p);
        w.addNode("a", "default");
        w.cluster.putPod(pod("web", "node-a"));
        assertThat(w.sweep.sweep().disrupted()).isEqualTo(1);
        assertThat(w.hints.sent).containsExactly("replacement default/web");
        assertThat(w.claim("a").deletionReason()).isEqualTo("expired");
    }

    @Test
    void anExpiredNodesPodsAreEvictedOnlyOnceTheirReplacementIsInitialized() {
        // Issue #21, defect 3: the replace-first hint went out and the drain evicted in the same slice, before any
        // replacement was even planned, so every evicted pod waited a whole boot.
        NodePool p = poolWith("default", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.empty(),
                List.of(NodePool.Budget.DEFAULT)), Optional.of(Duration.ofHours(1)), Optional.empty(), Map.of());
        LifecycleWorld w = new LifecycleWorld(p);
        w.addNode("a", "default");
        w.cluster.putPod(pod("web", "node-a"));
        w.sweep.sweep();
        assertThat(w.claim("a").deletionReason()).isEqualTo("expired");
        assertThat(w.cluster.pod("default/web")).as("not before the provisioner planned it").isNotNull();

        w.clock.advance(Duration.ofSeconds(2));
        w.store.create(NodeClaim.launching("b", "default", "h", List.of(), List.of(), List.of("default/web"), "m5.large",
                "us-east-1a", "on-demand", 0, w.clock.instant()));
        w.store.setMarker(dev.gantry.core.termination.TerminationMarkers.REPLACEMENTS_PLANNED, w.clock.instant());
        w.continueLast();
        assertThat(w.cluster.pod("default/web")).as("not while its replacement boots").isNotNull();

        w.store.update(w.claim("b").launched("i-b", "m5.large", "us-east-1a", "on-demand", 0, T0).registered("node-b", T0)
                .initialized(T0));
        w.continueLast();
        assertThat(w.cluster.pod("default/web")).isNull();
    }

    @Test
    void aReplacementWaitingForALeavingNodesPodsIsNotEmptyAndNotRemoved() {
        // Issue #21: a replacement launched before its node's pods are evicted runs nothing until they are. Read as
        // empty, it was labelled so (a patch per node, hundreds per sweep in a mass expiry) and removed after
        // consolidateAfter if the drain was slow (PDBs), its pods then evicted into a wait.
        LifecycleWorld w = new LifecycleWorld(whenEmpty30s());
        w.addNode("old", "default");
        w.cluster.putPod(pod("web", "node-old"));
        w.store.update(w.claim("old").draining("expired", T0));
        w.store.create(NodeClaim.launching("new", "default", "h", List.of(), List.of("m5.large"), List.of("default/web"),
                        "m5.large", "us-east-1a", "spot", 0.04, T0.minus(Duration.ofMinutes(2)))
                .launched("i-new", "m5.large", "us-east-1a", "spot", 0.04, T0.minus(Duration.ofMinutes(2)))
                .registered("node-new", T0).initialized(T0));
        w.cluster.putNode(LifecycleFixtures.node("new", "default"));

        w.sweep.sweep();
        w.clock.advance(Duration.ofMinutes(5));
        w.sweep.sweep();

        assertThat(w.cluster.node("node-new").labels()).doesNotContainKey(DisruptionDecision.EMPTY_SINCE);
        assertThat(w.claim("new").state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void expiriesASweepHasNoTimeLeftToStartAreLeftUntouchedForTheNextSweep() {
        NodePool p = poolWith("default", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.empty(),
                List.of(NodePool.Budget.DEFAULT)), Optional.of(Duration.ofHours(1)), Optional.empty(), Map.of());
        LifecycleWorld w = new LifecycleWorld(p);
        for (String n : List.of("a", "b", "c")) {
            w.addNode(n, "default");
            w.cluster.putPod(pod("web-" + n, "node-" + n));
        }

        assertThat(w.sweep.sweep(w.clock.instant(), w.clock.instant()).disrupted()).isZero(); // out of time at once
        assertThat(List.of("a", "b", "c")).allSatisfy(n -> assertThat(w.claim(n).state()).isEqualTo(NodeClaimState.Initialized));
        assertThat(w.hints.sent).isEmpty();
        assertThat(w.queue.sent).isEmpty();

        w.clock.advance(Duration.ofMinutes(1));
        assertThat(w.sweep.sweep(w.clock.instant(), java.time.Instant.MAX).disrupted()).isEqualTo(3);
        assertThat(List.of("a", "b", "c")).allSatisfy(n -> assertThat(w.claim(n).deletionReason()).isEqualTo("expired"));
        assertThat(w.hints.sent).as("one run plans every leaving node's pods: one hint brings it").hasSize(1);
    }

    @Test
    void finalSweepTerminatesEveryInstanceGantryLaunchedAndNothingElse() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        w.addNode("a", "default");
        w.cloud.add("i-leak", T0, Map.of(CloudInstance.TAG_CLUSTER, CLUSTER));
        w.cloud.add("i-other", T0, Map.of(CloudInstance.TAG_CLUSTER, "other"));
        assertThat(w.sweep.finalSweep()).isEqualTo(2);
        assertThat(w.cloud.terminated).containsExactlyInAnyOrder("i-a", "i-leak");
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
    }

    @Test
    void measuresASweepOfAThousandNodesAndTwentyThousandPods() {
        LifecycleWorld w = new LifecycleWorld(whenEmpty30s());
        for (int i = 0; i < 1000; i++) {
            w.addNode("n" + i, "default");
            for (int j = 0; j < 20; j++) {
                w.cluster.putPod(pod("p" + i + "-" + j, "node-n" + i));
            }
        }
        w.sweep.sweep(); // warm-up
        long best = Long.MAX_VALUE;
        for (int run = 0; run < 5; run++) {
            long t = System.nanoTime();
            SweepReport r = w.sweep.sweep();
            best = Math.min(best, System.nanoTime() - t);
            assertThat(r.disrupted()).isZero();
        }
        System.out.printf("MEASURE sweep over InMemoryCluster, 1000 nodes / 20000 pods: best of 5 = %.1f ms%n", best / 1e6);
    }

    @Test
    void everySweepRunsTheRefreshStepForPricesAndOfferings() {
        LifecycleWorld w = new LifecycleWorld(quiet());
        java.util.concurrent.atomic.AtomicInteger refreshes = new java.util.concurrent.atomic.AtomicInteger();
        w.sweep.withRefresh(refreshes::incrementAndGet);

        w.sweep.sweep();
        w.sweep.sweep();

        assertThat(refreshes).hasValue(2);
    }
}
