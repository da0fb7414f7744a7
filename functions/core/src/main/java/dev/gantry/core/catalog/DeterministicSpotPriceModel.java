package dev.gantry.core.catalog;

import java.nio.charset.StandardCharsets;

/**
 * A reproducible stand-in for spot prices: each (instance type, zone) gets a fixed discount off on-demand, drawn
 * uniformly from [{@value #MIN_DISCOUNT}, {@value #MAX_DISCOUNT}) by a stable hash, so spot costs 20–45% of
 * on-demand, as it typically does, and zones of one type differ from each other the way real spot markets do.
 *
 * <p>The draw: FNV-1a (64-bit) over the UTF-8 bytes of {@code type + "/" + zone}, XOR the seed, passed through the
 * SplitMix64 finaliser; the top 53 bits give {@code u} in [0, 1); discount = {@code 0.55 + 0.25 × u}; price =
 * {@code onDemand × (1 − discount)} rounded to 6 decimal places. It depends on nothing but its inputs, so a seed and a
 * catalogue reproduce the same prices on any machine. Change the seed to get a different but equally plausible market.
 */
public record DeterministicSpotPriceModel(long seed) implements SpotPriceModel {
    public static final double MIN_DISCOUNT = 0.55;
    public static final double MAX_DISCOUNT = 0.80;
    /** The seed the built-in catalogue uses unless told otherwise. */
    public static final long DEFAULT_SEED = 2;

    public static DeterministicSpotPriceModel withDefaultSeed() {
        return new DeterministicSpotPriceModel(DEFAULT_SEED);
    }

    @Override
    public double spotPrice(String instanceType, String zone, double onDemandPrice) {
        double price = onDemandPrice * (1 - discount(instanceType, zone));
        return Math.round(price * 1e6) / 1e6;
    }

    /** The discount off on-demand for this (type, zone), in [{@value #MIN_DISCOUNT}, {@value #MAX_DISCOUNT}). */
    public double discount(String instanceType, String zone) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (instanceType + "/" + zone).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        double u = (mix(h ^ seed) >>> 11) * 0x1.0p-53;
        return MIN_DISCOUNT + (MAX_DISCOUNT - MIN_DISCOUNT) * u;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
