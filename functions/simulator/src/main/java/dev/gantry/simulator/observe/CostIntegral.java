package dev.gantry.simulator.observe;

import java.time.Duration;
import java.time.Instant;

/**
 * The run's cost and its two bounds, integrated over virtual time at the rates in force: what Gantry's instances cost,
 * the fractional lower bound, and the packing bound (whole pods on whole nodes with their DaemonSets: never above any
 * real day's cost).
 */
final class CostIntegral {
    private Instant lastAt;
    private double cost;
    private double lowerBoundCost;
    private double packingBoundCost;
    private double perHour;
    private double lowerBoundPerHour;
    private double packingBoundPerHour;
    private double peakPerHour;

    CostIntegral(Instant start) {
        this.lastAt = start;
    }

    /** Starts at {@code t} instead (before anything is integrated). */
    void restart(Instant t) {
        this.lastAt = t;
    }

    /** Integrates up to {@code now} at the rates in force, then sets the new rates ($/h). */
    void rates(Instant now, double newPerHour, double newLowerBoundPerHour, double newPackingBoundPerHour) {
        double hours = Duration.between(lastAt, now).toMillis() / 3_600_000.0;
        cost += perHour * hours;
        lowerBoundCost += lowerBoundPerHour * hours;
        packingBoundCost += packingBoundPerHour * hours;
        lastAt = now;
        perHour = newPerHour;
        lowerBoundPerHour = newLowerBoundPerHour;
        packingBoundPerHour = newPackingBoundPerHour;
        peakPerHour = Math.max(peakPerHour, newPerHour);
    }

    double perHour() {
        return perHour;
    }

    double cost() {
        return cost;
    }

    double lowerBoundCost() {
        return lowerBoundCost;
    }

    double packingBoundCost() {
        return packingBoundCost;
    }

    double peakPerHour() {
        return peakPerHour;
    }
}
