package dev.gantry.simulator.faults;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One EC2 API's request-rate token bucket, as EC2 throttles an account in a Region (EC2 developer guide, "Request
 * throttling for the Amazon EC2 API"): each request takes one token; a request that finds the bucket empty fails with
 * RequestLimitExceeded and takes none; every whole second the bucket gets its refill back, up to its capacity. Each
 * API has its own bucket ("requests for other APIs are not affected"), with the published sizes ({@link Limits}).
 * The buckets are always there: a burst of our own calls (a hundred terminations at once) drains one as at AWS.
 *
 * <p>A noisy neighbour (another tool in the same account, say) shares the bucket: while its window is open it sends
 * requests as a Poisson stream at {@code demand} times the refill rate, and each takes a token when one is left. A
 * window starts with the bucket drained (the neighbour has been at it: "for 60 s" means 60 s drained); with a demand
 * above 1 the neighbour then takes each second's refill as it arrives, and one of our requests succeeds only when it
 * comes in after a refill and before the neighbour has taken all of it, as at AWS (about one request in
 * {@code demand}). The refills' phase within the second is the bucket's own (seeded), so calls that fall on whole
 * seconds of virtual time get no head start on the neighbour. Nothing is kinder than AWS here: no request is served
 * from an empty bucket, and the neighbour does not back off.
 *
 * <p>Not modelled: resource-rate buckets (RunInstances' and TerminateInstances' per-instance tokens), and limits an
 * account had raised.
 */
public final class RequestTokenBucket {
    /**
     * A bucket's size.
     *
     * @param capacity        tokens it holds at most (the burst)
     * @param refillPerSecond tokens added back every second
     */
    public record Limits(int capacity, int refillPerSecond) {
        /** Mutating actions without a bucket of their own (CreateFleet is not listed separately, so it falls here). */
        public static final Limits MUTATING = new Limits(50, 5);
        /** Non-mutating actions ({@code Describe*}, {@code List*}, {@code Get*}) with a filter or pagination. */
        public static final Limits NON_MUTATING = new Limits(100, 20);
        /** Unfiltered and unpaginated non-mutating actions (a DescribeInstances of the whole account, say). */
        public static final Limits UNFILTERED_NON_MUTATING = new Limits(50, 10);
        public static final Limits RUN_INSTANCES = new Limits(5, 2);
        public static final Limits TERMINATE_INSTANCES = new Limits(100, 5);
        public static final Limits CREATE_TAGS = new Limits(100, 10);

        /** The bucket of {@code action} as Gantry calls it (its Describe calls always carry the cluster's tag filter). */
        public static Limits forAction(String action) {
            return switch (action) {
                case "RunInstances" -> RUN_INSTANCES;
                case "TerminateInstances" -> TERMINATE_INSTANCES;
                case "CreateTags" -> CREATE_TAGS;
                default -> action.startsWith("Describe") || action.startsWith("List") || action.startsWith("Get")
                        ? NON_MUTATING : MUTATING;
            };
        }
    }

    private record Window(double perSecond, Instant from, Instant until) {
    }

    private final Limits limits;
    private final SplittableRandom random;
    private final List<Window> neighbours = new ArrayList<>();
    /** Instants ahead at which a neighbour window opens with the bucket drained. */
    private final java.util.TreeSet<Instant> drains = new java.util.TreeSet<>();
    /** A refill instant: refills come at whole seconds after it. */
    private final Instant origin;
    private double level;
    private Instant at;
    private long neighbourServed;

    /** A bucket holding {@code tokens} at {@code start} (at most its capacity). */
    public RequestTokenBucket(Limits limits, int tokens, Instant start, long seed) {
        this.limits = limits;
        this.level = Math.max(0, Math.min(limits.capacity(), tokens));
        this.at = start;
        this.random = new SplittableRandom(seed);
        // The refill's phase is EC2's, not ours: a client whose calls fall on whole seconds must not be served first.
        this.origin = start.plusNanos(random.nextLong(1_000_000_000L));
    }

    public Limits limits() {
        return limits;
    }

    /**
     * A neighbour sending {@code demand} times the refill rate from {@code from} until {@code until}; the bucket is
     * drained at {@code from} (at once when the window is already open).
     */
    public void neighbour(double demand, Instant from, Instant until) {
        if (demand < 0) {
            throw new IllegalArgumentException("demand must not be negative");
        }
        neighbours.add(new Window(demand * limits.refillPerSecond(), from, until));
        if (from.isAfter(at)) {
            drains.add(from);
        } else if (at.isBefore(until)) {
            level = 0;
        }
    }

    /** Our request at {@code now}: whether it found a token (and took it). */
    public boolean take(Instant now) {
        advance(now);
        if (level >= 1) {
            level -= 1;
            return true;
        }
        return false;
    }

    /** Tokens left at {@code now} (an accessor for tests and the summary). */
    public int tokens(Instant now) {
        advance(now);
        return (int) level;
    }

    /** Neighbour requests that got a token so far. */
    public long neighbourServed() {
        return neighbourServed;
    }

    /** Moves the bucket to {@code now}: neighbour requests in each stretch between refills, then the refill. */
    private void advance(Instant now) {
        while (at.isBefore(now)) {
            Instant tick = nextTick(at);
            Instant end = tick.isAfter(now) ? now : tick;
            Instant drain = drains.isEmpty() ? null : drains.first();
            if (drain != null && !drain.isAfter(end)) {
                neighbourRequests(at, drain);
                at = drain;
                level = 0;
                drains.pollFirst();
                continue;
            }
            neighbourRequests(at, end);
            at = end;
            if (end.equals(tick)) {
                level = Math.min(limits.capacity(), level + limits.refillPerSecond());
                if (level >= limits.capacity() && !neighbourBetween(at, now)) {
                    // Full and nobody else asking: skip to the last refill before now.
                    long whole = Duration.between(at, now).getSeconds();
                    at = at.plusSeconds(whole);
                }
            }
        }
    }

    /** The first refill after {@code t}: refills come every second, at a phase of the bucket's own (unknown to us). */
    private Instant nextTick(Instant t) {
        long sinceOrigin = Duration.between(origin, t).toNanos();
        long k = Math.floorDiv(sinceOrigin, 1_000_000_000L) + 1;
        return origin.plusNanos(k * 1_000_000_000L);
    }

    private boolean neighbourBetween(Instant from, Instant to) {
        for (Window w : neighbours) {
            if (w.from().isBefore(to) && w.until().isAfter(from)) {
                return true;
            }
        }
        return false;
    }

    private void neighbourRequests(Instant from, Instant to) {
        for (Window w : neighbours) {
            Instant a = w.from().isAfter(from) ? w.from() : from;
            Instant b = w.until().isBefore(to) ? w.until() : to;
            if (!a.isBefore(b) || w.perSecond() <= 0) {
                continue;
            }
            double mean = w.perSecond() * Duration.between(a, b).toNanos() / 1e9;
            long served = Math.min(poisson(mean), (long) level);
            level -= served;
            neighbourServed += served;
        }
    }

    /** A Poisson draw (Knuth's method, in chunks so that exp(-mean) never underflows). */
    private long poisson(double mean) {
        long n = 0;
        double left = mean;
        while (left > 0) {
            double chunk = Math.min(left, 30);
            left -= chunk;
            double limit = Math.exp(-chunk);
            double p = random.nextDouble();
            while (p > limit) {
                n++;
                p *= random.nextDouble();
            }
        }
        return n;
    }
}
