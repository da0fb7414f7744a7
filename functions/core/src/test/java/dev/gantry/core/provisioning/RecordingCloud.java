package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A cloud that behaves like CreateFleet for tests: the claim name is the ClientToken (a second launch returns the first
 * instance), the cheapest allowed offering of the options is tried first and offerings set to fail are skipped (and
 * reported), and when none is left it throws {@link InsufficientCapacity}. Records every launch request.
 */
final class RecordingCloud implements CloudProvider {
    private final Clock clock;
    private final Map<String, CloudInstance> byToken = new LinkedHashMap<>();
    private final List<LaunchRequest> requests = new ArrayList<>();
    private final Set<OfferingKey> failing = new HashSet<>();
    private int next = 1;

    RecordingCloud(Clock clock) {
        this.clock = clock;
    }

    void fail(String type, String zone, String capacityType) {
        failing.add(new OfferingKey(type, zone, capacityType));
    }

    List<LaunchRequest> requests() {
        return List.copyOf(requests);
    }

    /** Instances actually created (not counting idempotent repeats). */
    List<CloudInstance> instances() {
        return List.copyOf(byToken.values());
    }

    @Override
    public synchronized LaunchResult launch(LaunchRequest request) {
        requests.add(request);
        CloudInstance existing = byToken.get(request.claimName());
        if (existing != null) {
            return new LaunchResult(existing, List.of());
        }
        List<OfferingKey> failed = new ArrayList<>();
        for (Candidate c : candidates(request)) {
            OfferingKey key = new OfferingKey(c.type().name(), c.offering().zone(), c.offering().capacityType());
            if (failing.contains(key)) {
                failed.add(key);
                continue;
            }
            CloudInstance i = new CloudInstance(String.format("i-%017x", next++), key.instanceType(), key.zone(),
                    key.capacityType(), "pending", clock.instant(), null,
                    Map.of(CloudInstance.TAG_NODECLAIM, request.claimName(), CloudInstance.TAG_NODEPOOL, request.nodePool().name()));
            byToken.put(request.claimName(), i);
            return new LaunchResult(i, failed);
        }
        throw new InsufficientCapacity("InsufficientInstanceCapacity", failed);
    }

    private record Candidate(InstanceType type, Offering offering) {
    }

    /** Spot before on-demand when both are allowed (as Karpenter launches), then by price. */
    private static List<Candidate> candidates(LaunchRequest request) {
        List<Candidate> out = new ArrayList<>();
        for (InstanceType t : request.options()) {
            for (Offering o : t.offerings()) {
                boolean allowed = request.requirements().get(WellKnownLabels.ZONE).has(o.zone())
                        && request.requirements().get(WellKnownLabels.CAPACITY_TYPE).has(o.capacityType());
                if (o.available() && allowed) {
                    out.add(new Candidate(t, o));
                }
            }
        }
        out.sort(Comparator.comparing((Candidate c) -> !c.offering().capacityType().equals("spot"))
                .thenComparingDouble(c -> c.offering().pricePerHour()));
        return out;
    }

    @Override
    public void terminate(List<String> instanceIds) {
    }

    @Override
    public List<CloudInstance> listInstances() {
        return instances();
    }

    @Override
    public Optional<CloudInstance> describe(String instanceId) {
        return byToken.values().stream().filter(i -> i.instanceId().equals(instanceId)).findFirst();
    }
}
