package dev.gantry.core.disruption;

import dev.gantry.core.model.KubeDuration;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether a pod's {@code karpenter.sh/do-not-disrupt} annotation protects it now, as Karpenter reads it
 * ({@code IsDoNotDisruptActive}): {@code "true"} always; a positive Go duration ({@code "5m"}, {@code "1h"}) while the
 * pod is younger than it (a pod with no known start is protected); anything else (an invalid value, {@code "false"},
 * {@code "0s"}) does not protect. Only active pods count: a terminal or terminating pod never blocks.
 * A duration counts from the pod's {@code status.startTime}, as Karpenter's does; a pod that reports none counts from
 * its creation (which is earlier), and a pod with neither is protected.
 */
public final class DoNotDisrupt {
    private DoNotDisrupt() {
    }

    public static boolean active(Pod p, Instant now) {
        String v = p.annotations().get(Pod.DO_NOT_DISRUPT);
        if (v == null || p.status().isTerminal() || p.status().deletingSince() != null) {
            return false;
        }
        if (v.equals("true")) {
            return true;
        }
        Duration d;
        try {
            d = KubeDuration.parse(v);
        } catch (IllegalArgumentException invalid) {
            return false;
        }
        if (d.isNegative() || d.isZero()) {
            return false;
        }
        Instant started = p.status().startedAt() != null ? p.status().startedAt() : p.status().createdAt();
        return started == null || Duration.between(started, now).compareTo(d) < 0;
    }
}
