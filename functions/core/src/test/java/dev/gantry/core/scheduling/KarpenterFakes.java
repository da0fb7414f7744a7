package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Karpenter's fake cloud provider catalogue (pkg/cloudprovider/fake), so that ported cases keep their numbers: price
 * 0.1 per vCPU plus 0.1 per GB of memory (plus 1 per GPU), 100m cpu and 10Mi reserved, 5 pods per node unless set,
 * spot in zones 1a and 1b, on-demand in all three, same price for both.
 */
final class KarpenterFakes {
    static final String INTEGER = "integer";
    static final String GPU_A = "fake.com/vendor-a";
    static final String GPU_B = "fake.com/vendor-b";

    private KarpenterFakes() {
    }

    static InstanceType type(String name, String arch, int cpu, int memGi, int pods, Map<String, Long> extended) {
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.ARCH, arch);
        labels.put(WellKnownLabels.OS, "linux");
        labels.put(INTEGER, Integer.toString(cpu));
        double price = 0.1 * cpu + 0.1 * memGi * (double) (1L << 30) / 1e9 + extended.size();
        List<Offering> offerings = new ArrayList<>();
        offerings.add(Offering.of(Fixtures.ZONES.get(0), "spot", price));
        offerings.add(Offering.of(Fixtures.ZONES.get(1), "spot", price));
        for (String z : Fixtures.ZONES) {
            offerings.add(Offering.of(z, "on-demand", price));
        }
        Resources capacity = new Resources(cpu * 1000L, (long) memGi << 30, 100L << 30, pods, extended);
        Resources overhead = Resources.of(100, 10L << 20);
        return new InstanceType(name, labels, capacity, overhead, offerings,
                java.util.Set.of(WellKnownLabels.INSTANCE_GPU_COUNT, WellKnownLabels.INSTANCE_GPU_NAME, WellKnownLabels.INSTANCE_GPU_MANUFACTURER));
    }

    /** default (4 cpu, 4Gi), small (2, 2Gi), two GPU types, arm (16, 128Gi, arm64) and single-pod (1 pod). */
    static List<InstanceType> catalogue() {
        return List.of(type("default-instance-type", "amd64", 4, 4, 5, Map.of()),
                type("small-instance-type", "amd64", 2, 2, 5, Map.of()),
                type("gpu-vendor-instance-type", "amd64", 4, 4, 5, Map.of(GPU_A, 2L)),
                type("gpu-vendor-b-instance-type", "amd64", 4, 4, 5, Map.of(GPU_B, 2L)),
                type("arm-instance-type", "arm64", 16, 128, 5, Map.of()),
                type("single-pod-instance-type", "amd64", 4, 4, 1, Map.of()));
    }

    static SchedulingInput.PoolOffer offer(Fixtures.PoolBuilder b) {
        return b.offer(catalogue());
    }
}
