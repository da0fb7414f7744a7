package dev.gantry.core.headroom;

import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A {@code autoscaling.x-k8s.io/v1beta1} CapacityBuffer: spare capacity kept warm as chunks shaped like one pod, with
 * Gantry's extensions (a schedule, and a predicted size) read from its annotations.
 *
 * <p>How many chunks, as the API defines it: the larger of {@code replicas} and {@code percentage} of the scalable
 * object's current replicas (rounded up), capped by {@code limits}; with neither, as many chunks as fit in the limits.
 * In {@link Mode#PREDICTED} mode the predicted demand counts as a third candidate for the larger.
 *
 * @param target     what one chunk looks like: a PodTemplate or a scalable workload, in this buffer's namespace
 * @param replicas   {@code spec.replicas}, or null
 * @param percentage {@code spec.percentage} (of the scalable object's replicas), or null
 * @param limits     {@code spec.limits}: resource name to ceiling on the buffer's total requests; empty for none
 * @param strategy   {@code spec.provisioningStrategy}; only {@link #ACTIVE_CAPACITY} makes capacity
 * @param schedule   when the buffer is wanted, or null for always
 * @param prediction how to size it from recorded demand, or null for {@link Mode#STATIC}
 */
public record CapacityBuffer(String namespace, String name, Target target, Integer replicas, Integer percentage,
                             Map<String, Quantity> limits, String strategy, Schedule schedule, Prediction prediction) {
    /** The API's default and only defined strategy: keep the capacity by placeholder (here: virtual) pods. */
    public static final String ACTIVE_CAPACITY = "buffer.x-k8s.io/active-capacity";

    public CapacityBuffer {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(target, "target");
        limits = Map.copyOf(limits == null ? Map.of() : limits);
        strategy = strategy == null ? ACTIVE_CAPACITY : strategy;
        if (replicas != null && replicas < 0 || percentage != null && percentage < 0) {
            throw new IllegalArgumentException("replicas and percentage must not be negative");
        }
    }

    /** How the buffer is sized. */
    public enum Mode { STATIC, PREDICTED }

    /** What one chunk of the buffer looks like. */
    public sealed interface Target {
        /** {@code Kind/name} as status prints it. */
        String label();
    }

    /** {@code spec.podTemplateRef}: a PodTemplate in the buffer's namespace. */
    public record PodTemplateRef(String name) implements Target {
        public PodTemplateRef {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String label() {
            return "PodTemplate/" + name;
        }
    }

    /** {@code spec.scalableRef}: a workload with a scale subresource (Deployment, StatefulSet, ReplicaSet, …). */
    public record ScalableRef(String apiGroup, String kind, String name) implements Target {
        public ScalableRef {
            apiGroup = apiGroup == null ? "" : apiGroup;
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String label() {
            return kind + "/" + name;
        }
    }

    /**
     * {@code gantry.dev/buffer-schedule} and {@code gantry.dev/buffer-duration}: the buffer is wanted for
     * {@code duration} after each firing of the UTC cron {@code cron}.
     */
    public record Schedule(String cron, Duration duration) {
        public Schedule {
            Objects.requireNonNull(cron, "cron");
            Objects.requireNonNull(duration, "duration");
            dev.gantry.core.disruption.CronSchedule.parse(cron); // fails here rather than when first asked
        }
    }

    /**
     * {@code gantry.dev/buffer-mode: predicted}: size the buffer to the demand recorded for {@code nodePool} in the coming
     * hour of the week, at {@code quantile} (0 &lt; q &le; 1) of the weeks seen.
     */
    public record Prediction(String nodePool, double quantile) {
        public Prediction {
            Objects.requireNonNull(nodePool, "nodePool");
            if (!(quantile > 0 && quantile <= 1)) {
                throw new IllegalArgumentException("quantile must be in (0, 1], got " + quantile);
            }
        }
    }

    public Mode mode() {
        return prediction == null ? Mode.STATIC : Mode.PREDICTED;
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }

    /** Whether this autoscaler acts on the buffer at all (another strategy belongs to another controller). */
    public boolean isActiveCapacity() {
        return ACTIVE_CAPACITY.equals(strategy);
    }

    /**
     * One line for listings: {@code replicas 3 of PodTemplate/chunk, limits cpu=20, from cron '50 8 * * 1-5' for 10h}.
     */
    public String summary() {
        java.util.List<String> parts = new java.util.ArrayList<>();
        java.util.List<String> size = new java.util.ArrayList<>();
        if (replicas != null) {
            size.add("replicas " + replicas);
        }
        if (percentage != null) {
            size.add(percentage + "%");
        }
        if (prediction != null) {
            size.add("predicted p" + Math.round(prediction.quantile() * 100) + " of NodePool " + prediction.nodePool());
        }
        parts.add((size.isEmpty() ? "as many as fit" : String.join(" or ", size)) + " of " + target.label());
        if (!limits.isEmpty()) {
            parts.add("limits " + limitsText());
        }
        parts.add(schedule == null ? "always" : "from cron '" + schedule.cron() + "' for "
                + dev.gantry.core.model.KubeDuration.format(schedule.duration()));
        if (!isActiveCapacity()) {
            parts.add("ignored (strategy " + strategy + ")");
        }
        return String.join(", ", parts);
    }

    /** {@code cpu=20 memory=100Gi}, by resource name, in the units people write. */
    public String limitsText() {
        Resources v = limitVector();
        StringBuilder b = new StringBuilder();
        new java.util.TreeSet<>(limits.keySet()).forEach(k ->
                b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(Resources.format(k, v.get(k))));
        return b.toString();
    }

    /** The limits as a resource vector (absent resources are unlimited: see {@link #limits}). */
    Resources limitVector() {
        return Resources.fromQuantities(limits);
    }
}
