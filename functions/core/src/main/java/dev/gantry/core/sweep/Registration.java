package dev.gantry.core.sweep;

import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * (claim, node, now) → the lifecycle transition. Launched → Registered when the instance's Node appears (it gets
 * Gantry's finalizer, any labels it lacks, among them the NodePool's labels the kubelet may not set itself, and the
 * pool's template annotations, which no kubelet flag can set); Registered → Initialized once the node is Ready, the
 * pool's startup taints are gone and the instance type's extended resources are advertised. Both can happen in one
 * sweep.
 *
 * <p>Template annotations are put on the Node once, at registration, as Karpenter syncs its NodeClaim's annotations to
 * the Node (core {@code pkg/controllers/nodeclaim/lifecycle/registration.go}); a later change to them drifts the
 * pool's nodes (they are in its static hash), so replacements carry the new ones. Karpenter's
 * {@code karpenter.sh/unregistered} taint holds pods off a node until then; Gantry has none, so a pod may land on a
 * new node in the seconds before its annotations do.
 */
public final class Registration {
    /** Requirement keys whose value is the instance's (or the kubelet's), never the claim's to write. */
    private static final Set<String> PER_INSTANCE = Set.of(WellKnownLabels.HOSTNAME, WellKnownLabels.INSTANCE_TYPE,
            WellKnownLabels.ZONE, WellKnownLabels.ZONE_ID);

    /** Karpenter's label for a node that finished starting (Ready, startup taints gone, resources advertised). */
    public static final String INITIALIZED_LABEL = "karpenter.sh/initialized";

    private Registration() {
    }

    /**
     * @param patch   what to change on the node (null when nothing)
     * @param updated the claim after the transition
     */
    public record Transition(NodePatch patch, NodeClaim updated) {
    }

    public static Optional<Transition> decide(NodeClaim claim, Node node, NodePool pool, InstanceFacts facts, Instant now) {
        NodeClaimState s = claim.state();
        if (s != NodeClaimState.Launched && s != NodeClaimState.Registered) {
            return Optional.empty();
        }
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = Map.of();
        boolean needsFinalizer = false;
        NodeClaim next = claim;
        if (s == NodeClaimState.Launched) {
            labels.putAll(missingLabels(claim, node, pool, facts));
            annotations = missing(pool.template().annotations(), node.annotations());
            needsFinalizer = !node.finalizers().contains(Node.FINALIZER) && node.deletionTimestamp() == null;
            next = claim.registered(node.name(), now);
        }
        if (isInitialized(node, pool, facts)) {
            next = next.initialized(now);
            // As Karpenter marks it: planning treats a node without this label that is not Ready as still starting.
            if (!"true".equals(node.labels().get(INITIALIZED_LABEL))) {
                labels.put(INITIALIZED_LABEL, "true");
            }
        }
        NodePatch patch = labels.isEmpty() && annotations.isEmpty() && !needsFinalizer ? null
                : new NodePatch(labels, null, null, null, needsFinalizer ? List.of(Node.FINALIZER) : null, null, null,
                        annotations);
        return next == claim ? Optional.empty() : Optional.of(new Transition(patch, next));
    }

    /**
     * The labels a Gantry node must carry, minus those it already has with that value: its instance type's, those its
     * claim's requirements pin to one value and the pool's template labels (what the launch gave the node; the ones the
     * kubelet refuses, in the {@code kubernetes.io} and {@code k8s.io} domains, were kept out of its user data and
     * reach the node only here, see {@link dev.gantry.core.cloud.KubeletLabels}), then the claim's own facts.
     */
    static Map<String, String> missingLabels(NodeClaim claim, Node node, NodePool pool, InstanceFacts facts) {
        Map<String, String> want = new LinkedHashMap<>(facts.labels());
        Requirements.of(claim.requirements()).singleValuedLabels().forEach((k, v) -> {
            if (!PER_INSTANCE.contains(k)) {
                want.put(k, v);
            }
        });
        want.putAll(pool.template().labels());
        put(want, WellKnownLabels.NODEPOOL, claim.nodePool());
        put(want, WellKnownLabels.INSTANCE_TYPE, claim.instanceType());
        put(want, WellKnownLabels.ZONE, claim.zone());
        put(want, WellKnownLabels.CAPACITY_TYPE, claim.capacityType());
        put(want, dev.gantry.core.lifecycle.ClaimsByNode.LABEL, claim.name());
        return missing(want, node.labels());
    }

    /** The entries of {@code want} that {@code have} lacks or holds with another value. */
    private static Map<String, String> missing(Map<String, String> want, Map<String, String> have) {
        Map<String, String> missing = new LinkedHashMap<>();
        want.forEach((k, v) -> {
            if (!v.equals(have.get(k))) {
                missing.put(k, v);
            }
        });
        return missing;
    }

    static boolean isInitialized(Node node, NodePool pool, InstanceFacts facts) {
        if (!node.ready()) {
            return false;
        }
        for (Taint startup : pool.template().startupTaints()) {
            if (node.taints().stream().anyMatch(t -> t.key().equals(startup.key()) && t.effect() == startup.effect())) {
                return false;
            }
        }
        for (var e : facts.extendedResources().entrySet()) {
            if (e.getValue() > 0 && node.allocatable().get(e.getKey()) <= 0) {
                return false;
            }
        }
        return true;
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (v != null) {
            m.put(k, v);
        }
    }
}
