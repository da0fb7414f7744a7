package dev.gantry.core.headroom;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How early a scheduled buffer opens, so that its capacity is ready when its schedule fires: the measured boot time (a
 * claim's creation to its node's initialisation, the {@link #QUANTILE} of the claims the store still holds, so most
 * nodes are ready in time) plus one sweep interval, since the sweep is what notices a window opening. Without a
 * measurement, {@link #DEFAULT_BOOT}.
 */
public final class BootLead {
    /** A boot time for a cluster that has not launched anything yet: EC2's launch plus kubelet's start, typically. */
    public static final Duration DEFAULT_BOOT = Duration.ofSeconds(90);
    /** The share of measured boots the lead covers. */
    static final double QUANTILE = 0.9;

    private BootLead() {
    }

    /** The boot time measured over {@code claims} (created and initialized), or {@link #DEFAULT_BOOT}. */
    public static Duration measuredBoot(List<NodeClaim> claims) {
        List<Duration> boots = new ArrayList<>();
        for (NodeClaim c : claims) {
            if (c.createdAt() != null && c.initializedAt() != null && !c.initializedAt().isBefore(c.createdAt())) {
                boots.add(Duration.between(c.createdAt(), c.initializedAt()));
            }
        }
        if (boots.isEmpty()) {
            return DEFAULT_BOOT;
        }
        boots.sort(null);
        int rank = (int) Math.ceil(QUANTILE * boots.size());
        return boots.get(Math.max(1, rank) - 1);
    }

    /** The lead: {@link #measuredBoot} plus {@code sweepInterval}. */
    public static Duration of(List<NodeClaim> claims, Duration sweepInterval) {
        return measuredBoot(claims).plus(sweepInterval);
    }

    /**
     * {@code lead} computed at most once per {@code ttl} (boot times drift slowly; the store read is not needed on every
     * run). Thread-safe; an instant before the cached one recomputes.
     */
    public static java.util.function.Function<java.time.Instant, Duration> cached(
            java.util.function.Function<java.time.Instant, Duration> lead, Duration ttl) {
        java.util.concurrent.atomic.AtomicReference<Object[]> last = new java.util.concurrent.atomic.AtomicReference<>();
        return now -> {
            Object[] c = last.get();
            if (c != null && !now.isBefore((java.time.Instant) c[0]) && now.isBefore(((java.time.Instant) c[0]).plus(ttl))) {
                return (Duration) c[1];
            }
            Duration d = lead.apply(now);
            last.set(new Object[] {now, d});
            return d;
        };
    }
}
