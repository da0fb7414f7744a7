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
     * Launches {@link LaunchRequest#count()} identical instances in one call (one CreateFleet with that total target
     * capacity, as Karpenter's CreateFleet batcher merges identical requests).
     * <ul>
     *   <li>Idempotent: {@link LaunchRequest#claimName()} is the ClientToken, so calling again with the same request
     *       returns the instances launched the first time rather than launching more. Called again with other
     *       parameters under the same token (a resumed claim whose options changed), it returns the token's live
     *       instances found by tag when there are any ({@link CloudInstance#TAG_NODECLAIM} for one instance,
     *       {@link CloudInstance#TAG_LAUNCH} for several), and fails with a non-retryable
     *       {@code IdempotentParameterMismatch} otherwise.</li>
     *   <li>Partial fulfilment is not an error: the result holds between 1 and {@code count} instances, each with the
     *       type, zone and capacity type it really got, and the offerings that failed in
     *       {@link LaunchResult#unavailable()}. Which claim gets which instance is the caller's to decide.</li>
     *   <li>Tags: one instance carries {@link CloudInstance#TAG_NODECLAIM} = the claim name; several carry
     *       {@link CloudInstance#TAG_LAUNCH} = the token instead. Both carry the cluster and nodepool tags.</li>
     * </ul>
     */
    LaunchResult launch(LaunchRequest request);

    /** Terminates the instances. Idempotent: ids that are unknown or already terminated are not errors. */
    void terminate(List<String> instanceIds);

    /** Every instance carrying this cluster's tag that is not terminated. Nothing else is ever listed. */
    List<CloudInstance> listInstances();

    /** One instance by id; empty when EC2 no longer knows it. A terminated instance is returned with that state. */
    Optional<CloudInstance> describe(String instanceId);
}
