package dev.gantry.core.status;

import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.OverlayResolution;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The sweep's NodeOverlay status: {@code ValidationSucceeded} and {@code Ready}, as Karpenter v1.14.1's overlay
 * controller sets them (kubernetes-sigs/karpenter {@code pkg/controllers/nodeoverlay/controller.go}: SetTrue, or
 * SetFalse with reason {@code RuntimeValidation} or {@code Conflict}; {@code pkg/apis/v1alpha1/nodeoverlay_status.go}:
 * Ready follows ValidationSucceeded). False when:
 * <ul>
 *   <li>the configuration reader refused a field (its messages; reason {@code RuntimeValidation});</li>
 *   <li>it conflicts with another overlay of the same weight ({@link OverlayResolution#invalid()}; reason
 *       {@code Conflict});</li>
 *   <li>it is preview-shaped and names a type neither the catalogue nor EC2 knows
 *       ({@link OverlayResolution#unknownPreviews()}; Gantry's own reason {@code PreviewTypeNotFound}).</li>
 * </ul>
 * An overlay whose preview type EC2 could not be asked about this time (a throttle, a 5xx:
 * {@link OverlayResolution#unansweredPreviews()}) keeps the status it has until a sweep gets an answer.
 * Only overlays Gantry read (in the configuration, or left out with messages) are written; a condition keeps its
 * {@code lastTransitionTime} while its status holds, and an overlay whose conditions would not change is not written,
 * so a second sweep (or a second delivery of the same one) writes nothing. Never throws.
 */
public final class OverlayStatusWriter {
    private static final System.Logger LOG = System.getLogger(OverlayStatusWriter.class.getName());

    private final OverlayStatusObjects objects;
    private final Supplier<GantryConfig> config;
    private final Supplier<Map<String, List<String>>> diagnostics;
    private final Function<GantryConfig, OverlayResolution> resolve;

    /** @param resolve the overlays of a configuration resolved over the live instance types (as decisions see them) */
    public OverlayStatusWriter(OverlayStatusObjects objects, Supplier<GantryConfig> config,
                               Supplier<Map<String, List<String>>> diagnostics,
                               Function<GantryConfig, OverlayResolution> resolve) {
        this.objects = objects;
        this.config = config;
        this.diagnostics = diagnostics;
        this.resolve = resolve;
    }

    /** What one sync did. */
    public record Report(int written, int failed) {
    }

    public Report sync(Instant now) {
        int written = 0;
        int failed = 0;
        try {
            List<StatusObjects.Observed<List<Condition>>> listed = objects.nodeOverlays();
            if (listed.isEmpty()) {
                return new Report(0, 0);
            }
            GantryConfig cfg = config.get();
            Map<String, List<String>> diag = diagnostics.get();
            OverlayResolution r = resolve.apply(cfg);
            for (StatusObjects.Observed<List<Condition>> o : listed) {
                Optional<NodeOverlay> configured = cfg.overlays().stream().filter(x -> x.name().equals(o.name())).findFirst();
                List<String> problems = diag.getOrDefault("NodeOverlay/" + o.name(), List.of());
                if (configured.isEmpty() && problems.isEmpty()) {
                    continue; // not read by Gantry: not Gantry's to write
                }
                if (problems.isEmpty() && !r.invalid().containsKey(o.name()) && r.unansweredPreviews().containsKey(o.name())) {
                    continue; // EC2 could not be asked about its preview type: the status stays, the next sweep asks again
                }
                List<Condition> before = o.status() == null ? List.of() : o.status();
                List<Condition> want = conditions(o.name(), problems, r, now).stream()
                        .map(c -> c.keepingTimeOf(Condition.find(before, c.type()))).toList();
                if (want.equals(before)) {
                    continue;
                }
                try {
                    objects.writeNodeOverlay(o, want);
                    written++;
                } catch (RuntimeException e) {
                    failed++;
                    if (!(e instanceof NodeClaimObjects.Stale)) {
                        LOG.log(System.Logger.Level.WARNING, "NodeOverlay status write failed, the next sweep retries: " + e);
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "NodeOverlay status not written, the next sweep retries: " + e);
            failed++;
        }
        return new Report(written, failed);
    }

    private static List<Condition> conditions(String name, List<String> problems, OverlayResolution r, Instant now) {
        Condition validation;
        if (!problems.isEmpty()) {
            validation = Condition.isFalse("ValidationSucceeded", "RuntimeValidation", String.join("; ", problems), now);
        } else if (r.invalid().containsKey(name)) {
            validation = Condition.isFalse("ValidationSucceeded", "Conflict", r.invalid().get(name), now);
        } else if (r.unknownPreviews().containsKey(name)) {
            validation = Condition.isFalse("ValidationSucceeded", "PreviewTypeNotFound", "preview instance type "
                    + String.join(", ", r.unknownPreviews().get(name)) + " is neither in the catalogue nor listed by EC2 "
                    + "DescribeInstanceTypes", now);
        } else {
            validation = Condition.isTrue("ValidationSucceeded", "ValidationSucceeded", now);
        }
        Condition ready = validation.status() == Condition.Status.True ? Condition.isTrue("Ready", "Ready", now)
                : Condition.isFalse("Ready", "NotReady", "ValidationSucceeded: " + validation.message(), now);
        return List.of(validation, ready);
    }
}
