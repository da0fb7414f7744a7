package dev.gantry.core.disruption.drift.rollout;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Objects;

/**
 * How long after a new {@code @latest} image is first seen this cluster begins rolling onto it (Gantry's own answer to
 * AMI storms, aws/karpenter-provider-aws#6862 and #6952: with Karpenter every cluster that follows {@code @latest}
 * drifts in the same minute). The delay is a deterministic hash of the cluster's ARN within {@link #WINDOW}, so one
 * cluster always waits the same time (at-least-once runs agree), and a fleet's clusters spread evenly over the window.
 *
 * <p>{@link #WINDOW}, one hour: the sweep runs every minute, so a fleet spreads over 60 start slots and a bad release
 * (which the canary catches) reaches at most a sixtieth of a fleet's clusters in the first minute, while an hour is
 * small beside AWS's roughly weekly AMI releases and the days a patched image usually has before it is urgent.
 * Applied only to a release (a class whose AMI terms follow an SSM parameter or an {@code @latest} alias): an
 * operator's own change of the terms rolls at once, through the canary.
 */
public record StartDelay(Duration delay) {
    public static final Duration WINDOW = Duration.ofHours(1);
    public static final StartDelay NONE = new StartDelay(Duration.ZERO);

    public StartDelay {
        Objects.requireNonNull(delay, "delay");
    }

    /** The delay of the cluster {@code arn}, to the second, in [0, {@link #WINDOW}). */
    public static StartDelay of(String arn) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(arn.getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (h[i] & 0xff);
            }
            return new StartDelay(Duration.ofSeconds(Long.remainderUnsigned(v, WINDOW.toSeconds())));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
