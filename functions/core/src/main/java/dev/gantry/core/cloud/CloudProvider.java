package dev.gantry.core.cloud;

import java.util.List;
import java.util.Optional;

/**
 * Launches and terminates the instances behind NodeClaims. Implemented by the EC2 adapter and the simulator.
 *
 * <p>Errors: {@link InsufficientCapacity} when no option could be launched (its offerings are to be marked
 * unavailable and the claim re-planned); {@link CloudException} for everything else, with
 * {@link CloudException#retryable()} saying whether the same call may succeed later (throttling, 5xx).
 */
public interface CloudProvider {

    /**
     * Launches one instance for the claim. Idempotent: the claim name is the ClientToken, so calling again for the
     * same claim returns the instance launched the first time rather than launching another. Offerings that failed
     * along the way (while another option succeeded) come back in {@link LaunchResult#unavailable()}.
     */
    LaunchResult launch(LaunchRequest request);

    /** Terminates the instances. Idempotent: ids that are unknown or already terminated are not errors. */
    void terminate(List<String> instanceIds);

    /** Every instance carrying this cluster's tag that is not terminated. Nothing else is ever listed. */
    List<CloudInstance> listInstances();

    /** One instance by id; empty when EC2 no longer knows it. A terminated instance is returned with that state. */
    Optional<CloudInstance> describe(String instanceId);
}
