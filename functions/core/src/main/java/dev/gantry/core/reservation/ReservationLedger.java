package dev.gantry.core.reservation;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How many more instances each capacity reservation can take, as this process knows it: the count EC2 last reported
 * ({@link #sync}), less the launches made into it since ({@link #take}), plus the terminations ({@link #release}).
 * Karpenter's availability cache does the same (aws {@code pkg/providers/capacityreservation/types.go}
 * availabilityCache: MarkLaunched, MarkTerminated, MarkUnavailable).
 *
 * <p>Thread-safe: {@link #take} decrements atomically, so two launches in one process (a batch's claims, two
 * overlapping runs) never both take the last slot. Across processes (two Lambda invocations) the ledgers are separate
 * and EC2 is the arbiter: a launch into a full reservation fails with {@code ReservationCapacityExceeded}, which marks
 * the reservation full here ({@link #markUnavailable}) until the next sync. A launch counted before a sync that
 * already includes it is not counted twice (the take is dropped when the sync is newer), erring towards
 * overestimating, as Karpenter does.
 */
public final class ReservationLedger {
    private final Map<String, Entry> entries = new HashMap<>();

    private static final class Entry {
        CapacityReservation reservation;
        int count;
        Instant syncedAt;

        Entry(CapacityReservation r, Instant at) {
            this.reservation = r;
            this.count = r.availableInstanceCount();
            this.syncedAt = at;
        }
    }

    /** Replaces each listed reservation's count with the one EC2 reported at {@code at}. */
    public synchronized void sync(List<CapacityReservation> reservations, Instant at) {
        for (CapacityReservation r : reservations) {
            entries.put(r.id(), new Entry(r, at));
        }
    }

    /** How many more instances {@code reservationId} can take (0 when unknown). */
    public synchronized int available(String reservationId) {
        Entry e = entries.get(reservationId);
        return e == null ? 0 : e.count;
    }

    /**
     * How many more instances of {@code instanceType} in {@code zone} the reservations active at {@code now} can take,
     * each less the claims {@code launching} into it (recorded, not yet counted by EC2).
     */
    public synchronized int available(String instanceType, String zone, Instant now, Map<String, Integer> launching) {
        return entries.values().stream().filter(e -> e.reservation.instanceType().equals(instanceType)
                        && e.reservation.availabilityZone().equals(zone) && !e.reservation.ended(now)
                        && CapacityReservation.STATE_ACTIVE.equals(e.reservation.state(now)))
                .mapToInt(e -> Math.max(0, e.count - launching.getOrDefault(e.reservation.id(), 0))).sum();
    }

    /**
     * Takes one slot of a reservation for {@code instanceType} in {@code zone}, active at {@code now}: an ODCR before a
     * Capacity Block before an interruptible ODCR (aws {@code pkg/providers/instance/filter/filter.go}
     * CapacityReservationTypeFilter), then the one with the most slots left (ReservedOfferingFilter), then by id.
     * Empty when none has a slot.
     */
    public synchronized Optional<CapacityReservation> take(String instanceType, String zone, Instant now) {
        Optional<Entry> best = entries.values().stream()
                .filter(e -> e.count > 0 && e.reservation.instanceType().equals(instanceType)
                        && e.reservation.availabilityZone().equals(zone)
                        && CapacityReservation.STATE_ACTIVE.equals(e.reservation.state(now)) && !e.reservation.ended(now))
                .min(Comparator.comparingInt((Entry e) -> priority(e.reservation))
                        .thenComparing(e -> -e.count).thenComparing(e -> e.reservation.id()));
        best.ifPresent(e -> e.count--);
        return best.map(e -> e.reservation);
    }

    /**
     * Counts a launch into {@code reservationId} made at {@code launchedAt} (one not taken through {@link #take}: a
     * replayed launch, an adopted instance); ignored when the last sync is newer, as the sync already counted it.
     */
    public synchronized void launched(String reservationId, Instant launchedAt) {
        Entry e = entries.get(reservationId);
        if (e != null && !e.syncedAt.isAfter(launchedAt) && e.count > 0) {
            e.count--;
        }
    }

    /** An instance of {@code reservationId} terminated: its slot is free again. */
    public synchronized void release(String reservationId) {
        Entry e = entries.get(reservationId);
        if (e != null) {
            e.count++;
        }
    }

    /** EC2 refused a launch into it (full) or is reclaiming it (interruption): no slot until the next sync. */
    public synchronized void markUnavailable(String reservationId) {
        Entry e = entries.get(reservationId);
        if (e != null) {
            e.count = 0;
        }
    }

    private static int priority(CapacityReservation r) {
        if (r.interruptible()) {
            return 2;
        }
        return CapacityReservation.TYPE_CAPACITY_BLOCK.equals(r.reservationType()) ? 1 : 0;
    }
}
