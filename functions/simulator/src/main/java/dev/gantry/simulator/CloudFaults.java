package dev.gantry.simulator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The EC2 faults a scenario switches on: insufficient capacity for some offerings, and API throttling, each for a
 * window of virtual time. Throttling draws from its own seeded stream, so switching it on does not shift other draws.
 * These are the scenario's {@code fault:} event actions; the {@code faults:} section's rates (5xx, ICE on every
 * offering, Describe lag) are {@link dev.gantry.simulator.faults.FaultPlan}'s, applied in {@link SimulatedCloud}.
 *
 * <p>Not modelled: ICE that depends on how much is asked for (a window covers an offering entirely), and capacity
 * coming back gradually at the end of a window.
 */
final class CloudFaults {
    private record Ice(Set<String> types, Set<String> zones, Set<String> capacityTypes, Instant until) {
        boolean covers(String type, String zone, String capacityType, Instant now) {
            return now.isBefore(until) && (types.isEmpty() || types.contains(type)) && (zones.isEmpty() || zones.contains(zone))
                    && (capacityTypes.isEmpty() || capacityTypes.contains(capacityType));
        }
    }

    private record Throttle(double probability, Instant until) {
    }

    private final List<Ice> ice = new ArrayList<>();
    private final List<Throttle> throttles = new ArrayList<>();
    private final SplittableRandom random;
    private long throttled;

    CloudFaults(long seed) {
        this.random = new SplittableRandom(seed ^ 0x7411a5L);
    }

    /** Empty sets mean "any". */
    void addIce(Set<String> types, Set<String> zones, Set<String> capacityTypes, Instant until) {
        ice.add(new Ice(Set.copyOf(types), Set.copyOf(zones), Set.copyOf(capacityTypes), until));
    }

    void addThrottle(double probability, Instant until) {
        throttles.add(new Throttle(probability, until));
    }

    boolean noCapacity(String type, String zone, String capacityType, Instant now) {
        return ice.stream().anyMatch(i -> i.covers(type, zone, capacityType, now));
    }

    /** Whether this API call is throttled; draws only while a throttle window is open. */
    boolean throttle(Instant now) {
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

    /** Whether a throttle window is open now (an accessor for the invariants; draws nothing). */
    boolean throttling(Instant now) {
        return throttles.stream().anyMatch(t -> now.isBefore(t.until()) && t.probability() > 0);
    }

    /** The end of the latest fault window (insufficient capacity or throttling) that has ended by now, or MIN. */
    Instant lastEnded(Instant now) {
        Instant last = Instant.MIN;
        for (Ice i : ice) {
            last = !now.isBefore(i.until()) && i.until().isAfter(last) ? i.until() : last;
        }
        for (Throttle t : throttles) {
            last = !now.isBefore(t.until()) && t.until().isAfter(last) ? t.until() : last;
        }
        return last;
    }

    long throttledCalls() {
        return throttled;
    }
}
