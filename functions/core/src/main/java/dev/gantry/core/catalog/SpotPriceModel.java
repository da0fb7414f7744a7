package dev.gantry.core.catalog;

/**
 * Where spot prices come from when there is no live spot price history: offline runs, the simulator and tests.
 * Implementations must be pure functions of their arguments (the same inputs give the same price on every call and
 * in every JVM), so plans are reproducible. The live adapter replaces this with DescribeSpotPriceHistory.
 */
@FunctionalInterface
public interface SpotPriceModel {
    /**
     * The spot price per instance-hour of {@code instanceType} in {@code zone}, given its on-demand price there.
     * Returns a non-negative finite number, normally below {@code onDemandPrice}.
     */
    double spotPrice(String instanceType, String zone, double onDemandPrice);
}
