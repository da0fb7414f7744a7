package dev.gantry.core.disruption.drift;

import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.ReservationLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a launched claim has drifted, and the stamp to keep: pure, from values the sweep read. In Karpenter v1.14's
 * order, the first reason found wins (core {@code pkg/controllers/nodeclaim/disruption/drift.go}, aws
 * {@code pkg/cloudprovider/drift.go}):
 * <ol>
 *   <li>{@value #NODEPOOL}: the NodePool's static hash differs from the claim's, both of the current version.</li>
 *   <li>{@value #REQUIREMENTS}: the node's labels no longer satisfy the NodePool's {@code requirements} (a key the
 *       pool requires with In, Exists, Gt or Lt must be present; widening a requirement never drifts).</li>
 *   <li>{@value #INSTANCE_TYPE}: for a claim older than {@link #INSTANCE_TYPE_AFTER}, the pool no longer offers its
 *       instance type in its zone and capacity type (an offering marked unavailable still counts: capacity is not
 *       drift).</li>
 *   <li>{@value #NODECLASS}: the NodeClass's static hash differs, both of the current version.</li>
 *   <li>{@value #AMI}: the instance's image is not the image the NodeClass resolves now for its architecture and,
 *       under an alias, its variant ({@link ImageKeys}: a GPU node is judged against the NVIDIA image).</li>
 *   <li>{@value #SECURITY_GROUP}: its security groups are not exactly the ones selected; {@value #SUBNET}: its subnet
 *       is not among those selected; {@value #CAPACITY_RESERVATION}: it runs in a capacity reservation (listed
 *       {@code reserved}) that the NodeClass's {@code capacityReservationSelectorTerms} no longer select;
 *       {@value #PLACEMENT_GROUP}: the placement group its node is labelled with is not the one the class selects now
 *       (a selector added, removed or pointing elsewhere, or the group gone).</li>
 * </ol>
 * Stamping ({@link #restamp}): a claim without a stamp (a record written before claims carried one) gets the current
 * hashes; a hash of another version is replaced by the current one (and its version), unless the claim is already
 * drifted, which keeps its hash and takes the version only (Karpenter's hash controller) — so an upgrade of Gantry's
 * hash never drifts a node. Dynamic facts that are unknown (no instance description, nothing resolved) decide nothing.
 */
public final class DriftCheck {
    public static final String NODEPOOL = "NodePoolDrifted";
    public static final String REQUIREMENTS = "RequirementsDrifted";
    public static final String INSTANCE_TYPE = "InstanceTypeNotFound";
    public static final String NODECLASS = "NodeClassDrift";
    public static final String AMI = "AMIDrift";
    public static final String SECURITY_GROUP = "SecurityGroupDrift";
    public static final String SUBNET = "SubnetDrift";
    public static final String CAPACITY_RESERVATION = "CapacityReservationDrift";
    public static final String PLACEMENT_GROUP = "PlacementGroupDrift";
    /** Karpenter checks instance-type drift only for claims older than this. */
    public static final Duration INSTANCE_TYPE_AFTER = Duration.ofHours(1);

    private DriftCheck() {
    }

    /**
     * What the sweep knows of the claim's pool and class now.
     *
     * @param offered  the pool's instance types with their offerings, or null when not known this time
     * @param selected what the NodeClass selects now, empty when not resolved this time
     */
    public record Current(NodePool pool, NodeClass nodeClass, List<InstanceType> offered,
                          Optional<NodeClassResolution.Selected> selected) {
        public Current {
            selected = selected == null ? Optional.empty() : selected;
        }
    }

    /** The claim's stamp brought to the current hash versions (see the class comment). */
    public static DriftStamp restamp(DriftStamp stamp, NodePool pool, NodeClass nodeClass) {
        DriftStamp now = DriftHashes.stamp(pool, nodeClass);
        if (stamp == null) {
            return now;
        }
        boolean keep = stamp.isDrifted();
        String poolHash = stamp.nodePoolHash();
        String classHash = stamp.nodeClassHash();
        if (!stamp.nodePoolHashVersion().equals(DriftHashes.NODEPOOL_VERSION) && !keep) {
            poolHash = now.nodePoolHash();
        }
        if (!stamp.nodeClassHashVersion().equals(DriftHashes.NODECLASS_VERSION) && !keep) {
            classHash = now.nodeClassHash();
        }
        return stamp.withHashes(poolHash, DriftHashes.NODEPOOL_VERSION, classHash, DriftHashes.NODECLASS_VERSION);
    }

    /**
     * The drift reason for a launched claim whose stamp is already current ({@link #restamp}), or null.
     *
     * @param labels   the labels of the claim's node (the claim's labels)
     * @param instance the instance as EC2 describes it, or null when not known this time
     */
    public static String reason(NodeClaim claim, DriftStamp stamp, Map<String, String> labels, CloudInstance instance,
                                Current current, Instant now) {
        if (!stamp.nodePoolHash().equals(DriftHashes.nodePool(current.pool()))) {
            return NODEPOOL;
        }
        if (!Requirements.of(current.pool().template().requirements()).matches(claimLabels(claim, labels, current.offered()))) {
            return REQUIREMENTS;
        }
        if (current.offered() != null && claim.createdAt() != null
                && now.isAfter(claim.createdAt().plus(INSTANCE_TYPE_AFTER)) && !offered(labels, current.offered())) {
            return INSTANCE_TYPE;
        }
        if (!stamp.nodeClassHash().equals(DriftHashes.nodeClass(current.nodeClass()))) {
            return NODECLASS;
        }
        if (instance == null || current.selected().isEmpty()) {
            return null;
        }
        NodeClassResolution.Selected s = current.selected().get();
        if (instance.imageId() != null && !s.images().isEmpty()
                && !currentImage(s.images(), claimLabels(claim, labels, current.offered()), instance.imageId())) {
            return AMI;
        }
        if (!instance.securityGroupIds().isEmpty() && !s.securityGroups().isEmpty()
                && !Set.copyOf(instance.securityGroupIds()).equals(s.securityGroups())) {
            return SECURITY_GROUP;
        }
        if (instance.subnetId() != null && !s.subnets().isEmpty() && !s.subnets().contains(instance.subnetId())) {
            return SUBNET;
        }
        // Checked on the instance as EC2 lists it now: one that fell back to on-demand is not drifted (aws drift.go).
        String reservation = labels.get(ReservationLabels.ID);
        if (s.capacityReservations() != null && reservation != null
                && WellKnownLabels.CAPACITY_RESERVED.equals(instance.capacityType())
                && !s.capacityReservations().contains(reservation)) {
            return CAPACITY_RESERVATION;
        }
        if (s.placementGroupId() != null
                && !s.placementGroupId().equals(labels.getOrDefault(WellKnownLabels.PLACEMENT_GROUP_ID, ""))) {
            return PLACEMENT_GROUP;
        }
        return null;
    }

    /**
     * Whether {@code imageId} is the image the class launches a node with these labels on now: the one its image key
     * gives ({@link ImageKeys}: a GPU node's is the alias's NVIDIA image). A node no key serves (its labels do not say
     * its architecture, or the class resolves no image for its variant) is current only on one of the class's images.
     */
    private static boolean currentImage(Map<String, String> images, Map<String, String> labels, String imageId) {
        Optional<String> key = labels.containsKey(WellKnownLabels.ARCH) ? ImageKeys.keyFor(images, labels) : Optional.empty();
        return key.isPresent() ? images.get(key.get()).equals(imageId) : images.containsValue(imageId);
    }

    /**
     * The claim's labels as Karpenter's NodeClaim carries them: the node's, over its instance type's and the labels its
     * requirements pin (a label the registration has not written yet is not a drift).
     */
    private static Map<String, String> claimLabels(NodeClaim claim, Map<String, String> labels, List<InstanceType> offered) {
        Map<String, String> all = new java.util.HashMap<>(Requirements.of(claim.requirements()).singleValuedLabels());
        String type = labels.get(WellKnownLabels.INSTANCE_TYPE);
        if (offered != null) {
            offered.stream().filter(t -> t.name().equals(type)).findFirst().ifPresent(t -> all.putAll(t.labels()));
        }
        all.putAll(labels);
        return all;
    }

    /** Whether the pool still offers the node's type in its zone and capacity type. */
    private static boolean offered(Map<String, String> labels, List<InstanceType> offered) {
        String type = labels.get(WellKnownLabels.INSTANCE_TYPE);
        String zone = labels.get(WellKnownLabels.ZONE);
        String capacity = labels.get(WellKnownLabels.CAPACITY_TYPE);
        // A reserved node may fall back to on-demand: either counts (Karpenter's instanceTypeNotFound).
        Set<String> capacities = "reserved".equals(capacity) ? Set.of("reserved", "on-demand") : capacity == null ? Set.of() : Set.of(capacity);
        return offered.stream().filter(t -> t.name().equals(type)).anyMatch(t -> t.offerings().stream()
                .anyMatch(o -> (zone == null || o.zone().equals(zone)) && (capacities.isEmpty() || capacities.contains(o.capacityType()))));
    }
}
