package dev.gantry.simulator.world.health;

import dev.gantry.core.health.InstanceHealth;
import dev.gantry.core.health.InstanceStatusChecks;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The simulated EC2's status checks, as the sweep reads them ({@link InstanceStatusChecks}): what a scenario's
 * {@code statusCheck} events set, for running instances only (as DescribeInstanceStatus lists by default). Not
 * modelled here: throttling of the call (the HTTP stub and the EC2 adapter's tests cover it) and checks that fail by
 * themselves (only the scenario's events impair an instance).
 */
public final class SimulatedStatusChecks implements InstanceStatusChecks {
    private final Map<String, InstanceHealth> byInstance = new ConcurrentHashMap<>();
    private final Supplier<List<SimulatedInstance>> live;

    public SimulatedStatusChecks(Supplier<List<SimulatedInstance>> live) {
        this.live = live;
    }

    public void set(InstanceHealth health) {
        if (health.failed().isEmpty() && health.events().isEmpty()) {
            byInstance.remove(health.instanceId());
        } else {
            byInstance.put(health.instanceId(), health);
        }
    }

    public InstanceHealth get(String instanceId) {
        return byInstance.getOrDefault(instanceId, new InstanceHealth(instanceId, List.of(), List.of()));
    }

    @Override
    public List<InstanceHealth> unhealthy() {
        Set<String> running = live.get().stream().filter(SimulatedInstance::isAlive).map(SimulatedInstance::id)
                .collect(Collectors.toSet());
        return byInstance.values().stream().filter(h -> running.contains(h.instanceId())).toList();
    }
}
