package dev.gantry.simulator.world.aws;

import dev.gantry.simulator.bill.DynamoUnits;
import dev.gantry.simulator.bill.SelfUsage;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.PoolUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The claim store as the handlers reach DynamoDB: the in-memory store (the truth the checks read) behind what the
 * table and the SDK add. Each call made from an invocation costs its latency ({@link CallKind}). An injected
 * throttle fails an attempt with ProvisionedThroughputExceeded; the SDK makes {@value #SDK_ATTEMPTS} attempts before it
 * surfaces as an unchecked exception, which the port's contract makes retryable. An injected lost answer: a
 * conditional write takes effect, its answer is lost, the SDK sends it again and the condition now fails, so the
 * caller gets {@link NodeClaimStore.Conflict} for a write that happened (as DynamoDB does to a retried conditional
 * put). Index lag: {@link #findByInstanceId} reads the instance-id GSI, which shows each write
 * {@code FaultPlan.Dynamo.indexLag()} late; a claim whose instance id was written more recently is missing, or shows an older
 * state.
 *
 * <p>Not modelled: the table's own capacity (throttling is a per-attempt draw); eventually consistent reads of the
 * table (the adapter reads with {@code ConsistentRead}); TTL deletion (the in-memory store hides expired items, as
 * readers must; the offerings Query reads only marks still running, one item per offering and end, as the adapter's
 * key range does, so marks waiting for deletion cost nothing); item size limits.
 */
public final class SimulatedStore implements NodeClaimStore {
    static final int SDK_ATTEMPTS = 3;

    /** DynamoDB throttled every attempt of a call. */
    static class Throttled extends RuntimeException {
        Throttled(String what) {
            super("ProvisionedThroughputExceededException: " + what + ": the level of configured provisioned throughput "
                    + "for the table was exceeded");
        }
    }

    private record Version(Instant writtenAt, NodeClaim claim) {
    }

    /** A targeted fault: every attempt of the call fails, so it surfaces at once. */
    private static final class Targeted extends Throttled {
        Targeted(String what) {
            super(what + " (injected at this call)");
        }
    }

    private final NodeClaimStore store;
    private final Supplier<Instant> clock;
    private final Map<String, Deque<Version>> history = new LinkedHashMap<>();
    /** The marks' items, one per offering and end: the offerings Query reads those still running. */
    private final java.util.Set<Map.Entry<OfferingKey, Instant>> marks = new java.util.HashSet<>();
    private LambdaRuntime runtime;
    private Faults faults;
    private SplittableRandom backoff = new SplittableRandom(0);
    long throttled;
    long lostAnswers;
    private SelfUsage usage = new SelfUsage();

    public SimulatedStore(NodeClaimStore store, Supplier<Instant> clock, Faults faults) {
        this.store = store;
        this.clock = clock;
        this.faults = faults;
    }

    /**
     * Counts the request units DynamoDB on-demand bills into {@code u} ({@link DynamoUnits}): every attempt that
     * reached the table, including a conditional write whose condition failed; not a throttled one.
     */
    public void meter(SelfUsage u) {
        this.usage = u;
    }

    public void runtime(LambdaRuntime r, Faults f) {
        this.runtime = r;
        this.faults = f;
        this.backoff = f.stream("dynamoBackoff");
    }

    private <T> T call(CallKind kind, String what, Supplier<T> body, ToIntFunction<T> items) {
        for (int attempt = 1; ; attempt++) {
            try {
                Supplier<T> once = () -> {
                    if (faults.targetedError()) {
                        throw new Targeted(what);
                    }
                    if (faults.draw("dynamoThrottle", faults.plan().dynamo().throttle())) {
                        throw new Throttled(what);
                    }
                    return body.get();
                };
                return runtime == null ? once.get() : runtime.call(kind, once, items);
            } catch (Throttled t) {
                if (t instanceof Targeted || attempt >= SDK_ATTEMPTS) {
                    throttled++;
                    throw t;
                }
                if (runtime != null) {
                    runtime.sleep(Duration.ofMillis(backoff.nextLong((25L << attempt) + 1)));
                }
            }
        }
    }

    private void lostAnswer(String what) {
        if (faults.draw("dynamoConflict", faults.plan().dynamo().conflict())) {
            lostAnswers++;
            throw new Conflict(what + ": the conditional request failed (a retry of a write that had succeeded)");
        }
    }

    private void wrote(NodeClaim c) {
        if (faults.plan().dynamo().indexLag().isZero()) {
            return;
        }
        Instant now = clock.get();
        Deque<Version> h = history.computeIfAbsent(c.name(), k -> new ArrayDeque<>());
        h.addLast(new Version(now, c));
        Duration lag = faults.plan().dynamo().indexLag();
        // Keep the newest version the index already shows, and everything newer.
        while (h.size() > 1 && !h.toArray(Version[]::new)[1].writtenAt().plus(lag).isAfter(now)) {
            h.removeFirst();
        }
    }

    @Override
    public NodeClaim create(NodeClaim claim) {
        return put(claim, store::create);
    }

    @Override
    public NodeClaim update(NodeClaim claim) {
        return put(claim, store::update);
    }

    /** A PutItem: its units, the write itself, the index's history, a possibly lost answer, and the read tally told. */
    private NodeClaim put(NodeClaim claim, java.util.function.UnaryOperator<NodeClaim> write) {
        try {
            return call(CallKind.DYNAMO_WRITE, "PutItem " + claim.name(), () -> {
                usage.dynamoWrite(DynamoUnits.write(DynamoUnits.bytes(claim)));
                NodeClaim stored = write.apply(claim);
                wrote(stored);
                lostAnswer("PutItem " + claim.name());
                return stored;
            }, x -> 0);
        } finally {
            if (runtime != null) {
                runtime.reads().written("claims"); // whether or not it took, as InvocationClaims drops its list
            }
        }
    }

    @Override
    public Optional<NodeClaim> get(String name, Instant now) {
        return call(CallKind.DYNAMO_READ, "GetItem " + name, () -> read(store.get(name, now)), o -> 0);
    }

    @Override
    public Optional<NodeClaim> findByInstanceId(String instanceId, Instant now) {
        return call(CallKind.DYNAMO_QUERY, "Query instance-id index", () -> {
            Duration lag = faults.plan().dynamo().indexLag();
            if (lag.isZero()) {
                return read(store.findByInstanceId(instanceId, now));
            }
            Instant shown = clock.get().minus(lag);
            return read(history.values().stream().map(h -> visible(h, shown)).filter(v -> v != null)
                    .filter(c -> instanceId.equals(c.instanceId()) && !c.isExpired(now))
                    .min((a, b) -> a.name().compareTo(b.name())));
        }, o -> o.isPresent() ? 1 : 0);
    }

    private static NodeClaim visible(Deque<Version> h, Instant shown) {
        NodeClaim last = null;
        for (Version v : h) {
            if (v.writtenAt().isAfter(shown)) {
                break;
            }
            last = v.claim();
        }
        return last;
    }

    @Override
    public List<NodeClaim> list(Instant now) {
        if (runtime != null) {
            runtime.reads().listed("claims", now);
        }
        return call(CallKind.DYNAMO_QUERY, "Query claims", () -> {
            List<NodeClaim> all = store.list(now);
            usage.dynamoRead(DynamoUnits.read(DynamoUnits.bytes(all)));
            return all;
        }, List::size);
    }

    @Override
    public void markUnavailable(OfferingKey offering, Instant until) {
        call(CallKind.DYNAMO_WRITE, "PutItem offering", () -> {
            usage.dynamoWrite(DynamoUnits.write(DynamoUnits.SMALL_ITEM_BYTES));
            store.markUnavailable(offering, until);
            marks.add(Map.entry(offering, until));
            return Boolean.TRUE;
        }, x -> 0);
    }

    @Override
    public Set<OfferingKey> unavailableOfferings(Instant now) {
        return call(CallKind.DYNAMO_QUERY, "Query offerings", () -> {
            Set<OfferingKey> all = store.unavailableOfferings(now);
            // The Query's key range starts at now: the items read are the marks still running (an offering marked
            // twice has two), not those waiting for TTL deletion.
            marks.removeIf(m -> !now.isBefore(m.getValue()));
            usage.dynamoRead(DynamoUnits.read((long) Math.max(all.size(), marks.size()) * DynamoUnits.SMALL_ITEM_BYTES));
            return all;
        }, Set::size);
    }

    @Override
    public void recordPoolUsage(PoolUsage usage) {
        call(CallKind.DYNAMO_WRITE, "PutItem pool usage", () -> {
            this.usage.dynamoWrite(DynamoUnits.write(DynamoUnits.SMALL_ITEM_BYTES));
            store.recordPoolUsage(usage);
            return Boolean.TRUE;
        }, x -> 0);
    }

    @Override
    public List<PoolUsage> poolUsage() {
        return call(CallKind.DYNAMO_QUERY, "Query pool usage", () -> {
            List<PoolUsage> all = store.poolUsage();
            usage.dynamoRead(DynamoUnits.read((long) all.size() * DynamoUnits.SMALL_ITEM_BYTES));
            return all;
        }, List::size);
    }

    @Override
    public void setMarker(String name, Instant at) {
        call(CallKind.DYNAMO_WRITE, "PutItem marker " + name, () -> {
            usage.dynamoWrite(DynamoUnits.write(DynamoUnits.SMALL_ITEM_BYTES));
            store.setMarker(name, at);
            return Boolean.TRUE;
        }, x -> 0);
    }

    @Override
    public Optional<Instant> marker(String name) {
        return call(CallKind.DYNAMO_READ, "GetItem marker " + name, () -> {
            usage.dynamoRead(DynamoUnits.read(DynamoUnits.SMALL_ITEM_BYTES));
            return store.marker(name);
        }, o -> 0);
    }

    /** A strongly consistent read of at most one claim: one unit per started 4 KB, one when nothing is found. */
    private Optional<NodeClaim> read(Optional<NodeClaim> found) {
        usage.dynamoRead(DynamoUnits.read(found.map(DynamoUnits::bytes).orElse(0L)));
        return found;
    }

    public long throttled() {
        return throttled;
    }

    public long lostAnswers() {
        return lostAnswers;
    }
}
