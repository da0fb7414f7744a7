package dev.gantry.core.disruption.drift;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The sweep's drift step (Karpenter's NodeClaim drift controller and NodePool hash controller in one pass): for every
 * registered claim not being deleted, brings its stamp to the current hash versions and records whether it drifted,
 * and why ({@link DriftCheck}), with a conditional write when either changed. A claim no longer drifted is cleared.
 * Reads once per run: the configuration as it is now and the instances the sweep listed (per-run arguments, never
 * kept), and what each NodeClass selects (once per class; a class whose lookup fails decides no dynamic
 * drift this run). Idempotent: a second run over the same state writes nothing.
 */
public final class DriftMarker {
    private final NodeClaimStore store;
    private final NodeClassResolution resolution;
    private java.util.function.Consumer<List<CloudInstance>> listed = l -> { };
    private java.util.function.BiConsumer<String, String> drifted = (claim, reason) -> { };

    public DriftMarker(NodeClaimStore store, NodeClassResolution resolution) {
        this.store = store;
        this.resolution = resolution;
    }

    /** Also tells {@code to} the instances each run is given (an AMI rollout learns which image each claim runs). */
    public DriftMarker onListed(java.util.function.Consumer<List<CloudInstance>> to) {
        this.listed = java.util.Objects.requireNonNull(to, "to");
        return this;
    }

    /** Also tells {@code to} each claim newly marked drifted, with its reason (the simulator's timeline). */
    public DriftMarker onDrifted(java.util.function.BiConsumer<String, String> to) {
        this.drifted = java.util.Objects.requireNonNull(to, "to");
        return this;
    }

    /** What one run did: claims stamped or re-stamped, newly drifted, and no longer drifted. */
    public record Marked(int stamped, int drifted, int cleared) {
        public static final Marked NONE = new Marked(0, 0, 0);
    }

    /**
     * @param config  the NodePools and NodeClasses as they are now
     * @param listed  the cluster's instances as this sweep listed them (the housekeeping step's DescribeInstances)
     * @param offered the instance types a NodeClass offers now (Karpenter's GetInstanceTypes), null when not known
     *                (instance-type drift is then not decided)
     */
    public Marked run(GantryConfig config, List<NodeClaim> claims, List<Node> nodes, List<CloudInstance> listed,
                      Function<NodeClass, List<InstanceType>> offered, Instant now) {
        // Each claim's node by the one rule (instance id, label, then node name; a host name EC2 reused is refused).
        Map<String, Node> nodesOf = new ClaimsByNode(claims).nodesByClaim(nodes);
        this.listed.accept(listed);
        Map<String, CloudInstance> instances = new HashMap<>();
        listed.forEach(i -> instances.put(i.instanceId(), i));
        Map<String, Optional<NodeClassResolution.Selected>> selected = new HashMap<>();
        int stamped = 0;
        int drifted = 0;
        int cleared = 0;
        for (NodeClaim c : claims) {
            Node node = nodesOf.get(c.name());
            Optional<NodePool> pool = config.nodePool(c.nodePool());
            Optional<NodeClass> nodeClass = pool.flatMap(config::nodeClassOf);
            if (node == null || c.state().isDeleting() || c.state() == NodeClaimState.Launching || nodeClass.isEmpty()) {
                continue;
            }
            NodeClass nc = nodeClass.get();
            Optional<NodeClassResolution.Selected> sel = selected.computeIfAbsent(nc.key(), k -> select(nc));
            DriftStamp stamp = DriftCheck.restamp(c.drift(), pool.get(), nc);
            DriftCheck.Current current = new DriftCheck.Current(pool.get(), nc, offered.apply(nc), sel);
            String reason = DriftCheck.reason(c, stamp, node.labels(), c.instanceId() == null ? null : instances.get(c.instanceId()),
                    current, now);
            DriftStamp next = reason != null ? stamp.drift(reason, now) : stamp.cleared();
            if (next.equals(c.drift())) {
                continue;
            }
            try {
                store.update(c.withDrift(next));
            } catch (NodeClaimStore.Conflict lost) {
                continue; // changed under us: the next sweep decides again
            }
            if (c.drift() == null || !next.nodePoolHashVersion().equals(c.drift().nodePoolHashVersion())
                    || !next.nodeClassHashVersion().equals(c.drift().nodeClassHashVersion())) {
                stamped++;
            }
            if (next.isDrifted() && (c.drift() == null || !c.drift().isDrifted())) {
                drifted++;
                System.getLogger(DriftMarker.class.getName()).log(System.Logger.Level.INFO,
                        "drift: nodeclaim/" + c.name() + " drifted: " + reason);
                this.drifted.accept(c.name(), reason);
            } else if (!next.isDrifted() && c.drift() != null && c.drift().isDrifted()) {
                cleared++;
            }
        }
        return new Marked(stamped, drifted, cleared);
    }

    private Optional<NodeClassResolution.Selected> select(NodeClass nc) {
        try {
            return resolution.resolve(nc);
        } catch (CloudException | IllegalStateException e) {
            System.getLogger(DriftMarker.class.getName()).log(System.Logger.Level.WARNING,
                    "drift: what NodeClass " + nc.name() + " selects was not resolved, no dynamic drift decided for it: " + e);
            return Optional.empty();
        }
    }
}
