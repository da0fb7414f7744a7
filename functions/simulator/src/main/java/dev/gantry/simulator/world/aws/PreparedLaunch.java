package dev.gantry.simulator.world.aws;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.NodeLabels;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A CreateFleet's parameters as the EC2 adapter prepares them for a launch request: one capacity type, at most
 * {@value #MAX_INSTANCE_TYPES} instance types, one launch template, and an override per allowed offering.
 */
final class PreparedLaunch {
    /** The most instance types one CreateFleet carries, as the adapter's {@code FleetPlan.MAX_INSTANCE_TYPES}. */
    static final int MAX_INSTANCE_TYPES = 60;

    private PreparedLaunch() {
    }

    /**
     * What the adapter's {@code prepare} resolves, without a call (the adapter's DescribeSubnets, DescribeSecurityGroups,
     * SSM and CreateLaunchTemplate calls are cached and not modelled): the capacity type, and one launch template for all
     * the options (named by what it writes into the user data: the NodeClass, its AMI family, the kubelet's labels and
     * taints) whose overrides are the options in order, each in its allowed offerings of that capacity type, cheapest
     * first, in the zone's first subnet the NodeClass selects ({@link SimulatedSubnets}; a zone with none is left out).
     */
    static LaunchParameters of(LaunchRequest request, List<InstanceType> options, String cluster, SimulatedImages images,
                               SimulatedReservations reservations) {
        // A claim pinned to a reservation (ReservationAssignment) launches reserved, its template targeting it.
        String reservation = request.requirements().singleValuedLabels().get(ReservationLabels.ID);
        String capacityType = capacityType(options, request, reservation != null);
        if (capacityType == null) {
            throw new InsufficientCapacity("NoAvailableOffering", List.of()); // the adapter's answer: nothing to ask for
        }
        List<LaunchParameters.Override> overrides = new ArrayList<>();
        List<InstanceType> types = new ArrayList<>();
        for (InstanceType type : options) {
            List<Offering> allowed = allowed(type, request, capacityType);
            if (!allowed.isEmpty()) {
                types.add(type);
            }
            allowed.forEach(o -> overrides.add(new LaunchParameters.Override(type.name(), o.zone(),
                    SimulatedSubnets.in(request.nodeClass(), o.zone()).orElseThrow())));
        }
        List<String> zones = overrides.stream().map(LaunchParameters.Override::zone).distinct().toList();
        String family = request.nodeClass().effectiveAmiFamily();
        String template = "sim/" + Integer.toHexString(java.util.Objects.hash(request.nodeClass().name(), family,
                NodeLabels.forUserData(request, capacityType, types, zones), request.taints()));
        if (WellKnownLabels.CAPACITY_RESERVED.equals(capacityType)) {
            template += "/" + reservation; // one template per reservation, as the adapter's LaunchTemplateSpec
            reservations.targetedBy(template, reservation);
        }
        Map<String, String> tags = new java.util.TreeMap<>(Map.of(CloudInstance.TAG_CLUSTER, cluster,
                CloudInstance.TAG_NODEPOOL, request.nodePool().name(),
                request.count() == 1 ? CloudInstance.TAG_NODECLAIM : CloudInstance.TAG_LAUNCH, request.clientToken()));
        return new LaunchParameters(capacityType, List.of(new LaunchParameters.Template(template, images.of(request.nodeClass()), 0,
                overrides)), tags);
    }

    /**
     * The one capacity type a CreateFleet asks for, as the adapter's {@code FleetPlan} chooses it: spot when the claim
     * allows it and one of the options has an available spot offering in an allowed zone (Karpenter prefers spot),
     * else on-demand when allowed and offered; null when neither is. An ICE therefore names offerings of that type only,
     * and the re-plan may fall back to the other. Reserved comes first, for a claim pinned to a reservation only.
     */
    private static String capacityType(List<InstanceType> options, LaunchRequest request, boolean pinned) {
        ValueSet capacityTypes = request.requirements().get(WellKnownLabels.CAPACITY_TYPE);
        for (String c : List.of(WellKnownLabels.CAPACITY_RESERVED, WellKnownLabels.CAPACITY_SPOT,
                WellKnownLabels.CAPACITY_ON_DEMAND)) {
            if (WellKnownLabels.CAPACITY_RESERVED.equals(c) != pinned) {
                continue;
            }
            if (capacityTypes.has(c) && options.stream().anyMatch(t -> !allowed(t, request, c).isEmpty())) {
                return c;
            }
        }
        return null;
    }

    private static List<Offering> allowed(InstanceType type, LaunchRequest request, String capacityType) {
        ValueSet zones = request.requirements().get(WellKnownLabels.ZONE);
        return type.offerings().stream()
                // A reserved offering's availability is the ledger's count, which the pinned claim's own take may have
                // spent: the reservation it targets decides, as in the adapter's FleetPlan.
                .filter(o -> (o.available() || WellKnownLabels.CAPACITY_RESERVED.equals(capacityType))
                        && zones.has(o.zone()) && o.capacityType().equals(capacityType))
                .filter(o -> SimulatedSubnets.in(request.nodeClass(), o.zone()).isPresent())
                .sorted(Comparator.comparingDouble(Offering::pricePerHour).thenComparing(Offering::zone))
                .toList();
    }

    /** What identifies a CreateFleet's parameters for its ClientToken: all it sends but the token. */
    static String identity(LaunchParameters p, int count) {
        StringBuilder b = new StringBuilder(p.capacityType()).append('|').append(count).append('|').append(p.sortedTags());
        for (LaunchParameters.Template t : p.templates()) {
            b.append('|').append(t.name()).append(',').append(t.imageId()).append(',').append(t.maxPods()).append(',')
                    .append(t.overrides());
        }
        return b.toString();
    }
}
