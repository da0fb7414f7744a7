package dev.gantry.core.status;

import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The projection's write discipline: one list per sweep, a write only for what changed, a bounded sweep. */
class NodeClaimProjectorTest {
    private final NodePool pool = poolWith("default", null, Optional.empty(), Optional.empty(), Map.of());
    private final LifecycleWorld w = new LifecycleWorld(pool);
    private final Objects objects = new Objects();
    private final NodeClaimProjector projector = new NodeClaimProjector(objects,
            new ClaimProjection(ClaimProjection.CapacityOf.NONE, ClaimProjection.Drift.NONE), w.termination,
            () -> new GantryConfig(List.of(pool), List.of(), "us-east-1", List.of()));

    /** The port as an API server keeps it, counting requests (the kube module's tests hold the real one to the same). */
    private static class Objects implements NodeClaimObjects {
        final Map<String, ObservedNodeClaim> stored = new TreeMap<>();
        final Map<String, NodeClaimObject> written = new TreeMap<>();
        int lists;
        int writes;
        long version;

        @Override
        public List<ObservedNodeClaim> list() {
            lists++;
            return new ArrayList<>(stored.values());
        }

        @Override
        public void create(NodeClaimObject object) {
            writes++;
            written.put(object.name(), object);
            stored.put(object.name(), new ObservedNodeClaim(object.name(), Long.toString(++version), object.digest(),
                    List.of(NodeClaimObject.FINALIZER), null, true));
        }

        @Override
        public void update(ObservedNodeClaim observed, NodeClaimObject object) {
            writes++;
            stored.put(object.name(), new ObservedNodeClaim(object.name(), Long.toString(++version), object.digest(),
                    List.of(NodeClaimObject.FINALIZER), null, true));
        }

        @Override
        public void removeFinalizer(ObservedNodeClaim observed) {
            writes++;
        }

        @Override
        public void delete(String name) {
            writes++;
            stored.remove(name);
        }
    }

    private List<NodeClaim> thousandClaims() {
        for (int i = 0; i < 1_000; i++) {
            w.store.create(LifecycleFixtures.initialized("c" + i, "default"));
        }
        return w.store.list(w.clock.instant());
    }

    @Test
    void aThousandSteadyClaimsCostOneListAndNoWrite() {
        List<NodeClaim> claims = thousandClaims();
        for (int sweep = 0; sweep < 10; sweep++) {
            projector.sync(claims, w.clock.instant());
        }
        int lists = objects.lists;
        int writes = objects.writes;

        NodeClaimProjector.Report r = projector.sync(claims, w.clock.instant());

        assertThat(writes).as("ten sweeps of at most " + NodeClaimProjector.MAX_WRITES).isEqualTo(1_000);
        assertThat(r.writes()).isZero();
        assertThat(objects.lists - lists).isEqualTo(1);
        assertThat(objects.writes - writes).isZero();
    }

    @Test
    void theImageIdIsTheOneEc2ReportsForTheInstance() {
        NodeClaim claim = w.store.create(LifecycleFixtures.initialized("c1", "default"));

        projector.sync(List.of(claim), Map.of(claim.instanceId(), "ami-0ec2reported"), w.clock.instant(), () -> true);

        assertThat(objects.written.get("c1").status().imageID()).isEqualTo("ami-0ec2reported");
    }

    @Test
    void aSweepWritesAtMostItsShareAndDefersTheRest() {
        NodeClaimProjector.Report r = projector.sync(thousandClaims(), w.clock.instant());

        assertThat(r.created()).isEqualTo(NodeClaimProjector.MAX_WRITES);
        assertThat(r.deferred()).isEqualTo(1_000 - NodeClaimProjector.MAX_WRITES);
    }

    @Test
    void aSweepOutOfTimeWritesNothingMore() {
        NodeClaimProjector.Report r = projector.sync(thousandClaims(), w.clock.instant(), () -> false);

        assertThat(r.writes()).isZero();
        assertThat(r.deferred()).isEqualTo(1_000);
    }

    @Test
    void anObjectWithoutStatusIsWrittenAgain() {
        List<NodeClaim> claims = List.of(w.store.create(LifecycleFixtures.initialized("a", "default")));
        projector.sync(claims, w.clock.instant());
        ObservedNodeClaim o = objects.stored.get("a");
        objects.stored.put("a", new ObservedNodeClaim("a", o.resourceVersion(), o.digest(), o.finalizers(), null, false));

        assertThat(projector.sync(claims, w.clock.instant()).updated()).isEqualTo(1);
    }

    @Test
    void aListThatFailsFailsOnlyTheProjection() {
        NodeClaimProjector broken = new NodeClaimProjector(new Objects() {
            @Override
            public List<ObservedNodeClaim> list() {
                throw new IllegalStateException("503");
            }
        }, new ClaimProjection(ClaimProjection.CapacityOf.NONE, ClaimProjection.Drift.NONE), w.termination,
                () -> new GantryConfig(List.of(pool), List.of(), "us-east-1", List.of()));

        assertThat(broken.sync(List.of(), Instant.EPOCH).failed()).isEqualTo(1);
    }
}
