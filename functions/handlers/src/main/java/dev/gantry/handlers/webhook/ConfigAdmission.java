package dev.gantry.handlers.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.source.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Admission of Gantry's configuration objects: a {@code karpenter.sh} NodePool, a {@code karpenter.k8s.aws}
 * EC2NodeClass or an {@code autoscaling.x-k8s.io} CapacityBuffer being created or updated is read by
 * {@link ConfigLoader}, the reader {@code gantry validate} and the handlers use, so what the API server admits is what
 * Gantry can read. An error refuses the write with Gantry's message (the object, the field path, what is wrong, and a
 * "did you mean" where the reader has one); warnings go back as admission warnings, which kubectl prints.
 *
 * <p>The object is judged alone: a {@code nodeClassRef} or a {@code podTemplateRef} naming an object the request
 * does not carry is not an error, since the cluster may hold it or get it later (the handlers' reader reports such
 * objects at run time). When the user named Gantry's NodePools (another autoscaler runs beside it), a NodePool not
 * named is not Gantry's and passes unread, and errors on other objects become warnings: Gantry must not refuse what
 * the other autoscaler is configured with. Never throws: a review Gantry cannot read, or a reader failure, is allowed
 * with a warning, because admission must never block kubectl on Gantry's account.
 */
public final class ConfigAdmission {
    /**
     * Cross-references only the whole input can settle (a nodeClassRef's or podTemplateRef's target, a predicted
     * buffer's NodePool): the readers say the target "is not in the input"; for a single object that is expected.
     */
    static final String NOT_IN_INPUT = "is not in the input";
    /** The API server truncates longer warnings; kubectl prints each on its own line. */
    static final int MAX_WARNING_CHARS = 256;
    static final int MAX_WARNINGS = 10;

    /** The outcome for one config object. */
    public record Verdict(boolean allowed, String message, List<String> warnings) {
        static Verdict allow(List<String> warnings) {
            return new Verdict(true, "", warnings);
        }
    }

    private final Set<String> gantryPools;

    /** @param gantryPools the NodePools the user named as Gantry's, empty for all */
    public ConfigAdmission(Set<String> gantryPools) {
        this.gantryPools = Set.copyOf(gantryPools);
    }

    /** Whether {@code request.kind} is one of the configuration kinds this reviews. */
    public static boolean isConfig(JsonNode request) {
        String group = request.path("kind").path("group").asText();
        String kind = request.path("kind").path("kind").asText();
        return group.equals("karpenter.sh") && (kind.equals("NodePool") || kind.equals("NodeOverlay"))
                || group.equals("karpenter.k8s.aws") && kind.equals("EC2NodeClass")
                || group.equals("autoscaling.x-k8s.io") && kind.equals("CapacityBuffer");
    }

    /** The verdict on an admission {@code request} for which {@link #isConfig} holds. */
    public Verdict review(JsonNode request) {
        String operation = request.path("operation").asText();
        if (!(operation.equals("CREATE") || operation.equals("UPDATE")) || !request.path("subResource").asText("").isEmpty()) {
            return Verdict.allow(List.of());
        }
        String kind = request.path("kind").path("kind").asText();
        JsonNode object = request.get("object");
        if (object == null || !object.isObject()) {
            return Verdict.allow(List.of("Gantry could not check this " + kind + ": the review carries no object"));
        }
        String name = object.path("metadata").path("name").asText(request.path("name").asText(""));
        if (kind.equals("NodePool") && !gantryPools.isEmpty() && !gantryPools.contains(name)) {
            return Verdict.allow(List.of());
        }
        try {
            return judge(kind, name, strip((ObjectNode) object.deepCopy()));
        } catch (RuntimeException e) {
            System.err.println("webhook: could not read " + kind + "/" + name + ": " + e.getClass().getSimpleName());
            return Verdict.allow(List.of("Gantry could not check this " + kind + " (internal error); it was admitted"));
        }
    }

    private Verdict judge(String kind, String name, ObjectNode object) {
        // JSON is YAML: the reader takes the object as the API server sent it. Line numbers are not shown (they would
        // point into the review, not the user's file); the object and field path are.
        LoadResult r = ConfigLoader.loadString(kind + "/" + name, object.toPrettyString(), LoadOptions.DEFAULT);
        List<String> errors = new ArrayList<>();
        for (Diagnostic d : r.errors()) {
            if (!d.message().contains(NOT_IN_INPUT)) {
                errors.add(text(d));
            }
        }
        List<String> warnings = new ArrayList<>();
        for (Diagnostic d : r.warnings()) {
            if (!d.message().contains(NOT_IN_INPUT)) {
                warnings.add(text(d));
            }
        }
        // Beside another autoscaler, only a NodePool named as Gantry's is surely Gantry's to refuse.
        boolean ours = kind.equals("NodePool") || gantryPools.isEmpty();
        if (errors.isEmpty() || !ours) {
            errors.forEach(e -> warnings.add("Gantry cannot read this (another autoscaler's?): " + e));
            return Verdict.allow(cap(warnings));
        }
        String message = "Gantry refused " + kind + "/" + name + ": " + String.join("; ", errors);
        return new Verdict(false, message, cap(warnings));
    }

    /** What the API server sets and no reader needs. */
    private static ObjectNode strip(ObjectNode object) {
        object.remove("status");
        if (object.get("metadata") instanceof ObjectNode meta) {
            meta.remove("managedFields");
        }
        return object;
    }

    /** {@code field: message}, the object being the one under review. */
    private static String text(Diagnostic d) {
        return d.field().isEmpty() ? d.message() : d.field() + ": " + d.message();
    }

    private static List<String> cap(List<String> warnings) {
        return warnings.stream().limit(MAX_WARNINGS)
                .map(w -> w.length() <= MAX_WARNING_CHARS ? w : w.substring(0, MAX_WARNING_CHARS - 3) + "...").toList();
    }

    /** For SnapStart: reads one small NodePool, so the reader's classes are loaded and warm. */
    public void prime(ObjectNode nodePool) {
        judge("NodePool", "prime", nodePool);
    }
}
