package dev.gantry.core.status;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.KubeDuration;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.NodePool.NodeClassRef;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns a claim into the NodeClaim object {@code kubectl} shows, as Karpenter's would read. Conditions follow the
 * claim's state and carry the claim's own timestamps, so the same claim always projects the same object:
 * <ul>
 *   <li>{@code Launched}, {@code Registered}, {@code Initialized}: True from the claim's launch, registration and
 *       initialization times, Unknown before (since the claim's creation);</li>
 *   <li>{@code Ready}: True once all three are (Karpenter's root condition);</li>
 *   <li>{@code Consolidatable}: True once the node is initialized and {@code consolidateAfter} has passed since its
 *       last pod event (or initialization); absent otherwise, and for a pool that never consolidates;</li>
 *   <li>{@code Drifted}: whatever the drift hook says ({@link Drift}); absent by default;</li>
 *   <li>{@code Drained}: Unknown, reason and message {@code Draining}, from the deletion on while the claim drains
 *       (Karpenter's termination controller sets it as its drain begins, {@code awaitDrain}); Gantry's flow drains,
 *       waits for volumes and terminates the instance within the same slices and records no drain-finished time, so
 *       the object, deleted once the instance is gone, never shows {@code Drained=True} or {@code VolumesDetached};</li>
 *   <li>{@code InstanceTerminating}: True once the instance is being terminated.</li>
 *   <li>{@code DisruptionReason}: True, with Karpenter's reason ({@code Empty}, {@code Underutilized},
 *       {@code Drifted}) as reason and message, on a candidate of a disruption command once it is tainted (validated),
 *       since its validation, and on a claim such a command or the emptiness method deleted, since its deletion
 *       (Karpenter's disruption queue sets it as it taints the candidates, {@code markDisrupted}); absent otherwise
 *       (expiry, interruption, a user's delete, a rebalance).</li>
 * </ul>
 */
public final class ClaimProjection {
    /** Requirement keys the NodeClaim CRD refuses (restricted domains): left off the projected spec. */
    private static final java.util.Set<String> KARPENTER_SH_ALLOWED = java.util.Set.of(WellKnownLabels.NODEPOOL,
            WellKnownLabels.CAPACITY_TYPE);

    /** The label Karpenter's AWS provider puts on each NodeClaim: the name of its EC2NodeClass. */
    public static final String EC2_NODE_CLASS_LABEL = "karpenter.k8s.aws/ec2nodeclass";

    /** An instance type's capacity and allocatable, when the catalogue knows it. */
    public record Capacity(Resources capacity, Resources allocatable) {
    }

    /** Looks an instance type's {@link Capacity} up by name (the composition root backs it with the catalogue). */
    @FunctionalInterface
    public interface CapacityOf {
        Optional<Capacity> of(String instanceType);

        CapacityOf NONE = type -> Optional.empty();
    }

    /**
     * The {@code Drifted} condition of a claim, if any: drift detection's hook. Empty (the default) leaves the
     * condition off, as Karpenter does for a claim that is not drifted.
     */
    @FunctionalInterface
    public interface Drift {
        Optional<Condition> of(NodeClaim claim);

        Drift NONE = claim -> Optional.empty();

        /**
         * From the claim's drift stamp, as the sweep's drift step marks it: {@code Drifted=True} with the drift reason
         * ({@code NodePoolDrifted}, {@code AMIDrifted}, ...) since it was first seen drifted; absent otherwise.
         */
        Drift FROM_STAMP = claim -> Optional.ofNullable(claim.drift()).filter(s -> s.isDrifted())
                .map(s -> Condition.isTrue("Drifted", s.drifted(), s.driftedAt()));
    }

    private final CapacityOf capacity;
    private final Drift drift;

    public ClaimProjection(CapacityOf capacity, Drift drift) {
        this.capacity = capacity;
        this.drift = drift;
    }

    /** The object for {@code claim}; {@code pool} is its NodePool when configured (for the nodeClassRef and expiry). */
    public NodeClaimObject project(NodeClaim claim, Optional<NodePool> pool, Instant now) {
        return project(claim, pool, null, now);
    }

    /**
     * As {@link #project(NodeClaim, Optional, Instant)}, with {@code image} the AMI EC2 reports for the claim's instance
     * (null when not known): {@code status.imageID}, what {@code kubectl get nodeclaims} shows. Without it, the image
     * the launch parameters name, while they are on the claim.
     */
    public NodeClaimObject project(NodeClaim claim, Optional<NodePool> pool, String image, Instant now) {
        NodeClassRef ref = pool.map(p -> p.template().nodeClassRef()).orElse(new NodeClassRef(null, null, "unknown"));
        Optional<Capacity> cap = claim.instanceType() == null ? Optional.empty() : capacity.of(claim.instanceType());
        NodeClaimObject.Status status = new NodeClaimObject.Status(providerId(claim), claim.nodeName(), image != null ? image : imageId(claim),
                cap.map(c -> quantities(c.capacity())).orElse(Map.of()),
                cap.map(c -> quantities(c.allocatable())).orElse(Map.of()), conditions(claim, pool, now));
        String expireAfter = pool.map(p -> p.template().expireAfter().map(ClaimProjection::duration).orElse("Never"))
                .orElse(null);
        return new NodeClaimObject(claim.name(), labels(claim, ref), annotations(claim, pool), ref,
                requirements(claim), expireAfter, status);
    }

    /**
     * The pool's template annotations, which its nodes carry too, and the drift hashes over them: Karpenter creates a
     * NodeClaim with its template's annotations and its own hash annotations, which win.
     */
    private static Map<String, String> annotations(NodeClaim claim, Optional<NodePool> pool) {
        Map<String, String> out = new TreeMap<>(pool.map(p -> p.template().annotations()).orElse(Map.of()));
        out.putAll(NodeClaimObject.hashes(claim.drift()));
        return out;
    }

    private static Map<String, String> labels(NodeClaim claim, NodeClassRef ref) {
        Map<String, String> labels = new TreeMap<>(Requirements.of(claim.requirements()).singleValuedLabels());
        labels.remove(WellKnownLabels.HOSTNAME);
        labels.put(WellKnownLabels.NODEPOOL, claim.nodePool());
        if (ref.kind().equals("EC2NodeClass")) {
            labels.put(EC2_NODE_CLASS_LABEL, ref.name());
        }
        putIfKnown(labels, WellKnownLabels.INSTANCE_TYPE, claim.instanceType());
        putIfKnown(labels, WellKnownLabels.CAPACITY_TYPE, claim.capacityType());
        putIfKnown(labels, WellKnownLabels.ZONE, claim.zone());
        labels.values().removeIf(v -> !v.matches("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?") || v.length() > 63);
        return labels;
    }

    private static void putIfKnown(Map<String, String> labels, String key, String value) {
        if (value != null && !value.isEmpty()) {
            labels.put(key, value);
        }
    }

    /** The claim's requirements less the keys the CRD's rules refuse on a NodeClaim. */
    private static List<Requirement> requirements(NodeClaim claim) {
        return claim.requirements().stream().filter(r -> allowed(r.key())).toList();
    }

    private static boolean allowed(String key) {
        String domain = key.contains("/") ? key.substring(0, key.indexOf('/')) : "";
        if (key.equals(WellKnownLabels.HOSTNAME)) {
            return false;
        }
        if (domain.endsWith("karpenter.sh")) {
            return KARPENTER_SH_ALLOWED.contains(key);
        }
        return !domain.endsWith("karpenter.k8s.aws") || key.startsWith("karpenter.k8s.aws/instance-")
                || key.startsWith("karpenter.k8s.aws/capacity-reservation-") || key.equals("karpenter.k8s.aws/ec2nodeclass");
    }

    private static String providerId(NodeClaim claim) {
        if (claim.instanceId() == null) {
            return null;
        }
        return "aws:///" + (claim.zone() == null ? "" : claim.zone()) + "/" + claim.instanceId();
    }

    /** The AMI, while the launch parameters are on the claim (its batch's first claim, until the launch is recorded). */
    private static String imageId(NodeClaim claim) {
        if (claim.launchParameters() == null || claim.instanceType() == null) {
            return null;
        }
        return claim.launchParameters().templates().stream().filter(t -> t.instanceTypes().contains(claim.instanceType()))
                .map(dev.gantry.core.cloud.LaunchParameters.Template::imageId).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
    }

    private List<Condition> conditions(NodeClaim claim, Optional<NodePool> pool, Instant now) {
        Instant created = claim.createdAt() != null ? claim.createdAt() : Instant.EPOCH;
        List<Condition> out = new ArrayList<>();
        out.add(stage("Launched", claim.launchedAt(), "AwaitingLaunch", "instance not launched yet", created));
        out.add(stage("Registered", claim.registeredAt(), "AwaitingRegistration", "node not registered yet", created));
        out.add(stage("Initialized", claim.initializedAt(), "AwaitingInitialization", "node not initialized yet", created));
        boolean ready = claim.launchedAt() != null && claim.registeredAt() != null && claim.initializedAt() != null;
        out.add(ready ? Condition.isTrue("Ready", "Ready", claim.initializedAt())
                : Condition.unknown("Ready", "AwaitingInitialization", "node not initialized yet", created));
        consolidatableSince(claim, pool).filter(at -> !now.isBefore(at))
                .ifPresent(at -> out.add(Condition.isTrue("Consolidatable", "Consolidatable", at)));
        drift.of(claim).ifPresent(out::add);
        if (claim.state() == NodeClaimState.Draining) {
            Instant since = claim.deletionRequestedAt() != null ? claim.deletionRequestedAt() : created;
            out.add(Condition.unknown("Drained", "Draining", "Draining", since));
        }
        if (claim.state() == NodeClaimState.Terminating || claim.state() == NodeClaimState.Terminated) {
            Instant since = claim.deletionRequestedAt() != null ? claim.deletionRequestedAt() : created;
            out.add(Condition.isTrue("InstanceTerminating", "InstanceTerminating", since));
        }
        disruptionReason(claim).ifPresent(out::add);
        return out;
    }

    /** Karpenter's disruption reasons that its disruption queue writes as the {@code DisruptionReason} condition. */
    private static final java.util.Set<String> QUEUE_REASONS = java.util.Set.of("Empty", "Underutilized", "Drifted");

    static Optional<Condition> disruptionReason(NodeClaim claim) {
        dev.gantry.core.lifecycle.ConsolidationMark m = claim.consolidation();
        if (m != null && m.candidates().contains(claim.name()) && m.validateAt() != null
                && (m.phase() == dev.gantry.core.lifecycle.ConsolidationMark.Phase.Launching
                || m.phase() == dev.gantry.core.lifecycle.ConsolidationMark.Phase.Handed)) {
            return reasonCondition(m.reason(), m.validateAt());
        }
        if (claim.state().isDeleting() && claim.deletionRequestedAt() != null) {
            return reasonCondition(claim.deletionReason(), claim.deletionRequestedAt());
        }
        return Optional.empty();
    }

    private static Optional<Condition> reasonCondition(String reason, Instant since) {
        return dev.gantry.core.termination.DisruptionEvents.reason(reason).filter(QUEUE_REASONS::contains)
                .map(r -> new Condition("DisruptionReason", Condition.Status.True, r, r, since));
    }

    private static Condition stage(String type, Instant at, String waiting, String message, Instant created) {
        return at != null ? Condition.isTrue(type, type, at) : Condition.unknown(type, waiting, message, created);
    }

    /** When the claim becomes consolidatable: {@code consolidateAfter} after its last pod event or initialization. */
    private static Optional<Instant> consolidatableSince(NodeClaim claim, Optional<NodePool> pool) {
        if (claim.initializedAt() == null || claim.state().isDeleting()) {
            return Optional.empty();
        }
        Optional<Duration> after = pool.flatMap(p -> p.disruption().consolidateAfter());
        Instant from = claim.lastPodEventAt() != null && claim.lastPodEventAt().isAfter(claim.initializedAt())
                ? claim.lastPodEventAt() : claim.initializedAt();
        return after.map(from::plus);
    }

    private static String duration(Duration d) {
        return d.getNano() == 0 && !d.isNegative() ? KubeDuration.format(d) : null;
    }

    private static Map<String, String> quantities(Resources r) {
        Map<String, String> out = new TreeMap<>();
        r.asMap().forEach((k, v) -> out.put(k, Resources.format(k, v)));
        return out;
    }
}
