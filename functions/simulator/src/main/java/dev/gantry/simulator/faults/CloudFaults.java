package dev.gantry.simulator.faults;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * EC2's request-rate limits and the faults a scenario switches on. Each API's request token bucket
 * ({@link RequestTokenBucket}, EC2's published sizes) is always there: a call succeeds when it finds a token, as at
 * AWS. The faults, each for a window of virtual time: insufficient capacity for some offerings; throttling, either as a
 * share of calls refused ({@code probability}, a per-attempt draw) or as a noisy neighbour draining the buckets
 * ({@code neighbour}); and an outage, in which EC2 answers every call Unavailable. Throttling draws from its
 * own seeded streams, so switching it on does not shift other draws.
 * These are the scenario's {@code fault:} event actions; the {@code faults:} section's rates (5xx, ICE on every
 * offering, Describe lag) are {@link FaultPlan}'s, applied in {@code SimulatedCloud}.
 *
 * <p>Not modelled: ICE that depends on how much is asked for (a window covers an offering entirely), and capacity
 * coming back gradually at the end of a window.
 */
public final class CloudFaults {
    private record Ice(Set<String> types, Set<String> zones, Set<String> capacityTypes, Instant until) {
        boolean covers(String type, String zone, String capacityType, Instant now) {
            return now.isBefore(until) && (types.isEmpty() || types.contains(type)) && (zones.isEmpty() || zones.contains(zone))
                    && (capacityTypes.isEmpty() || capacityTypes.contains(capacityType));
        }
    }

    private record Throttle(double probability, Instant until) {
    }

    private record Window(Instant from, Instant until) {
        boolean open(Instant now) {
            return !now.isBefore(from) && now.isBefore(until);
        }
    }

    private record Neighbour(double demand, Window window) {
    }

    private final List<Ice> ice = new ArrayList<>();
    private final List<Throttle> throttles = new ArrayList<>();
    private final List<Neighbour> neighbours = new ArrayList<>();
    private final List<Window> outages = new ArrayList<>();
    /** Each API's request bucket, from its first call on. */
    private final Map<String, RequestTokenBucket> buckets = new LinkedHashMap<>();
    private final Map<String, Long> bucketRefusals = new LinkedHashMap<>();
    private final SplittableRandom random;
    private final long seed;
    private long throttled;
    private long refused;

    public CloudFaults(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed ^ 0x7411a5L);
    }

    /** Empty sets mean "any". */
    public void addIce(Set<String> types, Set<String> zones, Set<String> capacityTypes, Instant until) {
        ice.add(new Ice(Set.copyOf(types), Set.copyOf(zones), Set.copyOf(capacityTypes), until));
    }

    public void addThrottle(double probability, Instant until) {
        throttles.add(new Throttle(probability, until));
    }

    /** A noisy neighbour sending {@code demand} times each API's refill rate from {@code from} until {@code until}. */
    public void addNeighbour(double demand, Instant from, Instant until) {
        Neighbour n = new Neighbour(demand, new Window(from, until));
        neighbours.add(n);
        buckets.values().forEach(b -> b.neighbour(demand, from, until));
    }

    /** EC2 answers every call Unavailable from {@code from} until {@code until}. */
    public void addOutage(Instant from, Instant until) {
        outages.add(new Window(from, until));
    }

    /** Whether EC2 is out now (every call fails). */
    public boolean outage(Instant now) {
        if (outages.stream().anyMatch(w -> w.open(now))) {
            refused++;
            return true;
        }
        return false;
    }

    /**
     * Whether this attempt of {@code action} finds no token in its bucket. A bucket is full when first used (an API
     * nobody called has refilled), and shared with every neighbour window, past ones included.
     */
    public boolean noToken(String action, Instant now) {
        RequestTokenBucket b = buckets.computeIfAbsent(action, a -> {
            RequestTokenBucket.Limits limits = RequestTokenBucket.Limits.forAction(a);
            RequestTokenBucket fresh = new RequestTokenBucket(limits, limits.capacity(), now,
                    seed ^ a.hashCode() * 0x9e3779b97f4a7c15L);
            neighbours.forEach(n -> fresh.neighbour(n.demand(), n.window().from(), n.window().until()));
            return fresh;
        });
        if (b.take(now)) {
            return false;
        }
        throttled++;
        bucketRefusals.merge(action, 1L, Long::sum);
        return true;
    }

    /** Attempts each API's bucket refused, by action (our own bursts and neighbours' alike). */
    Map<String, Long> bucketRefusals() {
        return bucketRefusals;
    }

    public boolean noCapacity(String type, String zone, String capacityType, Instant now) {
        return ice.stream().anyMatch(i -> i.covers(type, zone, capacityType, now));
    }

    /** Whether this API call is throttled; draws only while a throttle window is open. */
    public boolean throttle(Instant now) {
        double p = 0;
        for (Throttle t : throttles) {
            if (now.isBefore(t.until())) {
                p = Math.max(p, t.probability());
            }
        }
        if (p > 0 && random.nextDouble() < p) {
            throttled++;
            return true;
        }
        return false;
    }

    /** Whether a throttle, neighbour or outage window is open now (an accessor for the invariants; draws nothing). */
    public boolean throttling(Instant now) {
        return throttles.stream().anyMatch(t -> now.isBefore(t.until()) && t.probability() > 0)
                || neighbours.stream().anyMatch(n -> n.window().open(now) && n.demand() > 0)
                || outages.stream().anyMatch(w -> w.open(now));
    }

    /** The end of the latest fault window (insufficient capacity or throttling) that has ended by now, or MIN. */
    public Instant lastEnded(Instant now) {
        Instant last = Instant.MIN;
        for (Ice i : ice) {
            last = !now.isBefore(i.until()) && i.until().isAfter(last) ? i.until() : last;
        }
        for (Throttle t : throttles) {
            last = !now.isBefore(t.until()) && t.until().isAfter(last) ? t.until() : last;
        }
        List<Window> windows = new ArrayList<>(outages);
        neighbours.forEach(n -> windows.add(n.window()));
        for (Window w : windows) {
            last = !now.isBefore(w.until()) && w.until().isAfter(last) ? w.until() : last;
        }
        return last;
    }

    public long throttledCalls() {
        return throttled;
    }

    /** Calls refused by an outage. */
    public long refusedCalls() {
        return refused;
    }
}
