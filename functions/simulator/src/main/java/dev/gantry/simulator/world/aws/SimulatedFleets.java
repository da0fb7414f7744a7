package dev.gantry.simulator.world.aws;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cloud.NodeLabels;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CreateFleet inside {@link SimulatedCloud} (whose Javadoc states what is modelled): the ClientToken's memory (the same
 * parameters return the first fleet's instances, other parameters are IdempotentParameterMismatch), injected and
 * windowed insufficient capacity, a reserved launch's slots ({@link SimulatedReservations}), and the start of each instance (its private DNS name, the kubelet's labels from the
 * template's user data, running about 10 s later).
 */
final class SimulatedFleets {
    private final SimulatedCloud cloud;
    /** When EC2 last answered insufficient capacity for each offering. */
    private final Map<OfferingKey, Instant> lastIce = new HashMap<>();
    /** The instances each ClientToken launched. */
    private final Map<String, List<SimulatedInstance>> byToken = new LinkedHashMap<>();
    private final Map<String, String> tokens = new LinkedHashMap<>();
    long tokenMismatches;

    SimulatedFleets(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    LaunchResult create(LaunchRequest request, LaunchParameters sent) {
        String token = request.clientToken();
        if (token.length() > SimulatedCloud.MAX_CLIENT_TOKEN) {
            throw new CloudException("InvalidParameterValue", "CreateFleet: Value (" + token + ") for parameter "
                    + "clientToken is invalid: at most " + SimulatedCloud.MAX_CLIENT_TOKEN + " characters", false);
        }
        String parameters = PreparedLaunch.identity(sent, request.count());
        List<SimulatedInstance> existing = byToken.get(token);
        if (existing != null) {
            if (parameters.equals(tokens.get(token))) {
                return new LaunchResult(existing.stream().map(SimulatedInstance::view).toList(), List.of());
            }
            tokenMismatches++;
            throw new SimulatedCloud.TokenReused(token);
        }
        Instant now = cloud.loop.now();
        List<LaunchParameters.Override> overrides = sent.templates().stream().flatMap(t -> t.overrides().stream()).toList();
        if (cloud.injected.draw("ice", cloud.injected.plan().ec2().ice())) {
            List<OfferingKey> all = overrides.stream()
                    .map(o -> new OfferingKey(o.instanceType(), o.zone(), sent.capacityType())).distinct().toList();
            answeredIce(all, now);
            throw new InsufficientCapacity("InsufficientInstanceCapacity", all);
        }
        List<OfferingKey> unavailable = new ArrayList<>();
        List<SimulatedInstance> launched = new ArrayList<>();
        boolean reserved = WellKnownLabels.CAPACITY_RESERVED.equals(sent.capacityType());
        String refusedImage = null; // a deregistered image's template launches nothing (SimulatedImages#refused)
        for (LaunchParameters.Template t : sent.templates()) {
            if (cloud.images.refuses(t.imageId())) {
                refusedImage = t.imageId();
                continue;
            }
            for (LaunchParameters.Override o : t.overrides()) {
                if (launched.size() >= request.count()) {
                    break;
                }
                InstanceType type = cloud.known.get(o.instanceType());
                Offering offering = type == null ? null : type.offerings().stream()
                        .filter(x -> x.zone().equals(o.zone()) && x.capacityType().equals(sent.capacityType()))
                        .findFirst().orElse(null);
                // A reserved launch takes a slot of the reservation its template targets (SimulatedReservations).
                String target = reserved ? cloud.reservations.targetOf(t.name()) : null;
                if (offering == null || cloud.faults.noCapacity(type.name(), o.zone(), sent.capacityType(), now)
                        || (reserved && (target == null || !cloud.reservations.hasSlot(target, type.name(), o.zone())))) {
                    unavailable.add(new OfferingKey(o.instanceType(), o.zone(), sent.capacityType()));
                    continue;
                }
                while (launched.size() < request.count()) {
                    if (reserved && !cloud.reservations.hasSlot(target, type.name(), o.zone())) {
                        unavailable.add(new OfferingKey(o.instanceType(), o.zone(), sent.capacityType()));
                        break;
                    }
                    SimulatedInstance i = start(request, sent, t, type, offering, o.subnetId(), now);
                    if (reserved) {
                        cloud.reservations.take(target, type.name(), o.zone(), i.id);
                    }
                    launched.add(i);
                }
            }
        }
        answeredIce(unavailable, now);
        if (launched.isEmpty()) {
            cloud.images.refused(refusedImage, unavailable);
            throw new InsufficientCapacity(reserved ? "ReservationCapacityExceeded" : "InsufficientInstanceCapacity", unavailable);
        }
        tokens.put(token, parameters);
        byToken.put(token, List.copyOf(launched));
        return new LaunchResult(launched.stream().map(SimulatedInstance::view).toList(), unavailable);
    }

    /**
     * Whether EC2 answered insufficient capacity for this offering within {@code ttl} before {@code now} (an injected
     * ICE or one inside a fault window): what a Karpenter-compatible autoscaler keeps in its unavailable-offerings cache.
     */
    boolean answeredIceWithin(String type, String zone, String capacityType, Duration ttl, Instant now) {
        Instant at = lastIce.get(new OfferingKey(type, zone, capacityType));
        return at != null && now.isBefore(at.plus(ttl));
    }


    private SimulatedInstance start(LaunchRequest request, LaunchParameters sent, LaunchParameters.Template template,
                              InstanceType type, Offering o, String subnetId, Instant now) {
        String id = String.format("i-%017x", cloud.ids.nextLong() & 0xfffffffffffffffL);
        String dns;
        do {
            // Private DNS names are unique in a VPC: redraw on a collision (about ten in 1,000 instances of a /16).
            int a = cloud.ids.nextInt(256);
            int b = cloud.ids.nextInt(256);
            dns = "ip-10-0-" + a + "-" + b + "." + cloud.region + ".compute.internal";
        } while (!cloud.dnsNames.add(dns));
        // The kubelet's labels are the template's user data: written for its types and zones when it was prepared.
        List<InstanceType> types = template.instanceTypes().stream().map(cloud.known::get).filter(java.util.Objects::nonNull).toList();
        Map<String, String> userData = NodeLabels.forUserData(request, sent.capacityType(), types, template.zones());
        // EC2 bills a reserved instance at its type's on-demand rate, not the decision price (on-demand / 10^7).
        double price = WellKnownLabels.CAPACITY_RESERVED.equals(o.capacityType()) ? o.listPrice() : o.pricePerHour();
        SimulatedInstance i = new SimulatedInstance(id, type, o.zone(), o.capacityType(), price, now, dns, sent.tags(), request,
                userData);
        i.imageId = template.imageId();
        i.subnetId = subnetId;
        cloud.byId.put(id, i);
        cloud.loop.after(Duration.ofMillis(8_000 + cloud.jitter.nextLong(4_000)), "ec2 running " + id, () -> {
            if (i.state.equals("pending")) {
                cloud.setState(i, "running", "boot");
            }
        });
        cloud.observer.launched(i);
        return i;
    }

    private void answeredIce(List<OfferingKey> offerings, Instant now) {
        offerings.forEach(k -> lastIce.put(k, now));
    }
}
