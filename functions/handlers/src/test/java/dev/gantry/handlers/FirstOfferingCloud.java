package dev.gantry.handlers;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Launches the request's count of instances in the cheapest allowed offering of the first option; idempotent by
 * ClientToken (claim name or launch token). Records requests.
 */
final class FirstOfferingCloud implements CloudProvider {
    final List<LaunchRequest> requests = new ArrayList<>();
    final Map<String, CloudInstance> byClaim = new LinkedHashMap<>();
    private final Map<String, List<CloudInstance>> byToken = new LinkedHashMap<>();

    @Override
    public synchronized LaunchResult launch(LaunchRequest r) {
        requests.add(r);
        List<CloudInstance> done = byToken.get(r.clientToken());
        if (done != null) {
            return new LaunchResult(done, List.of());
        }
        InstanceType t = r.options().get(0);
        Offering o = t.cheapestOffering(r.requirements());
        if (o == null) {
            throw new InsufficientCapacity("NoAvailableOffering", List.of());
        }
        List<CloudInstance> launched = new ArrayList<>();
        for (int n = 0; n < r.count(); n++) {
            CloudInstance i = new CloudInstance(String.format("i-%017x", byClaim.size() + 1), t.name(), o.zone(),
                    o.capacityType(), "pending", Instant.EPOCH, null, Map.of(r.count() == 1 ? CloudInstance.TAG_NODECLAIM
                    : CloudInstance.TAG_LAUNCH, r.clientToken()));
            byClaim.put(r.count() == 1 ? r.clientToken() : i.instanceId(), i);
            launched.add(i);
        }
        byToken.put(r.clientToken(), List.copyOf(launched));
        return new LaunchResult(launched, List.of());
    }

    @Override public void terminate(List<String> ids) { }
    @Override public List<CloudInstance> listInstances() { return List.copyOf(byClaim.values()); }
    @Override public Optional<CloudInstance> describe(String id) {
        return byClaim.values().stream().filter(i -> i.instanceId().equals(id)).findFirst();
    }
}
