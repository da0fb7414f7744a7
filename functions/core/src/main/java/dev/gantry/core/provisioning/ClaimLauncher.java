package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.SchedulingResult;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The writes of one claim, in order: record it Launching, record what its launch will send (the first time), launch
 * it, record it Launched. A lost conditional write is resolved by reading the stored claim, never by writing over it.
 */
final class ClaimLauncher {
    /**
     * The deletion reason of a claim whose launch was refused for its image ({@link dev.gantry.core.cloud.ImageRefused}):
     * what an AMI rollout counts against its canary, unlike {@link NodeClaim#LAUNCH_FAILED} (no capacity).
     */
    static final String IMAGE_REFUSED = dev.gantry.core.lifecycle.NodeClaim.IMAGE_REFUSED;
    private final NodeClaimStore store;
    private final CloudProvider cloud;
    private final Clock clock;

    ClaimLauncher(NodeClaimStore store, CloudProvider cloud, Clock clock) {
        this.store = store;
        this.cloud = cloud;
        this.clock = clock;
    }

    /** What happened to one claim: launched, out of capacity, or failed for good with a provider code. */
    record Result(NodeClaim claim, ProvisioningOutcome.LaunchedClaim launched, boolean outOfCapacity, String code,
                  String message) {
        static Result launched(NodeClaim claim, ProvisioningOutcome.LaunchedClaim launched) {
            return new Result(claim, launched, false, null, null);
        }

        /** No capacity for the claim ({@code code}: EC2's answer): its offerings are marked, its pods planned again. */
        static Result outOfCapacity(NodeClaim claim, String code) {
            return new Result(claim, null, true, code, null);
        }

        static Result failed(NodeClaim claim, String code) {
            return new Result(claim, null, false, code, null);
        }

        /** A launch the cloud refused: {@code e}'s code, and its message (the provider's own words) as the reason. */
        static Result failed(NodeClaim claim, CloudException e) {
            return new Result(claim, null, false, e.code(), ProvisioningOutcome.FailedLaunch.bounded(e.getMessage()));
        }

        /** Why the launch failed, as pods and logs are told: the provider's message, else its code. */
        String reason() {
            return message != null ? message : code;
        }
    }

    /**
     * Stores the plan as a Launching claim under its name or, when a closed claim holds that name, under a fresh one
     * ({@link FreshClaimNames}: names never run out and are never reused). A stored claim that is still in flight
     * under the planned name is returned as it is: an earlier delivery of the same batch recorded it.
     */
    NodeClaim record(SchedulingResult.NodeClaimPlan plan, DriftStamp stamp, Instant now) {
        return record(plan, stamp, now, UnaryOperator.identity()).claim();
    }

    /** A recorded claim, and whether this call created it (rather than finding an earlier delivery's in flight). */
    record Recorded(NodeClaim claim, boolean created) {
    }

    /**
     * {@link #record(SchedulingResult.NodeClaimPlan, DriftStamp, Instant)} for a claim launched in a batch: it gets the
     * launch token {@code token}, or its own name when {@code token} is null (the batch's first claim, whose name is
     * fresh and so never the token of another launch). A claim recorded alone has no token and launches under its name.
     */
    Recorded recordInBatch(SchedulingResult.NodeClaimPlan plan, DriftStamp stamp, Instant now, String token) {
        return record(plan, stamp, now, n -> n.withLaunchToken(token == null ? n.name() : token));
    }

    private Recorded record(SchedulingResult.NodeClaimPlan plan, DriftStamp stamp, Instant now,
                            UnaryOperator<NodeClaim> member) {
        NodeClaim[] made = new NodeClaim[1];
        NodeClaim c = FreshClaimNames.record(store, plan.name(), name -> {
            NodeClaim n = NodeClaim.launching(name, plan.nodePool(), stamp.nodeClassHash(),
                    plan.requirements().toList(), plan.instanceTypeOptions().stream().map(InstanceType::name).toList(),
                    plan.pods().stream().map(Pod::key).toList(), plan.instanceType().name(), plan.offering().zone(),
                    plan.offering().capacityType(), plan.offering().listPrice(), now).withDrift(stamp);
            made[0] = member.apply(n);
            return made[0];
        }, now);
        return new Recorded(c, made[0] != null && c.withVersion(0).equals(made[0]));
    }

    /**
     * Launches the Launching claims among {@code members}, the stored claims sharing one launch key, with one call for
     * {@code members.size()} instances (a batch is recorded whole before its launch, so that count is the same on every
     * replay of the token). The call sends the parameters recorded with the batch, or, on the first call, those the
     * cloud resolves now, recorded first ({@link #prepared}): a replay sends exactly what the first call sent. The
     * instances not yet held by a member go to the Launching members, both in order (ids, names): a replay after a
     * crash between the launch and the writes gets the same instances back and hands out those still unrecorded. A
     * member left without one (EC2 fulfilled the fleet in part) is closed as out of capacity, like an
     * insufficient-capacity answer, so that its pods are planned again. Errors as in
     * {@link #launch(NodeClaim, LaunchRequest, Instant)}, for every Launching member.
     */
    List<Result> launchBatch(List<NodeClaim> members, LaunchRequest request, Instant now) {
        List<NodeClaim> launching = members.stream().filter(c -> c.state() == NodeClaimState.Launching)
                .sorted(java.util.Comparator.comparing(NodeClaim::name)).toList();
        if (launching.isEmpty()) {
            return List.of();
        }
        if (members.size() == 1 && launching.getFirst().launchToken() == null) {
            return List.of(launch(launching.getFirst(), request, now));
        }
        LaunchRequest batch = request.batch(launching.getFirst().launchKey(), members.size());
        LaunchResult result;
        try {
            Prepared p = prepared(members, launching, batch, now);
            launching = p.launching();
            result = cloud.launch(batch, p.parameters());
        } catch (InsufficientCapacity ice) {
            markUnavailable(ice.offerings());
            launching.forEach(c -> close(c, NodeClaim.LAUNCH_FAILED, now));
            return launching.stream().map(c -> Result.outOfCapacity(c, ice.code())).toList();
        } catch (dev.gantry.core.cloud.ImageRefused refused) {
            launching.forEach(c -> close(c, IMAGE_REFUSED, now));
            return launching.stream().map(c -> Result.failed(c, refused)).toList();
        } catch (CloudException e) {
            if (e.retryable()) {
                throw e;
            }
            launching.forEach(c -> close(c, NodeClaim.launchRefused(e.getMessage()), now));
            return launching.stream().map(c -> Result.failed(c, e)).toList();
        }
        markUnavailable(result.unavailable());
        java.util.Set<String> held = new java.util.HashSet<>();
        members.forEach(c -> {
            if (c.instanceId() != null) {
                held.add(c.instanceId());
            }
        });
        List<CloudInstance> free = result.instances().stream().filter(i -> !held.contains(i.instanceId()))
                .sorted(java.util.Comparator.comparing(CloudInstance::instanceId)).toList();
        // The claim holding the recorded parameters is written last, and lets them go: once it is written, no member
        // is left Launching, so nothing will replay them (and a claim is not read with them for its whole life).
        List<Integer> order = new java.util.ArrayList<>(java.util.stream.IntStream.range(0, launching.size()).boxed().toList());
        List<NodeClaim> claims = launching;
        order.sort(java.util.Comparator.comparing(k -> claims.get(k).launchParameters() != null));
        Result[] out = new Result[launching.size()];
        for (int k : order) {
            NodeClaim c = launching.get(k);
            if (k < free.size()) {
                out[k] = recordLaunched(c, free.get(k), request, now);
            } else {
                close(c, NodeClaim.LAUNCH_FAILED, now);
                out[k] = Result.outOfCapacity(c, result.unavailable().isEmpty() ? "PartialFulfilment"
                        : "InsufficientInstanceCapacity");
            }
        }
        return List.of(out);
    }

    /**
     * Launches a Launching claim and records the instance, sending its recorded parameters or recording them first,
     * as {@link #launchBatch} does. Insufficient capacity marks the offerings and closes the claim; any other
     * non-retryable cloud error closes it too; a retryable one propagates with the claim left Launching, to be resumed.
     */
    Result launch(NodeClaim claim, LaunchRequest request, Instant now) {
        LaunchResult result;
        NodeClaim current = claim;
        try {
            Prepared p = prepared(List.of(claim), List.of(claim), request, now);
            current = p.launching().getFirst();
            result = cloud.launch(request, p.parameters());
        } catch (InsufficientCapacity ice) {
            markUnavailable(ice.offerings());
            close(current, NodeClaim.LAUNCH_FAILED, now);
            return Result.outOfCapacity(current, ice.code());
        } catch (dev.gantry.core.cloud.ImageRefused refused) {
            close(current, IMAGE_REFUSED, now);
            return Result.failed(current, refused);
        } catch (CloudException e) {
            if (e.retryable()) {
                throw e;
            }
            close(current, NodeClaim.launchRefused(e.getMessage()), now);
            return Result.failed(current, e);
        }
        markUnavailable(result.unavailable());
        return recordLaunched(current, result.instance(), request, now);
    }

    /** What a launch sends, and its Launching claims as stored once that is recorded. */
    private record Prepared(LaunchParameters parameters, List<NodeClaim> launching) {
    }

    /**
     * The parameters recorded with the launch of {@code members} (on any of them: the claim named by the launch key
     * holds them), or, before its first call, those the cloud resolves now, written to that claim first (to the first
     * Launching one if it is not Launching): the write is what lets every later replay send the same. When another
     * delivery recorded them meanwhile, theirs are sent (they may be sending them now). Null: the cloud resolves
     * nothing ahead, so there is nothing to record.
     */
    private Prepared prepared(List<NodeClaim> members, List<NodeClaim> launching, LaunchRequest request, Instant now) {
        for (NodeClaim c : members) {
            if (c.launchParameters() != null) {
                return new Prepared(c.launchParameters(), launching);
            }
        }
        LaunchParameters parameters = cloud.prepare(request);
        if (parameters == null) {
            return new Prepared(null, launching);
        }
        NodeClaim holder = launching.stream().filter(c -> c.name().equals(request.clientToken())).findFirst()
                .orElse(launching.getFirst());
        NodeClaim recorded;
        try {
            recorded = store.update(holder.withLaunchParameters(parameters));
        } catch (NodeClaimStore.Conflict c) {
            NodeClaim stored = store.get(holder.name(), now).orElseThrow(() -> c);
            if (stored.launchParameters() == null) {
                throw c; // changed for another reason: the batch retries on a fresh read
            }
            return new Prepared(stored.launchParameters(), launching);
        }
        List<NodeClaim> updated = launching.stream().map(c -> c.name().equals(holder.name()) ? recorded : c).toList();
        return new Prepared(parameters, updated);
    }

    /**
     * Records {@code i} as the claim's instance, at the type, zone and capacity type it really got, without the launch
     * parameters it may hold (written last of its launch, it is the last that could need them).
     */
    private Result recordLaunched(NodeClaim claim, CloudInstance i, LaunchRequest request, Instant now) {
        double price = price(request.options(), i).orElse(claim.pricePerHour());
        NodeClaim launched = claim.launched(i.instanceId(), i.instanceType(), i.zone(), i.capacityType(), price, clock.instant())
                .withLaunchParameters(null);
        try {
            store.update(launched);
        } catch (NodeClaimStore.Conflict c) {
            NodeClaim current = store.get(claim.name(), now).orElseThrow(() -> c);
            if (!i.instanceId().equals(current.instanceId())) {
                throw c; // someone else changed it in between: let the batch retry and re-read
            }
        }
        return Result.launched(claim, new ProvisioningOutcome.LaunchedClaim(claim.name(), claim.nodePool(), i.instanceId(),
                i.instanceType(), i.zone(), i.capacityType(), price));
    }

    /**
     * Marks offerings EC2 just answered insufficient capacity for, counted from that answer (the clock now), not from
     * the run's start: a run that launches for a minute would otherwise mark its late failures for a minute less.
     */
    private void markUnavailable(List<dev.gantry.core.catalog.OfferingKey> offerings) {
        Instant answered = clock.instant();
        offerings.forEach(o -> store.markUnavailable(o, answered.plus(Provisioner.UNAVAILABLE_FOR)));
    }

    /**
     * Closes a claim that never got an instance: Terminated with {@code reason}, kept for the retention period, without
     * launch parameters (a closed claim is never launched again).
     */
    void close(NodeClaim claim, String reason, Instant now) {
        try {
            store.update(claim.draining(reason, now).terminated(now, Provisioner.RETENTION).withLaunchParameters(null));
        } catch (NodeClaimStore.Conflict ignored) {
            // Moved on meanwhile (closed or launched by another run): the stored value wins.
        }
    }

    private static Optional<Double> price(List<InstanceType> options, CloudInstance i) {
        return options.stream().filter(t -> t.name().equals(i.instanceType())).findFirst()
                .flatMap(t -> t.offerings().stream()
                        .filter(o -> o.zone().equals(i.zone()) && o.capacityType().equals(i.capacityType())).findFirst())
                .map(Offering::listPrice);
    }
}
