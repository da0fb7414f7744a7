package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.List;

/**
 * The cheapest fractional cover of a CPU and memory demand by instance types' allocatable: the optimum of the linear
 * program min Σ p_t x_t subject to Σ cpu_t x_t ≥ C, Σ mem_t x_t ≥ M, x ≥ 0. With two constraints an optimal vertex uses
 * at most two types, so every single type and every pair is tried. No integer packing can cost less.
 */
public final class LowerBound {
    private LowerBound() {
    }

    /** The bound for {@code demand} over {@code types} priced by their cheapest offering under {@code reqs}; 0 for no demand. */
    public static double of(Resources demand, List<InstanceType> types, Requirements reqs, java.util.function.Function<InstanceType, Resources> overhead) {
        double c = demand.cpuMillis();
        double m = demand.memoryBytes();
        if (c <= 0 && m <= 0) {
            return 0;
        }
        int n = types.size();
        double[] cpu = new double[n];
        double[] mem = new double[n];
        double[] price = new double[n];
        int k = 0;
        for (InstanceType t : types) {
            Offering o = t.cheapestOffering(reqs);
            Resources room = t.allocatable().minus(overhead.apply(t));
            if (o == null || room.cpuMillis() <= 0 || room.memoryBytes() <= 0) {
                continue;
            }
            cpu[k] = room.cpuMillis();
            mem[k] = room.memoryBytes();
            price[k] = o.pricePerHour();
            k++;
        }
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < k; i++) {
            best = Math.min(best, price[i] * Math.max(c / cpu[i], m / mem[i]));
        }
        // Pairs: both constraints tight. Only pairs where one type is relatively CPU-rich and the other memory-rich help.
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                double det = cpu[i] * mem[j] - cpu[j] * mem[i];
                if (det == 0) {
                    continue;
                }
                double xi = (c * mem[j] - cpu[j] * m) / det;
                double xj = (cpu[i] * m - c * mem[i]) / det;
                if (xi >= 0 && xj >= 0) {
                    best = Math.min(best, price[i] * xi + price[j] * xj);
                }
            }
        }
        return best == Double.POSITIVE_INFINITY ? 0 : best;
    }
}
