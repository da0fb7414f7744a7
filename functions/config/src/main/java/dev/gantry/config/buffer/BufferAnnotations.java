package dev.gantry.config.buffer;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.source.SourceLocation;
import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.Suggest;
import dev.gantry.core.disruption.CronSchedule;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.model.KubeDuration;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Gantry's CapacityBuffer extensions, written as annotations so the object stays valid for the API server and for
 * Cluster Autoscaler: {@value #SCHEDULE} (a five-field UTC cron) with {@value #DURATION} (how long each window lasts),
 * and {@value #MODE} ({@code static} or {@code predicted}) with {@value #QUANTILE} and {@value #NODEPOOL}.
 */
public final class BufferAnnotations {
    public static final String PREFIX = "gantry.dev/buffer-";
    public static final String SCHEDULE = PREFIX + "schedule";
    public static final String DURATION = PREFIX + "duration";
    public static final String MODE = PREFIX + "mode";
    public static final String QUANTILE = PREFIX + "quantile";
    public static final String NODEPOOL = PREFIX + "nodepool";
    public static final double DEFAULT_QUANTILE = 0.9;
    private static final Set<String> KNOWN = Set.of(SCHEDULE, DURATION, MODE, QUANTILE, NODEPOOL);

    private final Doc doc;

    private BufferAnnotations(Doc doc) {
        this.doc = doc;
    }

    /** What the annotations say; every problem is reported on {@code doc} (results are then not used). */
    record Read(CapacityBuffer.Schedule schedule, CapacityBuffer.Prediction prediction) {
    }

    static Read read(Doc doc) {
        return new BufferAnnotations(doc).read();
    }

    private Read read() {
        Map<String, String> a = doc.annotations();
        for (String key : a.keySet()) {
            if (key.startsWith(PREFIX) && !KNOWN.contains(key)) {
                String near = Suggest.closest(key, KNOWN);
                error(key, "unknown Gantry buffer annotation" + (near == null ? " (" + String.join(", ", new java.util.TreeSet<>(KNOWN)) + ")"
                        : ", did you mean \"" + near + "\"?"));
            }
        }
        return new Read(schedule(a), prediction(a));
    }

    private CapacityBuffer.Schedule schedule(Map<String, String> a) {
        String cron = a.get(SCHEDULE);
        String duration = a.get(DURATION);
        if (cron == null && duration == null) {
            return null;
        }
        if (cron == null) {
            error(DURATION, DURATION + " needs " + SCHEDULE + " (when each window opens)");
            return null;
        }
        if (duration == null) {
            error(SCHEDULE, SCHEDULE + " needs " + DURATION + " (how long each window lasts)");
            return null;
        }
        boolean ok = true;
        try {
            CronSchedule.parse(cron);
        } catch (IllegalArgumentException e) {
            error(SCHEDULE, "'" + cron + "' is not a UTC cron schedule: " + e.getMessage());
            ok = false;
        }
        Duration d = null;
        if (!duration.matches("([0-9]+(s|m|h))+")) {
            error(DURATION, "'" + duration + "' is not a duration (whole hours, minutes, seconds: 30m, 10h, 1h30m)");
            ok = false;
        } else {
            d = KubeDuration.parse(duration);
            if (d.isZero()) {
                error(DURATION, "must be longer than 0s");
                ok = false;
            }
        }
        return ok ? new CapacityBuffer.Schedule(cron, d) : null;
    }

    private CapacityBuffer.Prediction prediction(Map<String, String> a) {
        String mode = a.getOrDefault(MODE, "static");
        if (!mode.equals("static") && !mode.equals("predicted")) {
            error(MODE, "'" + mode + "' is not a mode (static, predicted)");
            return null;
        }
        if (mode.equals("static")) {
            for (String k : new String[] {QUANTILE, NODEPOOL}) {
                if (a.containsKey(k)) {
                    error(k, k + " applies only with " + MODE + ": predicted");
                }
            }
            return null;
        }
        String pool = a.get(NODEPOOL);
        if (pool == null || pool.isBlank()) {
            error(MODE, "predicted mode needs " + NODEPOOL + ": the NodePool whose pending demand sizes the buffer");
        }
        double q = DEFAULT_QUANTILE;
        String qs = a.get(QUANTILE);
        if (qs != null) {
            try {
                q = Double.parseDouble(qs);
            } catch (NumberFormatException e) {
                q = Double.NaN;
            }
            if (!(q > 0 && q <= 1)) {
                error(QUANTILE, "'" + qs + "' is not a quantile: a number above 0 and at most 1 (0.9 for p90)");
                return null;
            }
        }
        return pool == null || pool.isBlank() ? null : new CapacityBuffer.Prediction(pool, q);
    }

    private void error(String key, String message) {
        String field = "metadata.annotations." + key;
        SourceLocation at = doc.report().fields().getOrDefault(field, doc.report().location(doc.root().node()));
        doc.report().errors().add(new Diagnostic(at.path(), at.line(), at.column(), doc.report().object(), field, message));
    }
}
