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
            ValueSet pinned = ValueSet.in(pin.getValue());
            ValueSet current = next.get(pin.getKey());
            if (!next.has(pin.getKey()) || !current.intersect(pinned).equals(current)) {
                next = next.with(pin.getKey(), pinned); // a pin the claim already holds changes nothing: no copy
            }
        }
        boolean narrowed = next != claim.requirements && !next.equals(claim.requirements);
        List<HostPort> wanted = c.hostPorts();
        if (upsize == Packer.Upsize.FORBIDDEN && !narrowed && noneAtPriceHolds(claim, total, wanted)) {
            return ClaimFit.failForNow(() -> "the pod fits no option at the claim's expected price");
        }
        List<InstanceType> options = claim.options;
        if (!narrowed && wanted.isEmpty() && !claim.pool.hasLimits() && total.extended().isEmpty() && !options.isEmpty()
                && total.fitsIn(claim.minRoom()) && !MinValues.any(next)) {
            // Every option holds the pod set and nothing else tests them: the claim keeps its options as they are.
            return ClaimFit.fits(next, options, claim.maxRoom, claim.optionRooms());
        }
        if (SharedOptions.applies(claim, wanted)) {
            Requirements to = next;
            return claim.pool.sharedOptions.fit(claim, to, total, () -> options(claim, c, to, narrowed, total, wanted));
        }
        return options(claim, c, next, narrowed, total, wanted);
    }

    /** The options {@code claim} keeps for {@code total} under {@code next}, the tail of {@link #fit}. */
    private static ClaimFit options(Claim claim, PodConstraints c, Requirements next, boolean narrowed, Resources total, List<HostPort> wanted) {
        List<InstanceType> options = claim.options;
        Resources[] rooms = claim.optionRooms();
        int n = options.size();
        // Built only once an option is dropped (or the order may change): most fits keep every option.
        List<InstanceType> kept = narrowed ? new ArrayList<>(n) : null;
        Resources[] keptRooms = narrowed ? new Resources[n] : null;
        int keptCount = 0;
        int prefix = 0; // options dropped before the first kept one: a dropped prefix needs no new list (a view does)
        boolean limitHit = false;
        boolean portsHit = false;
        // What roomOf(kept) would give, folded as the options are kept: in longs, with no Resources made per option.
        long cpu = 0;
        long memory = 0;
        long ephemeral = 0;
        long slots = 0;
        boolean extended = false;
        // Narrowed: each option's place among the pool's types compatible with next, cheapest first (-1: not one).
        Ranks rank = narrowed ? ranks(claim.pool, next) : null;
        boolean poolOrder = options == claim.pool.types; // then option i is pool type i
        int[] keptRanks = narrowed ? new int[n] : null;
        boolean unranked = false;
        boolean checkPorts = !wanted.isEmpty();
        boolean checkLimits = claim.pool.hasLimits();
        for (int i = 0; i < n; i++) {
            Resources room = rooms[i];
            InstanceType t = options.get(i);
            boolean keep = total.fitsIn(room);
            if (keep && checkPorts && claim.pool.daemonPortConflict(t, wanted)) {
                portsHit = true; // a DaemonSet on this type binds the same host port
                keep = false;
            }
            int r = 0;
            if (keep && narrowed) {
                int known = poolOrder ? rank.byPoolIndex()[i] : rank.byType().getOrDefault(t, Integer.MIN_VALUE);
                if (known == Integer.MIN_VALUE) {
                    unranked = true; // not one of the pool's types: tested directly, sorted by price below
                    keep = next.compatible(t.requirements()) && t.cheapestOffering(next) != null;
                } else if (known < 0) {
                    keep = false;
                } else {
                    r = known;
                }
            }
            if (keep && checkLimits && !claim.pool.withinLimits(t.capacity(), claim.reserved)) {
                limitHit = true;
                keep = false;
            }
            if (!keep) {
                if (kept == null && keptCount == 0) {
                    prefix = i + 1;
                } else if (kept == null) {
                    kept = new ArrayList<>(n);
                    keptRooms = new Resources[n];
                    for (int j = prefix; j < i; j++) {
                        keptRooms[kept.size()] = rooms[j];
                        kept.add(options.get(j));
                    }
                }
                continue;
            }
            if (narrowed) {
                keptRanks[keptCount] = r;
            }
            if (kept != null) {
                keptRooms[keptCount] = room;
                kept.add(t);
            }
            keptCount++;
            cpu = Math.max(cpu, room.cpuMillis());
            memory = Math.max(memory, room.memoryBytes());
            ephemeral = Math.max(ephemeral, room.ephemeralBytes());
            slots = Math.max(slots, room.pods());
            extended |= !room.extended().isEmpty();
        }
        if (kept == null && prefix > 0) {
            kept = options.subList(prefix, n); // only the first options were dropped
            keptRooms = java.util.Arrays.copyOfRange(rooms, prefix, n);
        }
        if (kept == null && n == 0) {
            kept = new ArrayList<>(); // no options at all: nothing fits
        }
        if (kept == null) {
            // Nothing dropped: keep the same list, so that committing knows nothing about the options changed.
            if (MinValues.any(next) && MinValues.truncate(options, next, Scheduler.MAX_INSTANCE_TYPE_OPTIONS) == null) {
                Requirements narrowedTo = next;
                return ClaimFit.fail(() -> MinValues.shortfall(claim.pool.name(), options, narrowedTo, Scheduler.MAX_INSTANCE_TYPE_OPTIONS));
            }
            Resources keptRoom = new Resources(cpu, memory, ephemeral, slots, java.util.Map.of());
            if (extended) {
                for (Resources room : rooms) {
                    keptRoom = keptRoom.max(room);
                }
            }
            return ClaimFit.fits(next, options, keptRoom, rooms);
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
        Resources[] sortedRooms = null;
        if (narrowed && unranked) {
            Claim.sortByPrice(kept, next);
        } else if (narrowed) {
            sortedRooms = byRank(kept, keptRooms, keptRanks); // the order Claim.sortByPrice gives under next
        }
        if (MinValues.any(next) && MinValues.truncate(kept, next, Scheduler.MAX_INSTANCE_TYPE_OPTIONS) == null) {
            Requirements narrowedTo = next;
            List<InstanceType> shortOf = kept;
            return ClaimFit.fail(() -> MinValues.shortfall(claim.pool.name(), shortOf, narrowedTo, Scheduler.MAX_INSTANCE_TYPE_OPTIONS));
        }
        Resources keptRoom = new Resources(cpu, memory, ephemeral, slots, java.util.Map.of());
        if (extended) {
            for (int i = 0; i < kept.size(); i++) {
                keptRoom = keptRoom.max(keptRooms[i]);
            }
        }
        return ClaimFit.fits(next, kept, keptRoom, narrowed ? sortedRooms : java.util.Arrays.copyOf(keptRooms, kept.size()));
    }

    /**
     * Each of the pool's types' place in {@link PoolContext#typesFor} under {@code reqs} (compatible, with an allowed
     * offering, by price then name), or -1 for the others: once per requirement set rather than per option and fit.
     */
    private static Ranks ranks(PoolContext pool, Requirements reqs) {
        return pool.typeRanks.computeIfAbsent(reqs, r -> {
            Map<InstanceType, Integer> out = new java.util.IdentityHashMap<>();
            for (InstanceType t : pool.types) {
                out.put(t, -1);
            }
            List<InstanceType> ordered = pool.typesFor(r);
            for (int i = 0; i < ordered.size(); i++) {
                out.put(ordered.get(i), i);
            }
            int[] byIndex = new int[pool.types.size()];
            for (int i = 0; i < byIndex.length; i++) {
                byIndex[i] = out.get(pool.types.get(i));
            }
            return new Ranks(out, byIndex);
        });
    }

    /** Types' places under one requirement set, by type and by index in the pool's {@link PoolContext#types}. */
    record Ranks(Map<InstanceType, Integer> byType, int[] byPoolIndex) {
    }

    /**
     * Sorts {@code kept} by rank (ranks are distinct, so this is the order {@link Claim#sortByPrice} gives) and
     * returns the rooms in the same order.
     */
    private static Resources[] byRank(List<InstanceType> kept, Resources[] rooms, int[] ranks) {
        int n = kept.size();
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) {
            sorted = ranks[i - 1] < ranks[i];
        }
        if (sorted) {
            return java.util.Arrays.copyOf(rooms, n);
        }
        long[] order = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = ((long) ranks[i] << 32) | i;
        }
        java.util.Arrays.sort(order);
        InstanceType[] types = kept.toArray(new InstanceType[0]);
        Resources[] out = new Resources[n];
        for (int i = 0; i < n; i++) {
            int from = (int) order[i];
            kept.set(i, types[from]);
            out[i] = rooms[from];
        }
        return out;
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
