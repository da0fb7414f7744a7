package dev.gantry.core.cloud;

import java.util.List;
import java.util.Optional;

/**
 * Launches and terminates the instances behind NodeClaims. Implemented by the EC2 adapter and the simulator.
 *
 * <p>Errors: {@link InsufficientCapacity} when no option could be launched (its offerings are to be marked
 * unavailable and the claim re-planned); {@link ImageRefused} when the launch's image was refused (deregistered,
 * unavailable, malformed: not retryable, and the image's fault, not the capacity's); {@link CloudException} for
 * everything else, with
 * {@link CloudException#retryable()} saying whether the same call may succeed later (throttling, 5xx).
 */
public interface CloudProvider {

    /**
     * Launches {@link LaunchRequest#count()} identical instances in one call (one CreateFleet with that total target
     * capacity, as Karpenter's CreateFleet batcher merges identical requests), resolving what it sends now: for a
     * provider that resolves anything, the same as {@code launch(request, prepare(request))}.
     * <ul>
     *   <li>Idempotent: {@link LaunchRequest#clientToken()} is the ClientToken, so calling again with the same request
     *       returns the instances launched the first time rather than launching more. Called again with other
     *       parameters under the same token (a claim recorded before its parameters were, resumed with other
     *       options), it returns the token's live instances found by tag when there are any
     *       ({@link CloudInstance#TAG_NODECLAIM} for one instance, {@link CloudInstance#TAG_LAUNCH} for several:
     *       DescribeInstances, which may not list an instance launched seconds ago), and fails with a non-retryable
     *       {@code IdempotentParameterMismatch} otherwise. Replaying recorded {@link LaunchParameters} avoids
     *       this.</li>
     *   <li>Partial fulfilment is not an error: the result holds between 1 and {@code count} instances, each with the
     *       type, zone and capacity type it really got, and the offerings that failed in
     *       {@link LaunchResult#unavailable()}. Which claim gets which instance is the caller's to decide.</li>
     *   <li>Tags: one instance carries {@link CloudInstance#TAG_NODECLAIM} = the claim name; several carry
     *       {@link CloudInstance#TAG_LAUNCH} = the token instead. Both carry the cluster and nodepool tags.</li>
     * </ul>
     */
    LaunchResult launch(LaunchRequest request);

    /**
     * What a launch of {@code request} would send now (its capacity type, launch templates, subnets and overrides,
     * tags), resolved without launching anything: the caller records it with the launch's claims before the call, and
     * every replay of the token sends it again through {@link #launch(LaunchRequest, LaunchParameters)}, so that EC2
     * sees the same parameters under the same ClientToken however the world changed in between. Null (the default)
     * from a provider whose launch depends on the request alone.
     *
     * <p>Errors as {@link #launch(LaunchRequest)}: {@link InsufficientCapacity} when no allowed offering is available
     * in any zone it can launch into (nothing to ask for), {@link CloudException} when a lookup fails.
     */
    default LaunchParameters prepare(LaunchRequest request) {
        return null;
    }

    /**
     * {@link #launch(LaunchRequest)} sending exactly {@code parameters} (from {@link #prepare} for this request's
     * token, by this call or an earlier one), whatever the provider would resolve now; null: as
     * {@link #launch(LaunchRequest)}. The same idempotency, errors, partial fulfilment and tags.
     */
    default LaunchResult launch(LaunchRequest request, LaunchParameters parameters) {
        return launch(request);
    }

    /** Terminates the instances. Idempotent: ids that are unknown or already terminated are not errors. */
    void terminate(List<String> instanceIds);

    /** Every instance carrying this cluster's tag that is not terminated. Nothing else is ever listed. */
    List<CloudInstance> listInstances();

    /** One instance by id; empty when EC2 no longer knows it. A terminated instance is returned with that state. */
    Optional<CloudInstance> describe(String instanceId);

    /**
     * Every instance this cluster's Karpenter launched that is not terminated: tagged
     * {@code kubernetes.io/cluster/<cluster>=owned} with a {@link KarpenterTags#NODEPOOL} (see {@link KarpenterTags}),
     * whether or not Gantry has adopted it since. Nothing else is listed. Empty (the default) from a provider that
     * knows no such instance.
     */
    default List<CloudInstance> listKarpenterInstances() {
        return List.of();
    }

    /**
     * Adds (or overwrites) tags on one instance: adoption gives a Karpenter instance Gantry's own tags, which Gantry's
     * IAM grants key on. Idempotent. Errors: a {@link CloudException}, not retryable when the instance is unknown or
     * the call is denied; the default refuses, for a provider that cannot tag.
     */
    default void tag(String instanceId, java.util.Map<String, String> tags) {
        throw new CloudException("UnsupportedOperation", "this cloud provider cannot tag instances", false);
    }
}
