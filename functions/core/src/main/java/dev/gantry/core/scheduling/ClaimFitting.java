package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a pod can join a {@link Claim}, and what the claim would become: the tests a pod goes through (taints, host
 * ports, labels the pool does not set, hostnames, room, requirements, topology pins) and the options it leaves. Pure:
 * the claim changes only on {@link Claim#commit}, apart from the caches it keeps for these tests.
 */
final class ClaimFitting {
    private ClaimFitting() {
    }

    /**
     * {@link Claim#fit(PodConstraints, Map)}, told whether the caller will refuse a fit that raises the claim's price. With
     * {@link Packer.Upsize#FORBIDDEN}, a pod that leaves the requirements as they are and fits none of the options at
     * the expected price is refused at once (not lasting), without working out the options it would leave: the caller
     * would refuse that fit anyway, since its cheapest remaining option would be one of the pricier ones. The caller
     * still compares the price of any fit it gets.
     */
    static ClaimFit fit(Claim claim, PodConstraints c, Map<String, String> pins, Packer.Upsize upsize) {
        Taint blocking = c.firstUntolerated(claim.pool.taints);
        if (blocking != null) {
            return ClaimFit.fail("NodePool " + claim.pool.name() + " has taint " + blocking + ", which the pod does not tolerate");
        }
        if (!claim.pods.isEmpty() && !claim.ports.isEmpty() && portConflict(claim, c.hostPorts())) {
            return ClaimFit.fail("host port in use");
        }
        Requirements podReqs = c.nodeRequirements();
        for (String key : podReqs.keys()) {
            // A label the pool does not define will be absent from the node.
            if (!claim.requirements.has(key) && !WellKnownLabels.WELL_KNOWN.contains(key) && !podReqs.get(key).has(null)) {
                return ClaimFit.fail("requires label " + key + " (" + podReqs.get(key).describe() + "); NodePool " + claim.pool.name() + " does not set it");
            }
        }
        ValueSet host = podReqs.get(WellKnownLabels.HOSTNAME);
        if (host.isFinite()) {
            // A new node's hostname is not known before launch, so no claim can promise one.
            return ClaimFit.fail("requires " + WellKnownLabels.HOSTNAME + " " + host.describe() + "; a new node's hostname is not known before launch");
        }
        Resources total = claim.requests.plus(c.requests());
        if (claim.maxRoom == null) {
            claim.maxRoom = claim.options == claim.pool.types ? claim.pool.maxRoom() : claim.roomOf(claim.options);
        }
        if (!total.fitsIn(claim.maxRoom)) {
            return ClaimFit.fail(() -> ClaimMisfit.nothingFits(claim, c, claim.requirements.intersect(podReqs), total));
        }
        Requirements next = claim.requirements;
        if (!podReqs.isEmpty()) {
            String conflict = claim.requirements.conflict(podReqs);
            if (conflict != null) {
                return ClaimFit.fail("requires " + conflict + " " + podReqs.get(conflict).describe() + "; NodePool " + claim.pool.name()
                        + " allows " + ClaimMisfit.allowed(claim, conflict));
            }
            next = claim.requirements.intersect(podReqs);
        }
        for (var pin : pins.entrySet()) {
            next = next.with(pin.getKey(), ValueSet.in(pin.getValue()));
        }
        boolean narrowed = !next.equals(claim.requirements);
        List<HostPort> wanted = c.hostPorts();
        if (upsize == Packer.Upsize.FORBIDDEN && !narrowed && noneAtPriceHolds(claim, total, wanted)) {
            return ClaimFit.failForNow(() -> "the pod fits no option at the claim's expected price");
        }
        List<InstanceType> options = claim.options;
        Resources[] rooms = claim.optionRooms();
        List<InstanceType> kept = new ArrayList<>(options.size());
        Resources[] keptRooms = new Resources[options.size()];
        boolean limitHit = false;
        boolean portsHit = false;
        // What roomOf(kept) would give, folded as the options are kept: in longs, with no Resources made per option.
        long cpu = 0;
        long memory = 0;
        long ephemeral = 0;
        long slots = 0;
        boolean extended = false;
        for (int i = 0; i < rooms.length; i++) {
            Resources room = rooms[i];
            if (!total.fitsIn(room)) {
                continue;
            }
            InstanceType t = options.get(i);
            if (!wanted.isEmpty() && claim.pool.daemonPortConflict(t, wanted)) {
                portsHit = true; // a DaemonSet on this type binds the same host port
                continue;
            }
            if (narrowed && (!next.compatible(t.requirements()) || t.cheapestOffering(next) == null)) {
                continue;
            }
            if (!claim.pool.withinLimits(t.capacity(), claim.reserved)) {
                limitHit = true;
                continue;
            }
            keptRooms[kept.size()] = room;
            kept.add(t);
            cpu = Math.max(cpu, room.cpuMillis());
            memory = Math.max(memory, room.memoryBytes());
            ephemeral = Math.max(ephemeral, room.ephemeralBytes());
            slots = Math.max(slots, room.pods());
            extended |= !room.extended().isEmpty();
        }
        if (kept.isEmpty() && portsHit && !limitHit) {
            return ClaimFit.fail("host port in use by a DaemonSet on every instance type that fits");
        }
        if (kept.isEmpty()) {
            Requirements narrowedTo = next;
            boolean limits = limitHit;
            return limits ? ClaimFit.failForNow(() -> ClaimMisfit.overLimits(claim, c, narrowedTo, total))
                    : ClaimFit.fail(() -> ClaimMisfit.nothingFits(claim, c, narrowedTo, total));
        }
        if (narrowed) {
            Claim.sortByPrice(kept, next);
        }
        if (MinValues.any(next) && MinValues.truncate(kept, next, Scheduler.MAX_INSTANCE_TYPE_OPTIONS) == null) {
            Requirements narrowedTo = next;
            return ClaimFit.fail(() -> MinValues.shortfall(claim.pool.name(), kept, narrowedTo, Scheduler.MAX_INSTANCE_TYPE_OPTIONS));
        }
        Resources keptRoom = new Resources(cpu, memory, ephemeral, slots, java.util.Map.of());
        if (extended) {
            for (int i = 0; i < kept.size(); i++) {
                keptRoom = keptRoom.max(keptRooms[i]);
            }
        }
        if (!narrowed && kept.size() == options.size()) {
            // Nothing dropped: keep the same list, so that committing knows nothing about the options changed.
            return ClaimFit.fits(next, options, keptRoom, rooms);
        }
        return ClaimFit.fits(next, kept, keptRoom, narrowed ? null : java.util.Arrays.copyOf(keptRooms, kept.size()));
    }

    /**
     * Whether none of the options at the expected price would be kept for {@code total}, by the same tests the options
     * go through in {@link #fit} when the requirements do not change (room, DaemonSet host ports, limits).
     */
    private static boolean noneAtPriceHolds(Claim claim, Resources total, List<HostPort> wanted) {
        if (claim.atPrice == null) {
            double price = claim.price();
            List<InstanceType> cheap = new ArrayList<>();
            for (InstanceType t : claim.options) {
                Offering o = t.cheapestOffering(claim.requirements);
                if (o != null && o.pricePerHour() <= price) {
                    cheap.add(t);
                }
            }
            claim.atPrice = cheap;
        }
        for (InstanceType t : claim.atPrice) {
            if (total.fitsIn(claim.pool.room(t)) && (wanted.isEmpty() || !claim.pool.daemonPortConflict(t, wanted))
                    && claim.pool.withinLimits(t.capacity(), claim.reserved)) {
                return false;
            }
        }
        return true;
    }

    private static boolean portConflict(Claim claim, List<HostPort> wanted) {
        for (HostPort w : wanted) {
            for (HostPort p : claim.ports) {
                if (w.conflictsWith(p)) {
                    return true;
                }
            }
        }
        return false;
    }
}
