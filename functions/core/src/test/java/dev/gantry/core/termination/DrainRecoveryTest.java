package dev.gantry.core.termination;

import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.interruption.EventEnvelope;
import dev.gantry.core.lifecycle.DelegatingStore;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A drain survives errors and lost messages, and only claims marked for deletion are ever drained. */
class DrainRecoveryTest {
    static NodePool pool() {
        return poolWith("default", null, Optional.empty(), Optional.empty(), Map.of());
    }

    static Pod doNotDisrupt(String name) {
        return pod(name, "node-a").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
    }

    @Test
    void aFirstSliceThatFailsStillLeavesAContinuationThatFinishesTheDrain() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cloud.failTerminations = 1; // EC2 throttles the one TerminateInstances of the empty node's first slice
        EventEnvelope spot = new EventEnvelope("s", "aws.ec2", "EC2 Spot Instance Interruption Warning", w.clock.instant(),
                Map.of("instance-id", "i-a"), List.of(), List.of());

        assertThatThrownBy(() -> w.interruption.handle(spot)).isInstanceOf(CloudException.class);
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Draining);
        // The redelivered event changes nothing (the claim is deleting): only the continuation can finish the drain.
        assertThat(w.interruption.handle(spot).getFirst().ignored()).isNotEmpty();
        assertThat(w.queue.sent).as("a continuation queued before the slice acted").isNotEmpty();

        w.continueLast();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.cloud.terminated).containsExactly("i-a");
    }

    @Test
    void theSweepResumesADrainWhoseContinuationWasLost() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cluster.putPod(doNotDisrupt("keep"));
        w.termination.start("a", TerminationStart.because("emptiness"));
        w.queue.sent.clear(); // the continuation went to the dead-letter queue

        w.clock.advance(Duration.ofMinutes(1));
        w.sweep.sweep();
        assertThat(w.queue.sent).as("a drain that progressed a minute ago is left alone").isEmpty();

        w.clock.advance(TerminationService.STALLED_AFTER);
        w.sweep.sweep();
        assertThat(w.queue.sent).hasSize(1);
        assertThat(w.queue.sent.getFirst().body()).startsWith("{\"claim\":\"a\",");

        w.cluster.removePod("default/keep");
        w.continueLast();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
    }

    @Test
    void aSweepThatFailsPartWayHasStillResumedAStalledDrain() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cluster.putPod(doNotDisrupt("keep"));
        w.termination.start("a", TerminationStart.because("emptiness"));
        w.queue.sent.clear(); // the continuation went to the dead-letter queue
        w.clock.advance(TerminationService.STALLED_AFTER);
        w.cloud.failLists = 1; // EC2 throttles the sweep's DescribeInstances: the sweep fails half-way

        assertThatThrownBy(() -> w.sweep.sweep()).isInstanceOf(CloudException.class);

        assertThat(w.queue.sent).singleElement().satisfies(s -> assertThat(s.body()).startsWith("{\"claim\":\"a\","));
    }

    @Test
    void aDuplicateContinuationIsDroppedSoTheFlowStaysOneChain() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cluster.putPod(doNotDisrupt("keep"));
        w.termination.start("a", TerminationStart.because("emptiness"));
        TerminationRequest first = TerminationRequestOf.last(w);

        w.termination.slice(first);
        int sent = w.queue.sent.size();
        TerminationService.Slice duplicate = w.termination.slice(first); // SQS delivered the same message again

        assertThat(duplicate.commands()).isEmpty();
        assertThat(w.queue.sent).as("no second chain of continuations").hasSize(sent);
    }

    @Test
    void aSliceForAClaimNotMarkedForDeletionDoesNothing() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cluster.putPod(pod("web", "node-a"));

        TerminationService.Slice forged = w.termination.slice(new TerminationRequest("a", 0));

        assertThat(forged.commands()).isEmpty();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(w.cluster.node("node-a").taints()).doesNotContain(Taint.DISRUPTED);
        assertThat(w.cluster.pod("default/web")).isNotNull();
        assertThat(w.cloud.terminated).isEmpty();
        assertThat(w.queue.sent).isEmpty();
    }

    @Test
    void startMarksTheClaimEvenWhenAConcurrentWriteWinsTheFirstTry() {
        LifecycleWorld w = new LifecycleWorld(pool());
        NodeClaim registered = w.store.create(LifecycleFixtures.launched("a", "default").registered("node-a", w.clock.instant()));
        w.cluster.putNode(LifecycleFixtures.node("a", "default"));
        w.cloud.addOwned("i-a", "a");
        boolean[] raced = {false};
        NodeClaimStore racing = new DelegatingStore(w.store) {
            @Override
            public NodeClaim update(NodeClaim claim) {
                if (!raced[0] && claim.state() == NodeClaimState.Draining) {
                    raced[0] = true;
                    w.store.update(registered.initialized(w.clock.instant())); // the sweep got there first
                }
                return super.update(claim);
            }
        };
        TerminationService termination = new TerminationService(w.cluster, w.cluster, racing, w.cloud, w.queue,
                Map.of("default", pool()), w.clock);

        TerminationService.Slice first = termination.start("a", TerminationStart.because("interruption")).orElseThrow();

        assertThat(raced[0]).isTrue();
        assertThat(first.finished()).as("an empty node goes in the first slice").isTrue();
        assertThat(w.claim("a").deletionReason()).isEqualTo("interruption");
        assertThat(w.cloud.terminated).containsExactly("i-a");
    }

    @Test
    void aSliceWhoseClaimWriteLosesToAWriteThatBeganNoSliceStillCarriesTheFlowOn() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cluster.putPod(doNotDisrupt("keep"));
        w.termination.start("a", TerminationStart.because("underutilized").with(FirstSlice.QUEUED)); // queued, as a consolidation hands a node over
        TerminationRequest first = TerminationRequestOf.last(w);
        boolean[] raced = {false};
        NodeClaimStore racing = new DelegatingStore(w.store) {
            @Override
            public NodeClaim update(NodeClaim claim) {
                if (!raced[0] && claim.progressAt() != null) {
                    raced[0] = true;
                    // Between the slice's read and its write, the sweep records the node NotReady on the claim.
                    w.store.update(w.claim("a").notReadySince(w.clock.instant()));
                }
                return super.update(claim);
            }
        };
        TerminationService termination = new TerminationService(w.cluster, w.cluster, racing, w.cloud, w.queue,
                Map.of("default", pool()), w.clock);
        int sent = w.queue.sent.size();

        termination.slice(first);

        assertThat(raced[0]).isTrue();
        assertThat(w.claim("a").drainStep()).as("the slice began on the fresh claim").isEqualTo(first.step() + 1);
        assertThat(w.queue.sent).as("the flow's next message").hasSize(sent + 1);
        assertThat(w.cluster.node("node-a").taints()).contains(Taint.DISRUPTED);
    }

    @Test
    void aSliceWhoseOwnClaimWriteTookEffectButWhoseAnswerWasLostCarriesTheFlowOn() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cluster.putPod(doNotDisrupt("keep"));
        w.termination.start("a", TerminationStart.because("underutilized").with(FirstSlice.QUEUED));
        TerminationRequest first = TerminationRequestOf.last(w);
        boolean[] lost = {false};
        NodeClaimStore lossy = new DelegatingStore(w.store) {
            @Override
            public NodeClaim update(NodeClaim claim) {
                NodeClaim stored = super.update(claim);
                if (!lost[0] && claim.progressAt() != null) {
                    lost[0] = true; // DynamoDB wrote it; the answer was lost and the SDK's retry failed its condition
                    throw new NodeClaimStore.Conflict("nodeclaim a is no longer at version " + claim.version());
                }
                return stored;
            }
        };
        TerminationService termination = new TerminationService(w.cluster, w.cluster, lossy, w.cloud, w.queue,
                Map.of("default", pool()), w.clock);
        int sent = w.queue.sent.size();

        termination.slice(first);

        assertThat(lost[0]).isTrue();
        assertThat(w.queue.sent).as("the flow's next message").hasSize(sent + 1);
        assertThat(TerminationRequestOf.last(w).step()).isEqualTo(first.step() + 1);
        assertThat(w.cluster.node("node-a").taints()).contains(Taint.DISRUPTED);
    }

    @Test
    void aSliceWhoseClaimWriteLosesToAnotherDeliveryOfItsStepLeavesTheFlowToIt() {
        LifecycleWorld w = new LifecycleWorld(pool());
        w.addNode("a", "default");
        w.cluster.putPod(doNotDisrupt("keep"));
        w.termination.start("a", TerminationStart.because("underutilized").with(FirstSlice.QUEUED));
        TerminationRequest first = TerminationRequestOf.last(w);
        boolean[] raced = {false};
        NodeClaimStore racing = new DelegatingStore(w.store) {
            @Override
            public NodeClaim update(NodeClaim claim) {
                if (!raced[0] && claim.progressAt() != null) {
                    raced[0] = true;
                    // SQS delivered the message twice, and the other copy, a moment later, won. (Two copies at the
                    // same instant would write the same item, indistinguishable from this slice's own lost answer:
                    // then both carry on, and the next step's conflict folds the chains into one.)
                    w.clock.advance(java.time.Duration.ofMillis(1));
                    w.termination.slice(first);
                }
                return super.update(claim);
            }
        };
        TerminationService termination = new TerminationService(w.cluster, w.cluster, racing, w.cloud, w.queue,
                Map.of("default", pool()), w.clock);
        int sent = w.queue.sent.size();

        TerminationService.Slice slice = termination.slice(first);

        assertThat(raced[0]).isTrue();
        assertThat(slice.commands()).isEmpty();
        assertThat(w.queue.sent).as("one chain of continuations: the winner's").hasSize(sent + 1);
    }

    /** Parses the last sent continuation. */
    static final class TerminationRequestOf {
        static TerminationRequest last(LifecycleWorld w) {
            String body = w.queue.sent.getLast().body();
            String name = body.substring(body.indexOf("\"claim\":\"") + 9, body.indexOf("\",\"step\""));
            int step = Integer.parseInt(body.substring(body.indexOf("\"step\":") + 7, body.indexOf('}')));
            return new TerminationRequest(name, step);
        }
    }
}
