package dev.gantry.core.disruption.drift;

import dev.gantry.core.disruption.drift.hash.DriftHashesTest;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The sweep's drift step over a store: stamping old records, re-stamping on a version change, marking and clearing. */
class DriftMarkerTest {
    final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    final List<CloudInstance> instances = new ArrayList<>(List.of(DriftCheckTest.CURRENT));
    final DriftMarker marker = new DriftMarker(store, nc -> Optional.of(DriftCheckTest.SELECTED));
    final Node node = new Node("node-a", "aws:///us-east-1a/i-a", DriftCheckTest.LABELS, Map.of(), List.of(),
            Resources.of(2000, 8L << 30), true, false, false, DriftCheckTest.NOW, List.of(), null);

    DriftMarker.Marked run(NodePool pool, NodeClass nc) {
        GantryConfig config = new GantryConfig(List.of(pool), List.of(nc), "us-east-1", List.of());
        return marker.run(config, store.list(DriftCheckTest.NOW), List.of(node), instances, c -> List.of(DriftCheckTest.M5), DriftCheckTest.NOW);
    }

    NodeClaim stored() {
        return store.get("a", DriftCheckTest.NOW).orElseThrow();
    }

    /**
     * A claim without hashes gets them, as Karpenter stamps a NodeClaim (kubernetes-sigs/karpenter
     * {@code pkg/controllers/nodepool/hash/controller.go}, {@code updateNodeClaimHash}).
     */
    @Test
    void aRecordWithoutHashesIsStampedNotDriftedAndASecondRunWritesNothing() {
        store.create(DriftCheckTest.claim().withDrift(null));
        assertThat(run(DriftCheckTest.POOL, DriftCheckTest.CLASS)).isEqualTo(new DriftMarker.Marked(1, 0, 0));
        assertThat(stored().drift()).isEqualTo(DriftHashes.stamp(DriftCheckTest.POOL, DriftCheckTest.CLASS));
        long version = stored().version();
        assertThat(run(DriftCheckTest.POOL, DriftCheckTest.CLASS)).isEqualTo(DriftMarker.Marked.NONE);
        assertThat(stored().version()).isEqualTo(version);
    }

    /**
     * A new hash version re-stamps claims that are not drifted instead of drifting them: kubernetes-sigs/karpenter
     * {@code pkg/controllers/nodepool/hash/controller.go} {@code updateNodeClaimHash}, aws/karpenter-provider-aws
     * {@code pkg/controllers/nodeclass/hash/controller.go}.
     */
    /**
     * A node that took the claim's node name on another instance (EC2 reused the private IP the host name comes from)
     * is not the claim's node (ClaimsByNode's rule: the provider id wins), so its labels do not drift the claim. By
     * the name alone they did. The claim's own node, with the same labels, does.
     */
    @Test
    void aNodeOfAnotherInstanceUnderTheClaimsNodeNameDoesNotJudgeItsDrift() {
        store.create(DriftCheckTest.claim());
        NodePool onDemandOnly = DriftHashesTest.pool(DriftHashesTest.with(4, List.of(dev.gantry.core.requirements.Requirement.of(
                "karpenter.sh/capacity-type", dev.gantry.core.requirements.Operator.In, "on-demand"))));
        GantryConfig config = new GantryConfig(List.of(onDemandOnly), List.of(DriftCheckTest.CLASS), "us-east-1", List.of());
        Node reused = new Node("node-a", "aws:///us-east-1a/i-b", DriftCheckTest.LABELS, Map.of(), List.of(),
                Resources.of(2000, 8L << 30), true, false, false, DriftCheckTest.NOW, List.of(), null);

        DriftMarker.Marked byAnother = marker.run(config, store.list(DriftCheckTest.NOW), List.of(reused), instances,
                c -> List.of(DriftCheckTest.M5), DriftCheckTest.NOW);

        assertThat(byAnother.drifted()).isZero();
        assertThat(stored().drift().isDrifted()).isFalse();
        DriftMarker.Marked byItsOwn = marker.run(config, store.list(DriftCheckTest.NOW), List.of(node), instances,
                c -> List.of(DriftCheckTest.M5), DriftCheckTest.NOW);
        assertThat(byItsOwn.drifted()).isEqualTo(1);
        assertThat(stored().drift().drifted()).isEqualTo(DriftCheck.REQUIREMENTS);
    }

    @Test
    void anUpgradeOfTheHashVersionDriftsNothing() {
        store.create(DriftCheckTest.claim().withDrift(DriftStamp.launched("old", "gantry-0", "old", "gantry-0")));
        assertThat(run(DriftCheckTest.POOL, DriftCheckTest.CLASS).drifted()).isZero();
        assertThat(stored().drift()).isEqualTo(DriftHashes.stamp(DriftCheckTest.POOL, DriftCheckTest.CLASS));
    }

    /**
     * Static drift of the NodePool: kubernetes-sigs/karpenter {@code pkg/controllers/nodeclaim/disruption/drift.go}
     * {@code areStaticFieldsDrifted}, cleared when the hashes match again ({@code Reconcile}).
     */
    @Test
    void aTemplateChangeDriftsTheClaimAndUndoingItClearsIt() {
        store.create(DriftCheckTest.claim());
        NodePool changed = DriftHashesTest.pool(DriftHashesTest.with(0, Map.of("team", "b")));
        assertThat(run(changed, DriftCheckTest.CLASS).drifted()).isEqualTo(1);
        assertThat(stored().drift().drifted()).isEqualTo(DriftCheck.NODEPOOL);
        assertThat(stored().drift().driftedAt()).isEqualTo(DriftCheckTest.NOW);
        assertThat(run(DriftCheckTest.POOL, DriftCheckTest.CLASS).cleared()).isEqualTo(1);
        assertThat(stored().drift().isDrifted()).isFalse();
    }

    /** aws/karpenter-provider-aws {@code pkg/cloudprovider/drift.go} {@code isAMIDrifted}. */
    @Test
    void aNewImageForTheArchitectureDriftsTheClaimAsAmiDrift() {
        store.create(DriftCheckTest.claim());
        instances.set(0, DriftCheckTest.instance("ami-old", "subnet-1", List.of("sg-1")));
        run(DriftCheckTest.POOL, DriftCheckTest.CLASS);
        assertThat(stored().drift().drifted()).isEqualTo(DriftCheck.AMI);
    }

    /**
     * A failed lookup decides nothing: aws/karpenter-provider-aws {@code pkg/cloudprovider/drift.go}
     * {@code isNodeClassDrifted} returns the error, and the claim is not marked.
     */
    @Test
    void aNodeClassWhoseLookupFailsDecidesNoDynamicDrift() {
        DriftMarker failing = new DriftMarker(store, nc -> {
            throw new dev.gantry.core.cloud.CloudException("Throttling", "slow down", true);
        });
        store.create(DriftCheckTest.claim());
        instances.set(0, DriftCheckTest.instance("ami-old", "subnet-9", List.of("sg-9")));
        GantryConfig config = new GantryConfig(List.of(DriftCheckTest.POOL), List.of(DriftCheckTest.CLASS), "us-east-1", List.of());
        failing.run(config, store.list(DriftCheckTest.NOW), List.of(node), instances, c -> null, DriftCheckTest.NOW);
        assertThat(stored().drift().isDrifted()).isFalse();
    }
}
