package dev.gantry.kube.objects.dump;

import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.kube.objects.PodMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The NodeClaims Gantry's store would hold for a dump's managed nodes (those with a {@code karpenter.sh/nodepool}
 * label), so that an offline decision reads a dump exactly as the sweep reads the cluster and its store:
 * <ul>
 *   <li>State: Initialized when the node carries {@code karpenter.sh/initialized=true}, else Registered when it carries
 *       {@code karpenter.sh/registered=true}, else Launched (not a candidate, not a destination, not counted).</li>
 *   <li>Initialized at: the dump's NodeClaim's Initialized condition when the dump holds Karpenter's NodeClaims;
 *       else when the node last became Ready; else its creation; a node with no timestamp at all counts as
 *       initialized long ago.</li>
 *   <li>Last pod event: the NodeClaim's {@code status.lastPodEventTime} when the dump holds it; else the latest time a
 *       pod that is not a DaemonSet's was bound to the node (its PodScheduled condition, else its creation) or began
 *       terminating there. A dump cannot show pods that already left, so this can be earlier than Karpenter's.</li>
 *   <li>Drift stamp: the NodeClaim's hash annotations ({@code karpenter.sh/nodepool-hash(-version)},
 *       {@code karpenter.k8s.aws/ec2nodeclass-hash(-version)}) when it carries all four, with its {@code Drifted}
 *       condition (reason, last transition) when True; else none (the sweep would stamp the claim).</li>
 *   <li>Image: the NodeClaim's {@code status.imageID} ({@link #images}).</li>
 * </ul>
 */
final class DumpClaims {
    private DumpClaims() {
    }

    /** What the dump says about nodes and pods beyond their mapped values. */
    static final class Facts {
        private final Map<String, Instant> readySince = new HashMap<>();
        private final Map<String, Instant> lastPodEvent = new HashMap<>();
        private final Map<String, JsonNode> claimsByNode = new HashMap<>();
        private final Map<String, JsonNode> claimsByProvider = new HashMap<>();

        void node(Node n, Instant ready) {
            if (ready != null) {
                readySince.put(n.name(), ready);
            }
        }

        void podEvent(String node, Instant at) {
            if (at != null) {
                lastPodEvent.merge(node, at, (a, b) -> a.isAfter(b) ? a : b);
            }
        }

        void nodeClaim(JsonNode claim) {
            JsonNode status = claim.path("status");
            String node = status.path("nodeName").asString("");
            String provider = status.path("providerID").asString("");
            if (!node.isEmpty()) {
                claimsByNode.put(node, claim);
            }
            if (!provider.isEmpty()) {
                claimsByProvider.put(provider, claim);
            }
        }

        boolean hasNodeClaims() {
            return !claimsByNode.isEmpty() || !claimsByProvider.isEmpty();
        }

        /**
         * The dump's NodeClaim of a node: by provider id first, as Karpenter pairs them and as Gantry's own rule does
         * ({@link dev.gantry.core.lifecycle.ClaimsByNode}), else by the node name it registered with.
         */
        JsonNode claimOf(Node n) {
            JsonNode c = n.providerId() == null ? null : claimsByProvider.get(n.providerId());
            return c != null ? c : claimsByNode.get(n.name());
        }
    }

    static List<NodeClaim> of(List<Node> nodes, Facts facts) {
        List<NodeClaim> out = new ArrayList<>();
        for (Node n : nodes) {
            String pool = n.labels().get(WellKnownLabels.NODEPOOL);
            if (pool == null) {
                continue;
            }
            JsonNode claim = facts.claimOf(n);
            String name = claim == null ? n.name() : claim.path("metadata").path("name").asString(n.name());
            NodeClaimState state = n.initialized() ? NodeClaimState.Initialized
                    : n.registered() ? NodeClaimState.Registered : NodeClaimState.Launched;
            Instant created = n.createdAt() != null ? n.createdAt() : Instant.EPOCH;
            Instant initialized = null;
            if (state == NodeClaimState.Initialized) {
                initialized = condition(claim, "Initialized");
                if (initialized == null) {
                    initialized = facts.readySince.getOrDefault(n.name(), created);
                }
            }
            Instant lastPodEvent = claim == null ? null : time(claim.path("status").path("lastPodEventTime"));
            if (lastPodEvent == null) {
                lastPodEvent = facts.lastPodEvent.get(n.name());
            }
            Map<String, String> l = n.labels();
            out.add(new NodeClaim(name, 0, pool, null, state, List.of(), List.of(), List.of(), n.instanceId(),
                    l.get(WellKnownLabels.INSTANCE_TYPE), l.get(WellKnownLabels.ZONE), l.get(WellKnownLabels.CAPACITY_TYPE), 0,
                    n.name(), created, created, state == NodeClaimState.Launched ? null : created, initialized,
                    n.deletionTimestamp(), null, null, null, 0, null, null, lastPodEvent, null, false, null, null, null,
                    stamp(claim)));
        }
        return out;
    }

    /** Each claim's image as its NodeClaim's {@code status.imageID} says, by claim name. */
    static Map<String, String> images(List<Node> nodes, Facts facts) {
        Map<String, String> out = new HashMap<>();
        for (Node n : nodes) {
            JsonNode claim = n.labels().containsKey(WellKnownLabels.NODEPOOL) ? facts.claimOf(n) : null;
            String image = claim == null ? "" : claim.path("status").path("imageID").asString("");
            if (!image.isEmpty()) {
                out.put(claim.path("metadata").path("name").asString(n.name()), image);
            }
        }
        return out;
    }

    private static DriftStamp stamp(JsonNode claim) {
        if (claim == null) {
            return null;
        }
        JsonNode a = claim.path("metadata").path("annotations");
        String poolHash = a.path("karpenter.sh/nodepool-hash").asString("");
        String poolVersion = a.path("karpenter.sh/nodepool-hash-version").asString("");
        String classHash = a.path("karpenter.k8s.aws/ec2nodeclass-hash").asString("");
        String classVersion = a.path("karpenter.k8s.aws/ec2nodeclass-hash-version").asString("");
        if (poolHash.isEmpty() || poolVersion.isEmpty() || classHash.isEmpty() || classVersion.isEmpty()) {
            return null;
        }
        DriftStamp stamp = DriftStamp.launched(poolHash, poolVersion, classHash, classVersion);
        for (JsonNode c : claim.path("status").path("conditions")) {
            if ("Drifted".equals(c.path("type").asString("")) && "True".equals(c.path("status").asString(""))) {
                Instant at = time(c.path("lastTransitionTime"));
                String reason = c.path("reason").asString("");
                if (at != null && !reason.isEmpty()) {
                    stamp = stamp.drift(reason, at);
                }
            }
        }
        return stamp;
    }

    private static Instant condition(JsonNode claim, String type) {
        if (claim == null) {
            return null;
        }
        for (JsonNode c : claim.path("status").path("conditions")) {
            if (type.equals(c.path("type").asString("")) && "True".equals(c.path("status").asString(""))) {
                return time(c.path("lastTransitionTime"));
            }
        }
        return null;
    }

    private static Instant time(JsonNode v) {
        String s = v.asString("");
        return s.isEmpty() ? null : PodMapper.instant(s);
    }
}
