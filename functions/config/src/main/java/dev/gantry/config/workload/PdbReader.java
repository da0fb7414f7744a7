package dev.gantry.config.workload;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.PodDisruptionBudget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * PodDisruptionBudgets from manifests or a {@code kubectl get pdb -A -o yaml} dump (a {@code v1 List}), for the
 * offline consolidation what-if. {@code status.disruptionsAllowed} is the API server's count; a budget without a
 * status (a manifest never applied) allows none, the safe reading. A selector with {@code matchExpressions} is read
 * by its {@code matchLabels} only, which covers at least the pods it covers. The config loader validates the objects;
 * this only extracts them.
 */
public final class PdbReader {
    private PdbReader() {
    }

    public static List<PodDisruptionBudget> read(List<Path> paths) {
        List<PodDisruptionBudget> out = new ArrayList<>();
        for (Path p : paths) {
            try (var files = Files.isDirectory(p) ? Files.walk(p) : java.util.stream.Stream.of(p)) {
                for (Path f : files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().toList()) {
                    for (Object doc : new Load(LoadSettings.builder().build()).loadAllFromString(Files.readString(f))) {
                        collect(doc, out);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void collect(Object doc, List<PodDisruptionBudget> out) {
        if (!(doc instanceof Map<?, ?> m)) {
            return;
        }
        if ("List".equals(m.get("kind")) && m.get("items") instanceof List<?> items) {
            items.forEach(i -> collect(i, out));
            return;
        }
        if (!"PodDisruptionBudget".equals(m.get("kind"))) {
            return;
        }
        Map<String, Object> meta = map(m.get("metadata"));
        Map<String, Object> spec = map(m.get("spec"));
        Map<String, Object> status = map(m.get("status"));
        Map<String, Object> selector = map(spec.get("selector"));
        Map<String, String> labels = new LinkedHashMap<>();
        map(selector.get("matchLabels")).forEach((k, v) -> labels.put(k, String.valueOf(v)));
        Object allowed = status.get("disruptionsAllowed");
        out.add(new PodDisruptionBudget(String.valueOf(meta.getOrDefault("namespace", "default")), String.valueOf(meta.get("name")),
                spec.containsKey("selector") ? LabelSelector.of(labels) : LabelSelector.NOTHING,
                spec.get("minAvailable") == null ? null : String.valueOf(spec.get("minAvailable")),
                spec.get("maxUnavailable") == null ? null : String.valueOf(spec.get("maxUnavailable")),
                allowed instanceof Number n ? n.intValue() : 0));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
