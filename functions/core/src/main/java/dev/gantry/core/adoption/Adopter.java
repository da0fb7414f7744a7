package dev.gantry.core.adoption;

import dev.gantry.core.adoption.Adoption.Adopt;
import dev.gantry.core.adoption.Adoption.Finish;
import dev.gantry.core.adoption.Adoption.Skip;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The sweep's adoption step: carries out what {@link Adoption} decided for Karpenter's instances. For each instance
 * adopted, in this order: the claim is created (a conditional write: of two sweeps, or a sweep and its redelivery, one
 * creates it and the other finds it), the node is patched, the instance is tagged with Gantry's tags, and a node being
 * deleted is handed to the termination flow. A crash anywhere leaves a claim (then the next sweep's decision is
 * {@link Finish}: it tags and patches what is missing) or none (then it adopts again, under the same name): each
 * instance is recorded exactly once.
 *
 * <p>Runs before registration and housekeeping in each sweep, so that an instance recorded by a run that died before
 * tagging it is tagged before housekeeping looks for the claim's instance among Gantry's. A failure (the listing,
 * one instance's tags: a missing IAM grant, throttling) is logged and left for the next sweep; it never fails the
 * sweep, whose other steps do not depend on it.
 */
public final class Adopter {
    private static final System.Logger LOG = System.getLogger(Adopter.class.getName());

    /**
     * What one run did.
     *
     * @param adopted  claims created for Karpenter's instances
     * @param finished earlier adoptions completed (tags or node patch that a crash left undone)
     * @param skipped  instances left alone, by reason ({@link Skip#reason()})
     * @param failed   instances whose adoption failed this run (retried by the next sweep)
     */
    public record Report(int adopted, int finished, Map<String, Integer> skipped, int failed) {
        public static final Report NONE = new Report(0, 0, Map.of(), 0);

        public Report {
            skipped = Map.copyOf(skipped);
        }
    }

    private final String cluster;
    private final NodeClaimStore store;
    private final CloudProvider cloud;
    private final ClusterWriter writer;
    private final TerminationService termination;
    private final Supplier<Set<String>> pools;
    private final Adoption.Prices prices;

    /**
     * @param pools  the NodePools Gantry manages, read at each run (the cluster's configuration may change between
     *               sweeps): only their instances are adopted
     * @param prices the offerings' hourly prices, for the claims' cost
     */
    public Adopter(String cluster, NodeClaimStore store, CloudProvider cloud, ClusterWriter writer,
                   TerminationService termination, Supplier<Set<String>> pools, Adoption.Prices prices) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.store = store;
        this.cloud = cloud;
        this.writer = writer;
        this.termination = termination;
        this.pools = pools;
        this.prices = prices;
    }

    /** One run over {@code claims} and {@code nodes} as the sweep read them. */
    public Report run(List<NodeClaim> claims, List<Node> nodes, Instant now) {
        List<CloudInstance> instances;
        try {
            instances = cloud.listKarpenterInstances();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "adoption: Karpenter's instances not listed, the next sweep retries: " + e);
            return new Report(0, 0, Map.of(), 1);
        }
        if (instances.isEmpty()) {
            return Report.NONE;
        }
        int adopted = 0;
        int finished = 0;
        int failed = 0;
        Map<String, Integer> skipped = new TreeMap<>();
        for (Adoption.Step step : Adoption.decide(cluster, pools.get(), claims, instances, nodes, prices, now)) {
            try {
                switch (step) {
                    case Adopt a -> adopted += adopt(a, now) ? 1 : 0;
                    case Finish f -> {
                        finish(f.node(), f.nodePatch(), f.instanceId(), f.tags());
                        finished++;
                    }
                    case Skip s -> skipped.merge(s.reason(), 1, Integer::sum);
                }
            } catch (RuntimeException e) {
                failed++;
                LOG.log(System.Logger.Level.WARNING, "adoption of " + step.instanceId() + " not finished, the next sweep "
                        + "retries: " + e);
            }
        }
        if (adopted + finished + failed > 0) {
            LOG.log(System.Logger.Level.INFO, "adoption: " + adopted + " of Karpenter's instances adopted, " + finished
                    + " finished, " + failed + " failed; left alone: " + skipped);
        }
        return new Report(adopted, finished, skipped, failed);
    }

    /** Records the claim, then finishes it; false when another run had recorded it (it is finished all the same). */
    private boolean adopt(Adopt a, Instant now) {
        boolean created;
        try {
            store.create(a.claim());
            created = true;
        } catch (NodeClaimStore.Conflict taken) {
            // Another run recorded it first (the name is the key): finish it all the same, the steps are idempotent.
            created = false;
        }
        finish(a.node(), a.nodePatch(), a.instanceId(), a.tags());
        if (a.nodeDeleting()) {
            // Karpenter was terminating it: Gantry's flow drains it, terminates the instance and lets the node go.
            termination.start(a.claim().name(), TerminationStart.because("deleted").with(FirstSlice.QUEUED));
        }
        return created;
    }

    private void finish(String node, NodePatch patch, String instanceId, Map<String, String> tags) {
        if (patch != null) {
            try {
                writer.patchNode(node, patch);
            } catch (ClusterException e) {
                if (!e.notFound()) {
                    throw e;
                }
            }
        }
        if (tags != null) {
            cloud.tag(instanceId, tags);
        }
    }
}
