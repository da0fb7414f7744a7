package dev.gantry.kube;

import static dev.gantry.kube.objects.Selectors.nonNull;

import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.model.Taint;
import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@link NodePatch} into an RFC 6902 JSON patch against the node as last read. Taints and finalizers are
 * lists that must be written whole, so they are computed from that copy. The patch also sets that copy's
 * {@code resourceVersion}, which makes it a conditional update: the API server answers 409 if anyone changed the node
 * in between, instead of the patch silently dropping their taint or finalizer. (Not a {@code test} op: the fabric8
 * mock server hangs on a failed test. Not a merge patch: the mock concatenates lists where a real server replaces them.)
 */
final class NodeJsonPatch {
    private NodeJsonPatch() {
    }

    /** The patch operations, or an empty list when the node already is as the patch asks. */
    static List<Map<String, Object>> of(Node current, NodePatch patch) {
        List<Map<String, Object>> ops = new ArrayList<>();
        labels(current, patch, ops);
        set("/metadata/annotations/", current.getMetadata().getAnnotations(), patch.setAnnotations(), ops);

        List<String> finalizers = nonNull(current.getMetadata().getFinalizers());
        List<String> newFinalizers = new ArrayList<>(finalizers);
        patch.addFinalizers().forEach(f -> {
            if (!newFinalizers.contains(f)) {
                newFinalizers.add(f);
            }
        });
        newFinalizers.removeAll(patch.removeFinalizers());
        if (!newFinalizers.equals(finalizers)) {
            ops.add(op("/metadata/finalizers", newFinalizers));
        }

        Map<String, Object> spec = new LinkedHashMap<>();
        List<Map<String, Object>> newTaints = taints(current.getSpec() == null ? List.of() : nonNull(current.getSpec().getTaints()), patch);
        if (newTaints != null) {
            spec.put("taints", newTaints);
        }
        boolean cordoned = current.getSpec() != null && Boolean.TRUE.equals(current.getSpec().getUnschedulable());
        if (patch.unschedulable() != null && patch.unschedulable() != cordoned) {
            spec.put("unschedulable", patch.unschedulable());
        }
        if (current.getSpec() == null && !spec.isEmpty()) {
            ops.add(op("/spec", spec));
        } else {
            spec.forEach((k, v) -> ops.add(op("/spec/" + k, v)));
        }

        if (!ops.isEmpty()) {
            ops.addFirst(op("/metadata/resourceVersion", current.getMetadata().getResourceVersion()));
        }
        return ops;
    }

    /** Only the labels that change, one op each, so labels written by others in between survive. */
    private static void labels(Node current, NodePatch patch, List<Map<String, Object>> ops) {
        Map<String, String> labels = current.getMetadata().getLabels();
        set("/metadata/labels/", labels, patch.setLabels(), ops);
        // Only labels present are removed (a remove of a missing path fails the whole patch).
        for (String k : patch.removeLabels()) {
            if (labels != null && labels.containsKey(k) && !patch.setLabels().containsKey(k)) {
                Map<String, Object> remove = new LinkedHashMap<>();
                remove.put("op", "remove");
                remove.put("path", "/metadata/labels/" + escape(k));
                ops.add(remove);
            }
        }
    }

    /**
     * Sets the members of a string map ({@code /metadata/labels/} or {@code /metadata/annotations/}) that differ, one op
     * each; a map the object lacks (the API server omits an empty one, and an add below a missing member fails) is
     * added whole.
     */
    private static void set(String path, Map<String, String> current, Map<String, String> wanted, List<Map<String, Object>> ops) {
        Map<String, String> changed = new LinkedHashMap<>();
        wanted.forEach((k, v) -> {
            if (current == null || !v.equals(current.get(k))) {
                changed.put(k, v);
            }
        });
        if ((current == null || current.isEmpty()) && !changed.isEmpty()) {
            ops.add(op(path.substring(0, path.length() - 1), changed));
        } else {
            changed.forEach((k, v) -> ops.add(op(path + escape(k), v)));
        }
    }

    /** The whole new taint list, or null when unchanged. Existing taints keep their fields (timeAdded) as they are. */
    private static List<Map<String, Object>> taints(List<io.fabric8.kubernetes.api.model.Taint> current, NodePatch patch) {
        List<Map<String, Object>> out = new ArrayList<>();
        boolean changed = false;
        for (io.fabric8.kubernetes.api.model.Taint t : current) {
            if (patch.removeTaintKeys().contains(t.getKey())) {
                changed = true;
            } else {
                out.add(taint(t.getKey(), t.getValue(), t.getEffect(), t.getTimeAdded()));
            }
        }
        for (Taint t : patch.addTaints()) {
            boolean present = out.stream().anyMatch(m -> t.key().equals(m.get("key")) && t.effect().name().equals(m.get("effect")));
            if (!present) {
                out.add(taint(t.key(), t.value(), t.effect().name(), null));
                changed = true;
            }
        }
        return changed ? out : null;
    }

    private static Map<String, Object> taint(String key, String value, String effect, String timeAdded) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", key);
        if (value != null && !value.isEmpty()) {
            m.put("value", value);
        }
        m.put("effect", effect);
        if (timeAdded != null) {
            m.put("timeAdded", timeAdded);
        }
        return m;
    }

    /** {@code add} sets a member whether or not it exists (RFC 6902 §4.1), so it serves for replace too. */
    private static Map<String, Object> op(String path, Object value) {
        return Map.of("op", "add", "path", path, "value", value);
    }

    /** A JSON pointer token: {@code ~} and {@code /} escaped (RFC 6901), as label keys have slashes. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
