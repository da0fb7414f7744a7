package dev.gantry.aws.ec2;

import dev.gantry.aws.ec2.SubnetResolver.ZonalSubnet;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The launch decided before any launch call: the capacity type, and the instance types grouped into launch templates
 * (one per AMI, max-pods value and EFA interface count, as Karpenter's resolver groups them) with their overrides:
 * each type × the chosen subnet of each zone where it has an available offering the claim allows. Pure: no I/O.
 *
 * @param capacityType {@code reserved} for a claim pinned to a capacity reservation, else {@code spot} when the claim
 *                     allows spot and some spot offering is available (Karpenter prefers spot), else {@code on-demand}
 */
public record FleetPlan(String capacityType, List<Group> groups) {
    /** The most instance types one CreateFleet call carries, as in Karpenter. */
    public static final int MAX_INSTANCE_TYPES = 60;

    /**
     * One launch template's share of the fleet: its image, max pods, EFA interfaces (the type's maximum when the claim
     * requests {@code vpc.amazonaws.com/efa}, else 0) and (type, subnet, zone) overrides in order.
     */
    public record Group(String imageId, String arch, int maxPods, int efaCount, List<InstanceType> types,
                        List<Override> overrides) {}

    public record Override(String instanceType, String subnetId, String zone) {}

    public FleetPlan {
        groups = List.copyOf(groups);
    }

    /**
     * Plans the launch of {@code request} into {@code subnets} (zone to subnet) with {@code amis} (image key to image id,
     * {@link ImageKeys}: a type no image serves, such as a GPU type under an alias without a GPU image for its
     * architecture, is left out); empty when no allowed offering is available in a zone that has a subnet.
     */
    public static Optional<FleetPlan> of(LaunchRequest request, Map<String, ZonalSubnet> subnets, Map<String, String> amis) {
        ValueSet zones = request.requirements().get(WellKnownLabels.ZONE);
        ValueSet capacityTypes = request.requirements().get(WellKnownLabels.CAPACITY_TYPE);
        List<InstanceType> options = served(request, amis);
        // Reserved first, as Karpenter's getCapacityType prefers it (aws pkg/providers/instance/instance.go), but only
        // for a claim pinned to a reservation (ReservationAssignment): a launch without a target cannot be reserved.
        boolean pinned = request.requirements().singleValuedLabels().containsKey(ReservationLabels.ID);
        for (String capacityType : List.of(WellKnownLabels.CAPACITY_RESERVED, WellKnownLabels.CAPACITY_SPOT,
                WellKnownLabels.CAPACITY_ON_DEMAND)) {
            if (!capacityTypes.has(capacityType) || WellKnownLabels.CAPACITY_RESERVED.equals(capacityType) != pinned) {
                continue;
            }
            Map<String, Group> groups = new LinkedHashMap<>();
            for (InstanceType type : options) {
                List<Override> overrides = overrides(type, capacityType, zones, subnets);
                if (overrides.isEmpty()) {
                    continue;
                }
                int maxPods = request.nodeClass().kubelet().maxPods() != null
                        ? request.nodeClass().kubelet().maxPods() : (int) Math.max(1, type.capacity().pods());
                String image = ImageKeys.imageFor(amis, type.labels()).orElseThrow();
                int efa = efaCount(request, type);
                Group g = groups.computeIfAbsent(image + "/" + maxPods + "/" + efa,
                        k -> new Group(image, arch(type), maxPods, efa, new ArrayList<>(), new ArrayList<>()));
                g.types().add(type);
                g.overrides().addAll(overrides);
            }
            if (!groups.isEmpty()) {
                return Optional.of(new FleetPlan(capacityType, groups.values().stream()
                        .map(g -> new Group(g.imageId(), g.arch(), g.maxPods(), g.efaCount(), List.copyOf(g.types()),
                                List.copyOf(g.overrides()))).toList()));
            }
        }
        return Optional.empty();
    }

    /** The request's instance types (the first {@link #MAX_INSTANCE_TYPES}) that an image of {@code amis} serves. */
    static List<InstanceType> served(LaunchRequest request, Map<String, String> amis) {
        return request.options().stream().limit(MAX_INSTANCE_TYPES)
                .filter(t -> ImageKeys.imageFor(amis, t.labels()).isPresent()).toList();
    }

    private static List<Override> overrides(InstanceType type, String capacityType, ValueSet zones,
                                            Map<String, ZonalSubnet> subnets) {
        List<Override> out = new ArrayList<>();
        for (ZonalSubnet subnet : subnets.values()) {
            boolean offered = type.offerings().stream().anyMatch(o -> isUsable(o, capacityType, subnet.zone()))
                    && zones.has(subnet.zone());
            if (offered) {
                out.add(new Override(type.name(), subnet.id(), subnet.zone()));
            }
        }
        return out;
    }

    private static boolean isUsable(Offering o, String capacityType, String zone) {
        // A reserved offering's availability is its ledger's count, which the pinned claim's own take may have spent:
        // the reservation it targets, not the offering, decides (EC2 refuses with ReservationCapacityExceeded).
        boolean reserved = WellKnownLabels.CAPACITY_RESERVED.equals(capacityType);
        return (reserved || o.available()) && o.capacityType().equals(capacityType) && o.zone().equals(zone);
    }

    /** The EFA interfaces a type launches with for this request: all it has when the pods ask for EFA, else none. */
    static int efaCount(LaunchRequest request, InstanceType type) {
        return request.requestsEfa() ? (int) type.capacity().get(dev.gantry.core.catalog.AllocatableModel.EFA) : 0;
    }

    static String arch(InstanceType type) {
        return ImageKeys.archOf(type.labels());
    }

    /** Every zone an override of this plan may launch into, sorted. */
    public List<String> zones() {
        return groups.stream().flatMap(g -> g.overrides().stream()).map(Override::zone).distinct().sorted().toList();
    }
}
