package dev.gantry.core.lifecycle;

import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.requirements.Requirement;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Gantry's record of one node it launched, from the decision to launch until the instance is gone. Stored in the
 * {@link NodeClaimStore}; every change is a new value written with a conditional check on {@link #version()}.
 *
 * @param name          unique per cluster and never reused ({@link FreshClaimNames}); the node's
 *                      {@code gantry.dev/nodeclaim} label. A claim launched alone is launched under it ({@link #launchKey()}
 *                      is the ClientToken, so a retried launch is the same launch); a batch's claims share a launch token
 * @param version       the store's optimistic-concurrency counter (0 before the first write)
 * @param nodeClassHash identifies the NodeClass settings the instance was launched with (the same value as
 *                      {@link DriftStamp#nodeClassHash()} on claims that carry a stamp)
 * @param requirements  the claim's merged requirements as written, for the record and for re-planning
 * @param pods          keys ({@code namespace/name}) of the pods the claim was launched for
 * @param nodeName      the Node that registered for the instance, once known
 * @param deletionReason why deletion began (interruption, emptiness, expiry, liveness, gc, deleted…), or null
 * @param expiresAt     the {@code ttl}: after this instant readers treat the record as gone
 * @param drainStep     how many termination slices have begun (0 before the first): a termination message for an
 *                      earlier step is a duplicate and does nothing, so the flow stays one chain of messages
 * @param progressAt    when the last termination slice began, or null before the first: the sweep resumes a deleting
 *                      claim that has made no progress for too long
 * @param notReadySince since when the sweep has seen the claim's node not Ready (null while Ready): node repair
 *                      terminates a node that stays NotReady too long
 * @param lastPodEventAt when the sweep last saw the node's set of pods change (Karpenter's {@code lastPodEventTime}):
 *                      consolidation waits {@code consolidateAfter} from it (or from initialization)
 * @param podSet        a fingerprint of the node's reschedulable pods when last seen, so the sweep notices a change
 * @param fromConsolidation launched by consolidation as a replacement: not consolidated itself within
 *                      {@code consolidateAfter} of initializing
 * @param consolidation the consolidation command this claim takes part in (candidate or replacement), or null
 * @param launchToken   the ClientToken of the CreateFleet that launches the claim together with the others holding
 *                      the same token (the name of the batch's first claim), or null when it launches alone under its
 *                      own name: see {@link #launchKey()}
 * @param launchParameters what the launch under {@link #launchKey()} sends (subnets, offerings, launch templates,
 *                      tags), recorded on the claim whose name is that key before the first call, so that every
 *                      replay sends exactly the same; null until then, on the other claims of a batch, and once the
 *                      launch is recorded (that claim is written last) or closed, when nothing can replay it
 * @param drift         the static hashes the claim was launched from and its drift reason ({@link DriftStamp}); null
 *                      on a record written before claims carried one, which the sweep stamps (never drifts)
 */
public record NodeClaim(String name, long version, String nodePool, String nodeClassHash, NodeClaimState state,
                        List<Requirement> requirements, List<String> instanceTypeOptions, List<String> pods,
                        String instanceId, String instanceType, String zone, String capacityType, double pricePerHour,
                        String nodeName, Instant createdAt, Instant launchedAt, Instant registeredAt, Instant initializedAt,
                        Instant deletionRequestedAt, Instant terminatedAt, String deletionReason, Instant expiresAt,
                        int drainStep, Instant progressAt, Instant notReadySince, Instant lastPodEventAt, String podSet,
                        boolean fromConsolidation, ConsolidationMark consolidation, String launchToken,
                        LaunchParameters launchParameters, DriftStamp drift) {
    /** The deletion reason of a claim whose launch the cloud refused for its image (deregistered, unavailable, malformed). */
    public static final String IMAGE_REFUSED = "image-refused";
    /**
     * How the deletion reason of a claim whose launch the cloud refused for another reason than capacity or its image
     * (a permission, a parameter, a block device mapping) begins: {@code launch-refused: } and the cloud's words
     * ({@link #launchRefused}). A launch that found no capacity is {@link #LAUNCH_FAILED}.
     */
    public static final String LAUNCH_REFUSED = "launch-refused";
    /**
     * The deletion reason of a claim whose launch found no capacity (EC2's answer, or a fleet fulfilled in part): its
     * offerings are marked and its pods planned again. Not a registration failure (Karpenter counts none either).
     */
    public static final String LAUNCH_FAILED = "launch-failed";
    /** The deletion reason of a claim left Launching, with no instance found, past the sweep's launch timeout. */
    public static final String LAUNCH_TIMEOUT = "launch-timeout";
    /** The deletion reason of a claim whose instance ran but whose node never registered within the timeout. */
    public static final String REGISTRATION_TIMEOUT = "registration-timeout";

    /** The deletion reason of a launch refused with {@code why} (the cloud's code and message), at most 1,024 characters. */
    public static String launchRefused(String why) {
        String reason = LAUNCH_REFUSED + ": " + why;
        return reason.length() <= 1024 ? reason : reason.substring(0, 1023) + "…";
    }


    public NodeClaim {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(nodePool, "nodePool");
        Objects.requireNonNull(state, "state");
        requirements = List.copyOf(requirements == null ? List.of() : requirements);
        instanceTypeOptions = List.copyOf(instanceTypeOptions == null ? List.of() : instanceTypeOptions);
        pods = List.copyOf(pods == null ? List.of() : pods);
        if (drainStep < 0) {
            throw new IllegalArgumentException("drainStep must be >= 0, got " + drainStep);
        }
    }

    /** A claim without a drift stamp (a record written before claims carried one: the sweep stamps it). */
    public NodeClaim(String name, long version, String nodePool, String nodeClassHash, NodeClaimState state,
                     List<Requirement> requirements, List<String> instanceTypeOptions, List<String> pods,
                     String instanceId, String instanceType, String zone, String capacityType, double pricePerHour,
                     String nodeName, Instant createdAt, Instant launchedAt, Instant registeredAt, Instant initializedAt,
                     Instant deletionRequestedAt, Instant terminatedAt, String deletionReason, Instant expiresAt,
                     int drainStep, Instant progressAt, Instant notReadySince, Instant lastPodEventAt, String podSet,
                     boolean fromConsolidation, ConsolidationMark consolidation, String launchToken,
                     LaunchParameters launchParameters) {
        this(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId, instanceType,
                zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, null);
    }

    /** A claim whose launch parameters are not recorded (not launched yet, or another claim of its batch holds them). */
    public NodeClaim(String name, long version, String nodePool, String nodeClassHash, NodeClaimState state,
                     List<Requirement> requirements, List<String> instanceTypeOptions, List<String> pods,
                     String instanceId, String instanceType, String zone, String capacityType, double pricePerHour,
                     String nodeName, Instant createdAt, Instant launchedAt, Instant registeredAt, Instant initializedAt,
                     Instant deletionRequestedAt, Instant terminatedAt, String deletionReason, Instant expiresAt,
                     int drainStep, Instant progressAt, Instant notReadySince, Instant lastPodEventAt, String podSet,
                     boolean fromConsolidation, ConsolidationMark consolidation, String launchToken) {
        this(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId, instanceType,
                zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, null);
    }

    /** A claim without consolidation facts (no pod event seen, not a replacement, in no command) nor launch token. */
    public NodeClaim(String name, long version, String nodePool, String nodeClassHash, NodeClaimState state,
                     List<Requirement> requirements, List<String> instanceTypeOptions, List<String> pods,
                     String instanceId, String instanceType, String zone, String capacityType, double pricePerHour,
                     String nodeName, Instant createdAt, Instant launchedAt, Instant registeredAt, Instant initializedAt,
                     Instant deletionRequestedAt, Instant terminatedAt, String deletionReason, Instant expiresAt,
                     int drainStep, Instant progressAt, Instant notReadySince) {
        this(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId, instanceType,
                zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, null, null,
                false, null, null);
    }

    /** A claim without a launch token (it launches alone, under its own name). */
    public NodeClaim(String name, long version, String nodePool, String nodeClassHash, NodeClaimState state,
                     List<Requirement> requirements, List<String> instanceTypeOptions, List<String> pods,
                     String instanceId, String instanceType, String zone, String capacityType, double pricePerHour,
                     String nodeName, Instant createdAt, Instant launchedAt, Instant registeredAt, Instant initializedAt,
                     Instant deletionRequestedAt, Instant terminatedAt, String deletionReason, Instant expiresAt,
                     int drainStep, Instant progressAt, Instant notReadySince, Instant lastPodEventAt, String podSet,
                     boolean fromConsolidation, ConsolidationMark consolidation) {
        this(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId, instanceType,
                zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, fromConsolidation, consolidation, null);
    }

    /** The ClientToken this claim's instance is launched under: its launch token, or its own name when alone. */
    public String launchKey() {
        return launchToken != null ? launchToken : name;
    }

    /** The claim launched with the others sharing {@code token} (null: alone, under its own name). */
    public NodeClaim withLaunchToken(String token) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, fromConsolidation, consolidation, token, launchParameters, drift);
    }

    /** The claim with what its launch sends recorded (see {@link #launchParameters()}). */
    public NodeClaim withLaunchParameters(LaunchParameters parameters) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, parameters, drift);
    }

    /**
     * The claim with its drift stamp set: the hashes it was launched from and whether it drifted (null: none, a record
     * written before claims carried one).
     */
    public NodeClaim withDrift(DriftStamp stamp) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, stamp);
    }

    /** The sweep saw the node's pods change to {@code fingerprint} at {@code at}. */
    public NodeClaim podEvent(Instant at, String fingerprint) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, at,
                fingerprint, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    /** Marks the claim as a consolidation replacement. */
    public NodeClaim launchedByConsolidation() {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, true, consolidation, launchToken, launchParameters, drift);
    }

    /** The claim with its part in a consolidation command set (null: none). */
    public NodeClaim withConsolidation(ConsolidationMark mark) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince,
                lastPodEventAt, podSet, fromConsolidation, mark, launchToken, launchParameters, drift);
    }

    /** A new claim about to be launched. */
    public static NodeClaim launching(String name, String nodePool, String nodeClassHash, List<Requirement> requirements,
                                      List<String> instanceTypeOptions, List<String> pods, String expectedType,
                                      String expectedZone, String expectedCapacityType, double expectedPrice, Instant now) {
        return new NodeClaim(name, 0, nodePool, nodeClassHash, NodeClaimState.Launching, requirements, instanceTypeOptions,
                pods, null, expectedType, expectedZone, expectedCapacityType, expectedPrice, null, now, null, null, null,
                null, null, null, null, 0, null, null, null, null, false, null, null, null);
    }

    /** Whether readers must treat the record as gone. */
    public boolean isExpired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    public NodeClaim withVersion(long v) {
        return new NodeClaim(name, v, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    /** CreateFleet returned this instance. */
    public NodeClaim launched(String id, String type, String inZone, String capacity, double price, Instant now) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, NodeClaimState.Launched, requirements, instanceTypeOptions,
                pods, id, type, inZone, capacity, price, nodeName, createdAt, now, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    /** The same claim, its instance now billed as {@code capacity} (an instance that left its capacity reservation). */
    public NodeClaim withCapacityType(String capacity) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions,
                pods, instanceId, instanceType, zone, capacity, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    public NodeClaim registered(String node, Instant now) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, NodeClaimState.Registered, requirements, instanceTypeOptions,
                pods, instanceId, instanceType, zone, capacityType, pricePerHour, node, createdAt, launchedAt, now, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    public NodeClaim initialized(Instant now) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, NodeClaimState.Initialized, requirements, instanceTypeOptions,
                pods, instanceId, instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, now,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    /** Deletion begins (idempotent: keeps the first reason and time). */
    public NodeClaim draining(String reason, Instant now) {
        if (state.isDeleting()) {
            return this;
        }
        return new NodeClaim(name, version, nodePool, nodeClassHash, NodeClaimState.Draining, requirements, instanceTypeOptions,
                pods, instanceId, instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt,
                initializedAt, now, terminatedAt, reason, expiresAt, drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    public NodeClaim terminating(Instant now) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, NodeClaimState.Terminating, requirements, instanceTypeOptions,
                pods, instanceId, instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt,
                initializedAt, deletionRequestedAt == null ? now : deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    /** A termination slice begins: the flow's next message is for step {@code nextStep}. */
    public NodeClaim sliceBegun(int nextStep, Instant now) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, nextStep, now, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    /** The sweep saw the node not Ready since {@code since}, or Ready again ({@code null}). */
    public NodeClaim notReadySince(Instant since) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, state, requirements, instanceTypeOptions, pods, instanceId,
                instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt, initializedAt,
                deletionRequestedAt, terminatedAt, deletionReason, expiresAt, drainStep, progressAt, since, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }

    /** Finished: kept for {@code retention} so late events find it, then expired. */
    public NodeClaim terminated(Instant now, java.time.Duration retention) {
        return new NodeClaim(name, version, nodePool, nodeClassHash, NodeClaimState.Terminated, requirements, instanceTypeOptions,
                pods, instanceId, instanceType, zone, capacityType, pricePerHour, nodeName, createdAt, launchedAt, registeredAt,
                initializedAt, deletionRequestedAt == null ? now : deletionRequestedAt, now, deletionReason, now.plus(retention),
                drainStep, progressAt, notReadySince, lastPodEventAt, podSet, fromConsolidation, consolidation, launchToken, launchParameters, drift);
    }
}
