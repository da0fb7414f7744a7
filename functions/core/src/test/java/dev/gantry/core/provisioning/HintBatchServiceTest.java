package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.config;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HintBatchServiceTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final List<String> terminated = new ArrayList<>();
    private final List<String> registrations = new ArrayList<>();
    private final HintBatchService service = new HintBatchService(
            new Provisioner(cluster, cluster, store, new RecordingCloud(clock), provider(), config(pool("default", null)), clock),
            cluster, store, n -> terminated.add(n.name()), () -> registrations.add("registered"), clock);

    private static Node node(String name, List<String> finalizers) {
        return new Node(name, "aws:///test-1a/i-0abc", Map.of(), Map.of(), List.of(), Resources.of(2000, 4L << 30), true,
                false, false, T0, finalizers, null);
    }

    private static ProvisioningHint hint(ProvisioningHint.Reason reason, String name) {
        return new ProvisioningHint(reason, "", name, "uid-" + name, T0);
    }

    @Test
    void deletedNodeWithGantrysFinalizerIsHandedToTermination() {
        cluster.putNode(node("n1", List.of(Node.FINALIZER)));
        cluster.putNode(node("n2", List.of(Node.FINALIZER)));
        cluster.deleteNodeAt("n1", T0);

        service.handle(List.of(hint(ProvisioningHint.Reason.NODE_DELETED, "n1"), hint(ProvisioningHint.Reason.NODE_DELETED, "n2"),
                hint(ProvisioningHint.Reason.NODE_DELETED, "gone")));

        assertThat(terminated).containsExactly("n1"); // n2 is not being deleted; "gone" no longer exists
    }

    @Test
    void oneNodeDeletedHintHandsOverEveryDeletedNodeSinceTheWebhookCollapsesThem() {
        cluster.putNode(node("n1", List.of(Node.FINALIZER)));
        cluster.putNode(node("n2", List.of(Node.FINALIZER)));
        cluster.putNode(node("n3", List.of()));
        cluster.deleteNodeAt("n1", T0);
        cluster.deleteNodeAt("n2", T0);
        cluster.deleteNodeAt("n3", T0);

        service.handle(List.of(hint(ProvisioningHint.Reason.NODE_DELETED, "n1")));

        assertThat(terminated).containsExactlyInAnyOrder("n1", "n2"); // n3 is not Gantry's to hold
    }

    @Test
    void everyBatchRecordsTheLastHintAndProvisionsOnce() {
        cluster.putPod(pending("a", 500, 256).build());

        ProvisioningOutcome out = service.handle(List.of(hint(ProvisioningHint.Reason.POD_CREATED, "a"),
                hint(ProvisioningHint.Reason.POD_UNSCHEDULABLE, "a")));

        assertThat(out.launched()).hasSize(1);
        assertThat(store.marker(ProvisioningHints.LAST_HINT)).hasValue(T0);
        assertThat(terminated).isEmpty();
    }

    /**
     * The backstop counts "no hint for a minute" from the hint. Recorded at the run's start (a second or so after the
     * sweep sent its hint), the marker made the next sweep, a minute later, find it 59 s old and stay quiet: pods no
     * offering could take until the ICE marks ran out waited two minutes for a run (the whole-market ICE of the spot
     * storm without a split: 32 pods past their allowance).
     */
    @Test
    void theMarkerIsWhenTheNewestHintWentOutNotWhenTheRunStarted() {
        clock.advance(java.time.Duration.ofSeconds(2));
        ProvisioningHint older = new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "", "a", "uid-a", T0.minusSeconds(5));

        service.handle(List.of(older, hint(ProvisioningHint.Reason.BACKSTOP, "c")));

        assertThat(store.marker(ProvisioningHints.LAST_HINT)).hasValue(T0);
        assertThat(HintBatchService.lastSent(List.of(new ProvisioningHint(ProvisioningHint.Reason.BACKSTOP, "", "c", "c",
                T0.plusSeconds(30))), T0.plusSeconds(2))).as("a hint from a clock ahead counts as now").isEqualTo(T0.plusSeconds(2));
    }

    @Test
    void aBatchThatSaysANodeWasCreatedRegistersNodesOnceBeforeProvisioning() {
        service.handle(List.of(hint(ProvisioningHint.Reason.NODE_CREATED, "n1"), hint(ProvisioningHint.Reason.NODE_CREATED, "n2")));
        assertThat(registrations).containsExactly("registered");

        service.handle(List.of(hint(ProvisioningHint.Reason.POD_CREATED, "a")));
        assertThat(registrations).hasSize(1); // only node creations trigger it
    }
}
