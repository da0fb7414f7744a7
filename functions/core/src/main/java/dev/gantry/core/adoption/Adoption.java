package dev.gantry.core.adoption;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.KarpenterTags;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * (claims, Karpenter's instances, nodes) → what adoption does: the migration from a running Karpenter, with no node
 * replaced. Karpenter's controller is scaled to 0 first; from then on its instances are Gantry's to record, one claim
 * per instance, named as Karpenter named its NodeClaim, so that expiry, consolidation, interruption and termination
 * treat them as Gantry's own.
 *
 * <p>Per instance this cluster's Karpenter launched ({@link KarpenterTags#launchedFor}; any other is ignored, even if
 * handed in):
 * <ul>
 *   <li>Its NodePool is not one Gantry manages: left alone ({@link Skip}, {@code unmanaged-pool}), never recorded,
 *       retagged or terminated.</li>
 *   <li>A claim already holds it (by instance id, or by the name it is tagged with, for that instance): adopted before.
 *       What a crash may have left undone is finished ({@link Finish}): Gantry's tags added, the node's finalizer
 *       swapped. A claim of that name holding another instance: left alone ({@code name-taken}), names are never
 *       reused.</li>
 *   <li>No {@link KarpenterTags#NODECLAIM} tag: left alone ({@code unnamed}). Karpenter tags the name once the node has
 *       registered, so this is a launch Karpenter had in flight when it was scaled down (or tagging lagged); its
 *       NodeClaim object's name is not on the instance, and a claim under another name would leave that object stuck.
 *       The README's procedure waits for such launches to finish before scaling Karpenter down.</li>
 *   <li>Otherwise recorded ({@link Adopt}), with Karpenter's name, the pool, the instance's type, zone and capacity
 *       type (the node's {@code karpenter.sh/capacity-type} label first: it says {@code reserved}), and its real launch
 *       time as the claim's creation and launch, so {@code expireAfter} counts from it. The state is the node's:
 *       Initialized when Karpenter's {@code karpenter.sh/initialized} label is on it, Registered when only
 *       {@code karpenter.sh/registered} is (registration then initializes it as it does Gantry's), Launched when the
 *       node has neither label (registration finishes it) or there is no node (the registration timeout then terminates
 *       the instance, as for Gantry's own). A node being deleted (Karpenter was terminating it) is recorded as its
 *       state says and handed to Gantry's termination flow, which drains it and removes Karpenter's finalizer too.</li>
 * </ul>
 * The node's patch: Gantry's finalizer for Karpenter's (not on a node being deleted, where none may be added), the
 * {@code gantry.dev/nodeclaim} label, and Karpenter's {@code karpenter.sh/unregistered} taint removed (no Karpenter is
 * left to remove it).
 */
public final class Adoption {
    /** Karpenter's taint on a node it has not registered yet. */
    public static final String UNREGISTERED_TAINT = "karpenter.sh/unregistered";
    /** The node label naming a node's claim (as registration writes it on Gantry's own). */
    public static final String NODECLAIM_LABEL = dev.gantry.core.lifecycle.ClaimsByNode.LABEL;

    private Adoption() {
    }

    /** One instance's outcome. */
    public sealed interface Step permits Adopt, Finish, Skip {
        String instanceId();
    }

    /**
     * Record {@code claim} (version 0, to be created), then patch its node (null: none, or nothing to change), tag the
     * instance, and start the termination flow when {@code nodeDeleting}.
     */
    public record Adopt(String instanceId, NodeClaim claim, Map<String, String> tags, String node, NodePatch nodePatch,
                        boolean nodeDeleting) implements Step {
    }

    /** Adopted before: do what is still undone (tags null: tagged; nodePatch null: the node is done). */
    public record Finish(String instanceId, String claim, Map<String, String> tags, String node, NodePatch nodePatch)
            implements Step {
    }

    /** Left alone, for {@code reason} ({@code unmanaged-pool}, {@code unnamed}, {@code name-taken}). */
    public record Skip(String instanceId, String reason) implements Step {
    }

    /**
     * @param cluster the cluster's name, as Karpenter's cluster tag carries it
     * @param pools   the names of the NodePools Gantry manages, this run
     * @param prices  the hourly price of an offering (0 when unknown), for the claim's cost
     */
    public static List<Step> decide(String cluster, Set<String> pools, List<NodeClaim> claims, List<CloudInstance> instances,
                                    List<Node> nodes, Prices prices, Instant now) {
        Map<String, NodeClaim> byName = new HashMap<>();
        Map<String, NodeClaim> byInstance = new HashMap<>();
        for (NodeClaim c : claims) {
            byName.put(c.name(), c);
            if (c.instanceId() != null && c.state() != NodeClaimState.Terminated) {
                byInstance.put(c.instanceId(), c);
            }
        }
        Map<String, Node> nodeByInstance = new HashMap<>();
        for (Node n : nodes) {
            if (n.instanceId() != null) {
                nodeByInstance.putIfAbsent(n.instanceId(), n);
            }
        }
        List<Step> out = new ArrayList<>();
        for (CloudInstance i : instances) {
            if (!KarpenterTags.launchedFor(cluster, i.tags()) || i.isGone()) {
                continue;
            }
            String pool = i.tags().get(KarpenterTags.NODEPOOL);
            String name = i.tags().get(KarpenterTags.NODECLAIM);
            Node node = nodeByInstance.get(i.instanceId());
            NodeClaim held = byInstance.getOrDefault(i.instanceId(), name == null ? null : byName.get(name));
            if (!pools.contains(pool)) {
                out.add(new Skip(i.instanceId(), "unmanaged-pool"));
            } else if (held != null && !i.instanceId().equals(held.instanceId())) {
                out.add(new Skip(i.instanceId(), "name-taken"));
            } else if (held != null) {
                if (held.state() != NodeClaimState.Terminated) {
                    Map<String, String> tags = missing(gantryTags(cluster, held.nodePool(), held.name()), i.tags());
                    NodePatch patch = held.state().isDeleting() ? null : nodePatch(node, held.name());
                    if (tags != null || patch != null) {
                        out.add(new Finish(i.instanceId(), held.name(), tags, patch == null ? null : node.name(), patch));
                    }
                }
            } else if (name == null) {
                out.add(new Skip(i.instanceId(), "unnamed"));
            } else {
                NodeClaim claim = claim(name, pool, i, node, prices, now);
                out.add(new Adopt(i.instanceId(), claim, gantryTags(cluster, pool, name), node == null ? null : node.name(),
                        nodePatch(node, name), node != null && node.deletionTimestamp() != null));
            }
        }
        return out;
    }

    /** The hourly price of an offering; 0 when unknown. */
    @FunctionalInterface
    public interface Prices {
        Prices NONE = (type, zone, capacityType) -> 0;

        double hourly(String instanceType, String zone, String capacityType);

        /** The price of the offering among {@code types} (the catalogue, read at each call), 0 when none matches. */
        static Prices of(java.util.function.Supplier<List<InstanceType>> types) {
            return (type, zone, capacityType) -> types.get().stream().filter(t -> t.name().equals(type))
                    .flatMap(t -> t.offerings().stream())
                    .filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType))
                    .mapToDouble(Offering::pricePerHour).findFirst().orElse(0);
        }
    }

    /** The tags Gantry's own launches carry, which its IAM grants (terminate) key on. */
    static Map<String, String> gantryTags(String cluster, String pool, String claim) {
        Map<String, String> tags = new TreeMap<>();
        tags.put(CloudInstance.TAG_CLUSTER, cluster);
        tags.put(CloudInstance.TAG_NODEPOOL, pool);
        tags.put(CloudInstance.TAG_NODECLAIM, claim);
        return tags;
    }

    /** The wanted tags the instance lacks (or has with another value); null when none. */
    private static Map<String, String> missing(Map<String, String> wanted, Map<String, String> has) {
        Map<String, String> out = new TreeMap<>();
        wanted.forEach((k, v) -> {
            if (!v.equals(has.get(k))) {
                out.put(k, v);
            }
        });
        return out.isEmpty() ? null : out;
    }

    /** What the node needs to be Gantry's: null when there is no node or nothing to change. */
    static NodePatch nodePatch(Node node, String claim) {
        if (node == null) {
            return null;
        }
        boolean deleting = node.deletionTimestamp() != null;
        boolean addFinalizer = !deleting && !node.finalizers().contains(Node.FINALIZER);
        // Karpenter's finalizer goes only where Gantry's replaces it; on a node being deleted, the termination flow
        // removes it when it is done (none may be added to an object being deleted).
        boolean dropKarpenters = !deleting && node.finalizers().contains(Node.KARPENTER_FINALIZER);
        boolean label = !claim.equals(node.labels().get(NODECLAIM_LABEL));
        boolean untaint = node.taints().stream().anyMatch(t -> t.key().equals(UNREGISTERED_TAINT));
        if (!addFinalizer && !dropKarpenters && !label && !untaint) {
            return null;
        }
        return new NodePatch(label ? Map.of(NODECLAIM_LABEL, claim) : null, null,
                untaint ? List.of(UNREGISTERED_TAINT) : null, null, addFinalizer ? List.of(Node.FINALIZER) : null,
                dropKarpenters ? List.of(Node.KARPENTER_FINALIZER) : null);
    }

    /** The claim for an instance Karpenter launched, in the state its node shows. */
    static NodeClaim claim(String name, String pool, CloudInstance i, Node node, Prices prices, Instant now) {
        String type = i.instanceType();
        String zone = i.zone();
        String capacity = node != null && node.labels().get(WellKnownLabels.CAPACITY_TYPE) != null
                ? node.labels().get(WellKnownLabels.CAPACITY_TYPE) : i.capacityType();
        double price = prices.hourly(type, zone, capacity);
        Instant launched = i.launchTime() != null ? i.launchTime() : now;
        Map<String, String> pinned = new LinkedHashMap<>();
        pinned.put(WellKnownLabels.NODEPOOL, pool);
        pinned.put(WellKnownLabels.INSTANCE_TYPE, type);
        pinned.put(WellKnownLabels.ZONE, zone);
        pinned.put(WellKnownLabels.CAPACITY_TYPE, capacity);
        List<Requirement> requirements = new ArrayList<>();
        pinned.forEach((k, v) -> {
            if (v != null) {
                requirements.add(Requirement.of(k, Operator.In, v));
            }
        });
        NodeClaim c = NodeClaim.launching(name, pool, null, requirements, type == null ? List.of() : List.of(type), List.of(),
                type, zone, capacity, price, launched).launched(i.instanceId(), type, zone, capacity, price, launched);
        if (node == null || !node.registered() && !node.initialized()) {
            return c;
        }
        Instant since = node.createdAt() != null ? node.createdAt() : launched;
        c = c.registered(node.name(), since);
        // Karpenter's lastPodEventTime is on its NodeClaim, not the node: adoption counts as the pods' last event, so
        // consolidation waits consolidateAfter from the migration rather than act on adopted nodes at once.
        return node.initialized() ? c.initialized(since).podEvent(now, null) : c;
    }
}
