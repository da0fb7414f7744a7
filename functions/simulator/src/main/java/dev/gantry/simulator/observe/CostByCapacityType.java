package dev.gantry.simulator.observe;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run's cost split by capacity type, integrated as {@link Recorder}'s total is: the rates of every live instance
 * summed per capacity-type value ({@code spot}, {@code on-demand}, {@code reserved} or any later one: the key is the
 * value the instance carries, so a new type needs no change here). The parts sum to the total.
 */
public final class CostByCapacityType {
    private final Map<String, Double> cost = new TreeMap<>();
    private Map<String, Double> perHour = Map.of();
    private Instant lastAt;

    CostByCapacityType(Instant start) {
        this.lastAt = start;
    }

    void restart(Instant t) {
        lastAt = t;
    }

    /** Integrates up to {@code now} at the rates in force, then sets {@code rates} ($/h by capacity type). */
    void rates(Instant now, Map<String, Double> rates) {
        double hours = Duration.between(lastAt, now).toMillis() / 3_600_000.0;
        perHour.forEach((type, rate) -> cost.merge(type, rate * hours, Double::sum));
        rates.keySet().forEach(type -> cost.putIfAbsent(type, 0.0));
        perHour = Map.copyOf(rates);
        lastAt = now;
    }

    /** Dollars so far by capacity type, in key order. */
    public Map<String, Double> total() {
        return Collections.unmodifiableMap(cost);
    }
}
