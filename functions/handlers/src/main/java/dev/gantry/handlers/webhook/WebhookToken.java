package dev.gantry.handlers.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The webhook's path token as Secrets Manager holds it now (the secret's {@code AWSCURRENT} version), so a rotation
 * takes effect without a redeploy: after {@code put-secret-value}, a request carrying the new token re-reads the
 * secret at once (at most every {@value #MISS_REFRESH_SECONDS} s, so a stream of wrong tokens cannot hammer Secrets
 * Manager), and the old token stops working once the cached value is {@value #MAX_AGE_MINUTES} minutes old. Only the
 * current version is accepted: the grace window for the old one is that cache age, which covers the attach step's
 * rewrite of the webhook configuration. A read that fails keeps the cached token (the webhook must keep answering)
 * and is retried after {@value #MISS_REFRESH_SECONDS} s. After a SnapStart restore the snapshot's copy is older than
 * the maximum age, so the first request re-reads.
 */
public final class WebhookToken {
    static final long MAX_AGE_MINUTES = 5;
    static final long MISS_REFRESH_SECONDS = 30;
    static final Duration MAX_AGE = Duration.ofMinutes(MAX_AGE_MINUTES);
    static final Duration MISS_REFRESH = Duration.ofSeconds(MISS_REFRESH_SECONDS);

    private final Supplier<PathToken> current;
    private final Clock clock;
    private PathToken token;
    private Instant readAt;
    private Instant lastMissRead = Instant.MIN;

    /**
     * Reads the token once, now, and again as the class comment says.
     *
     * @param current reads the secret's current value; may throw, see the class comment
     */
    public static WebhookToken reading(Supplier<String> current, Clock clock) {
        Objects.requireNonNull(current, "current");
        return new WebhookToken(() -> PathToken.of(current.get()), clock);
    }

    /** A token that never changes (tests and benchmarks). */
    public static WebhookToken fixed(PathToken token) {
        return new WebhookToken(() -> token, Clock.systemUTC());
    }

    private WebhookToken(Supplier<PathToken> current, Clock clock) {
        this.current = current;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.token = current.get();
        this.readAt = clock.instant();
    }

    /** Whether the request path is {@code /hook/<the current token>}. */
    public synchronized boolean admits(String rawPath) {
        Instant now = clock.instant();
        if (!now.isBefore(readAt.plus(MAX_AGE))) {
            read(now);
        }
        if (token.admits(rawPath)) {
            return true;
        }
        if (now.isBefore(lastMissRead.plus(MISS_REFRESH))) {
            return false;
        }
        lastMissRead = now;
        return read(now) && token.admits(rawPath);
    }

    /** Warms the comparison for SnapStart without reading the secret. */
    public synchronized void prime() {
        token.admits("/hook/prime");
    }

    /** Re-reads the secret; on failure keeps the cached token and retries after {@link #MISS_REFRESH}. */
    private boolean read(Instant now) {
        try {
            token = current.get();
            readAt = now;
            return true;
        } catch (RuntimeException e) {
            System.err.println("webhook: could not re-read the token: " + e.getClass().getSimpleName());
            readAt = now.minus(MAX_AGE).plus(MISS_REFRESH);
            return false;
        }
    }
}
