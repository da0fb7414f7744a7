package dev.gantry.simulator.world.aws;

import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.CapacityReservations;
import dev.gantry.core.sweep.CapacityBlockExpiry;
import dev.gantry.simulator.runtime.CallKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The account's capacity reservations (On-Demand Capacity Reservations and Capacity Blocks) inside
 * {@link SimulatedCloud}, behind the core port {@link CapacityReservations} that the deployed functions reach through
 * the EC2 adapter ({@code CapacityReservationResolver}): the provisioner's reserved offerings
 * ({@code ReservedOfferings}, {@code ReservationLedger}, {@code ReservationAssignment}) and the sweep's Capacity Block
 * step ({@code CapacityBlockExpiry}) run unchanged over it. What it models, as EC2 does:
 * <ul>
 *   <li><b>Selection</b> as DescribeCapacityReservations answers the adapter's calls: a term by id names one
 *       reservation (an unknown id selects nothing); any other term ANDs {@code owner-id}, every tag ({@code *}: any
 *       value) and {@code instance-match-criteria}; every call asks for {@code state=active}. Terms are ORed,
 *       deduplicated and ordered by id, and reservations past their end dropped (the adapter's rules). Each term's
 *       answer is cached for a minute, as the adapter caches it, so counts are up to a minute old. Each uncached call
 *       is an EC2 call with its latency, request bucket and injected faults ({@link Ec2Sdk}).</li>
 *   <li><b>Counts.</b> A reserved CreateFleet ({@link PreparedLaunch}: a claim pinned to a reservation, its launch
 *       template targeting it) takes one slot per instance; when the reservation is full, not active, or of another
 *       type or zone than the override, the override fails with {@code ReservationCapacityExceeded} (the EC2 stub's
 *       answer, {@code Ec2Reservations}). An instance's slot is free again once it is terminated or stopped.</li>
 *   <li><b>Capacity Blocks</b> ({@code reservationType: capacity-block}) have an end: EC2 reports them {@code active}
 *       throughout, and the core derives {@code expiring} from the end ({@link CapacityReservation#state}, 40 minutes
 *       before it, as Karpenter does); EC2 begins terminating the instances still in the block
 *       {@link CapacityBlockExpiry#RECLAIM_BEFORE_END} before the end (cause {@code capacity-block-end}), and at the end
 *       the block is {@code expired}, with no slot.</li>
 *   <li><b>Interruptible reservations</b> ({@code interruptible: true}): {@link #interruptible} lists the instances
 *       their owner may reclaim; the scenario sends the "EC2 Capacity Reservation Instance Interruption Warning" for
 *       them, the reservation's count shrinks by each reclaimed slot ({@link #reclaim}), and EC2 ends them two minutes
 *       later (cause {@code reservation-reclaim}).</li>
 * </ul>
 *
 * <p>Not modelled (EC2 does these): billing of unused slots (an ODCR bills its whole count at the on-demand rate, used
 * or not; a Capacity Block is paid up front): an instance in a reservation costs its type's on-demand list price while
 * it runs, and the summary's {@code reserved} row counts only used slots; reservations that start later (every one is
 * active from the start), cancellation and modification of a count; an ODCR's end moving its instances to on-demand
 * (only Capacity Blocks end here, and their instances are reclaimed); open reservations absorbing untargeted launches
 * (every launch here targets one or none, as Gantry's launches do); shared reservations' cross-account view;
 * platforms, tenancy, placement groups and Outposts; the other filters.
 */
public final class SimulatedReservations implements CapacityReservations {
    /** The account that owns the reservations unless a scenario says otherwise. */
    public static final String ACCOUNT = "123456789012";
    /** How long the adapter keeps a term's answer ({@code CapacityReservationResolver.TTL}). */
    static final Duration CACHE = Duration.ofMinutes(1);

    /**
     * A reservation as a scenario declares it.
     *
     * @param endsAfter when it ends after the run's start; null for one without an end (a Capacity Block needs one)
     */
    public record Spec(String id, String instanceType, String zone, int count, String reservationType,
                       boolean interruptible, Duration endsAfter, String ownerId, String matchCriteria,
                       Map<String, String> tags) {
        public Spec {
            reservationType = reservationType == null ? CapacityReservation.TYPE_DEFAULT : reservationType;
            ownerId = ownerId == null ? ACCOUNT : ownerId;
            matchCriteria = matchCriteria == null ? "targeted" : matchCriteria;
            tags = Map.copyOf(tags == null ? Map.of() : tags);
            if (count < 1) {
                throw new IllegalArgumentException("a reservation's count is at least 1, got " + count);
            }
        }
    }

    /** One reservation's state: EC2's {@code state}, its end, and the instances holding its slots. */
    private static final class Reservation {
        final Spec spec;
        final Instant end;
        String state = "active";
        /** Its total slots: the declared count, less what an interruptible reservation's owner reclaimed. */
        int count;
        final Set<String> holders = new LinkedHashSet<>();

        Reservation(Spec spec, Instant end) {
            this.spec = spec;
            this.end = end;
            this.count = spec.count();
        }

        int available() {
            return "active".equals(state) ? Math.max(0, count - holders.size()) : 0;
        }

        CapacityReservation view() {
            return new CapacityReservation(spec.id(), spec.instanceType(), spec.zone(), spec.ownerId(),
                    spec.matchCriteria(), spec.reservationType(), spec.interruptible(), end, available());
        }
    }

    private record Cached(Instant at, List<CapacityReservation> answer) {
    }

    private final SimulatedCloud cloud;
    private final Map<String, Reservation> byId = new LinkedHashMap<>();
    private final Map<String, String> templateTargets = new HashMap<>();
    private final Map<String, String> instanceIn = new HashMap<>();
    private final Map<CapacityReservationSelectorTerm, Cached> cache = new HashMap<>();
    private Consumer<String> log = line -> { };
    /** Slots taken beyond a reservation's count: 0 unless a test switches {@link #overAdmit} on. */
    private boolean overAdmit;

    SimulatedReservations(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    /** Where the reservations' lifecycle is told (a Capacity Block expiring, reclaimed, expired). */
    public SimulatedReservations onLifecycle(Consumer<String> sink) {
        this.log = sink;
        return this;
    }

    /** Adds a reservation, active from {@code start}, and schedules a Capacity Block's end. */
    public void add(Spec spec, Instant start) {
        Instant end = spec.endsAfter() == null ? null : start.plus(spec.endsAfter());
        Reservation r = new Reservation(spec, end);
        byId.put(spec.id(), r);
        if (end == null || !CapacityReservation.TYPE_CAPACITY_BLOCK.equals(spec.reservationType())) {
            return;
        }
        cloud.loop.at(end.minus(CapacityReservation.EXPIRY_WINDOW), "capacity block expiring " + spec.id(),
                () -> log.accept(spec.id() + " is expiring: " + r.holders.size() + " instances in it, ends at " + end));
        cloud.loop.at(end.minus(CapacityBlockExpiry.RECLAIM_BEFORE_END), "capacity block reclaim " + spec.id(), () -> {
            List<SimulatedInstance> in = r.holders.stream().map(cloud.byId::get).filter(i -> i != null && i.isAlive()).toList();
            log.accept("EC2 reclaims " + in.size() + " instances of " + spec.id() + " (30 minutes before its end)");
            in.forEach(i -> cloud.end(i, "capacity-block-end"));
        });
        cloud.loop.at(end, "capacity block expired " + spec.id(), () -> {
            r.state = "expired";
            log.accept(spec.id() + " expired");
        });
    }

    /** DescribeCapacityReservations for each term, as the adapter calls it and caches the answers. */
    @Override
    public List<CapacityReservation> select(List<CapacityReservationSelectorTerm> terms) {
        Instant now = cloud.loop.now();
        Map<String, CapacityReservation> found = new TreeMap<>();
        for (CapacityReservationSelectorTerm term : terms) {
            Cached c = cache.get(term);
            if (c == null || !now.isBefore(c.at().plus(CACHE))) {
                List<CapacityReservation> answer = cloud.sdk().call(CallKind.DESCRIBE_INSTANCES,
                        "DescribeCapacityReservations", () -> describe(term), List::size);
                c = new Cached(now, answer);
                cache.put(term, c);
            }
            c.answer().forEach(r -> found.putIfAbsent(r.id(), r));
        }
        return found.values().stream().filter(r -> !r.ended(now)).sorted(Comparator.comparing(CapacityReservation::id))
                .toList();
    }

    /** EC2's answer to one term's call: its filters, and {@code state=active}. */
    private List<CapacityReservation> describe(CapacityReservationSelectorTerm term) {
        List<CapacityReservation> out = new ArrayList<>();
        for (Reservation r : byId.values()) {
            if ("active".equals(r.state) && matches(term, r.spec)) {
                out.add(r.view());
            }
        }
        return out;
    }

    private static boolean matches(CapacityReservationSelectorTerm term, Spec s) {
        if (term.id() != null) {
            return term.id().equals(s.id());
        }
        if (term.ownerId() != null && !term.ownerId().equals(s.ownerId())) {
            return false;
        }
        if (term.instanceMatchCriteria() != null && !term.instanceMatchCriteria().equals(s.matchCriteria())) {
            return false;
        }
        return term.tags().entrySet().stream().allMatch(t -> s.tags().containsKey(t.getKey())
                && ("*".equals(t.getValue()) || t.getValue().equals(s.tags().get(t.getKey()))));
    }

    /** A launch template whose {@code CapacityReservationTarget} names {@code reservationId}. */
    void targetedBy(String template, String reservationId) {
        templateTargets.put(template, reservationId);
    }

    /** The reservation a launch template targets, or null. */
    String targetOf(String template) {
        return templateTargets.get(template);
    }

    /**
     * One instance of {@code type} in {@code zone} launched into {@code id}: false (nothing taken) when the reservation
     * is unknown, not active, full, or of another type or zone (EC2's {@code ReservationCapacityExceeded}).
     */
    boolean take(String id, String type, String zone, String instanceId) {
        Reservation r = byId.get(id);
        if (r == null || !r.spec.instanceType().equals(type) || !r.spec.zone().equals(zone)
                || (r.available() < 1 && !(overAdmit && "active".equals(r.state)))) {
            return false;
        }
        r.holders.add(instanceId);
        instanceIn.put(instanceId, id);
        return true;
    }

    /** Whether {@code id} could take one instance of {@code type} in {@code zone} now. */
    boolean hasSlot(String id, String type, String zone) {
        Reservation r = byId.get(id);
        return r != null && r.spec.instanceType().equals(type) && r.spec.zone().equals(zone)
                && (r.available() > 0 || (overAdmit && "active".equals(r.state)));
    }

    /** The instance terminated or stopped: the slot it held, if any, is free again. */
    void left(String instanceId) {
        String id = instanceIn.remove(instanceId);
        if (id != null) {
            byId.get(id).holders.remove(instanceId);
        }
    }

    /** The reservation {@code instanceId} runs in, or null. */
    public String reservationOf(String instanceId) {
        return instanceIn.get(instanceId);
    }

    /** Each reservation's count (its total slots), by id. */
    public Map<String, Integer> counts() {
        Map<String, Integer> out = new TreeMap<>();
        byId.forEach((id, r) -> out.put(id, r.count));
        return out;
    }

    /** The instances each reservation holds now (launched into it, not yet terminated or stopped), oldest first. */
    public Map<String, List<String>> held() {
        Map<String, List<String>> out = new TreeMap<>();
        byId.forEach((id, r) -> {
            if (!r.holders.isEmpty()) {
                out.put(id, List.copyOf(r.holders));
            }
        });
        return out;
    }

    /** Whether {@code id} is an interruptible reservation this account knows. */
    public boolean isInterruptible(String id) {
        Reservation r = byId.get(id);
        return r != null && r.spec.interruptible();
    }

    /** The live instances in {@code id}, oldest first (those its owner may reclaim, when it is interruptible). */
    public List<SimulatedInstance> interruptible(String id) {
        Reservation r = byId.get(id);
        return r == null ? List.of() : r.holders.stream().map(cloud.byId::get)
                .filter(i -> i != null && i.isAlive()).toList();
    }

    /**
     * The owner of an interruptible reservation takes back {@code i}'s slot (the warning went out): the reservation's
     * count shrinks by one at once and the instance no longer holds a slot, so nothing launches into the capacity
     * while the instance has its two minutes; EC2 ends the instance then.
     */
    public void reclaim(SimulatedInstance i) {
        String id = instanceIn.get(i.id);
        if (id != null) {
            left(i.id);
            byId.get(id).count--;
        }
    }

    /**
     * A double that admits launches beyond a reservation's count (EC2 never does): only for showing that the
     * "reserved launches never exceed a reservation's count" invariant fires.
     */
    public void overAdmitForTest() {
        this.overAdmit = true;
    }
}
