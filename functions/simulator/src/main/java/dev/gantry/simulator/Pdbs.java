package dev.gantry.simulator;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * PodDisruptionBudgets: read from manifests (the config loader accepts them but does not model them yet), and counted
 * as the disruption controller counts them: healthy pods (Running on a Ready node) against the minimum available that
 * {@code minAvailable} or {@code maxUnavailable} (an integer, or a percentage of the pods the budget expects: its
 * controllers' replicas) implies.
 */
final class Pdbs {
    private Pdbs() {
    }

    @SuppressWarnings("unchecked")
    static List<PodDisruptionBudget> read(Path file) throws IOException {
        List<PodDisruptionBudget> out = new ArrayList<>();
        for (Object doc : new Load(LoadSettings.builder().build()).loadAllFromString(Files.readString(file))) {
            if (!(doc instanceof Map<?, ?> m) || !"PodDisruptionBudget".equals(m.get("kind"))) {
                continue;
            }
            Map<String, Object> meta = (Map<String, Object>) m.get("metadata");
            Map<String, Object> spec = (Map<String, Object>) m.get("spec");
            Map<String, Object> selector = spec == null ? null : (Map<String, Object>) spec.get("selector");
            Map<String, String> labels = new java.util.TreeMap<>();
            if (selector != null && selector.get("matchLabels") instanceof Map<?, ?> ml) {
                ml.forEach((k, v) -> labels.put(String.valueOf(k), String.valueOf(v)));
            }
            String ns = meta.get("namespace") == null ? "default" : String.valueOf(meta.get("namespace"));
            out.add(new PodDisruptionBudget(ns, String.valueOf(meta.get("name")), LabelSelector.of(labels),
                    str(spec == null ? null : spec.get("minAvailable")), str(spec == null ? null : spec.get("maxUnavailable")), 0));
        }
        return out;
    }

    private static String str(Object o) {
        return o == null ? null : String.valueOf(o);
    }

    /**
     * Per PDB (namespace/name): how many pods it expects (the disruption controller's {@code expectedPods}: the desired
     * replicas of each controller owning a selected pod, plus the selected pods no controller owns) and how many of the
     * selected pods are healthy.
     */
    record Counts(long version, Map<String, int[]> byPdb) {
        int healthy(PodDisruptionBudget b) {
            int[] c = byPdb.get(b.namespace() + "/" + b.name());
            return c == null ? 0 : c[1];
        }

        int expected(PodDisruptionBudget b) {
            int[] c = byPdb.get(b.namespace() + "/" + b.name());
            return c == null ? 0 : c[0];
        }
    }

    /**
     * Counts every PDB's expected and healthy pods in one pass over the pods. {@code replicas} gives a controller's
     * desired replicas by namespace/name (null for an owner the simulation does not control: its pods count one each).
     * Expected pods follow the controllers' scale, not the pods that exist, so an eviction does not lower the minimum
     * before its replacement is created (counting existing pods let eight evictions in one instant through a budget
     * of 80% of 20).
     */
    static Counts count(InMemoryCluster cluster, java.util.function.Function<String, Integer> replicas) {
        long version = cluster.version();
        List<PodDisruptionBudget> budgets = cluster.podDisruptionBudgets();
        Map<String, int[]> out = new java.util.HashMap<>();
        Map<String, java.util.Set<String>> owners = new java.util.HashMap<>();
        budgets.forEach(b -> out.put(b.namespace() + "/" + b.name(), new int[2]));
        if (!budgets.isEmpty()) {
            for (Pod p : cluster.pods()) {
                for (PodDisruptionBudget b : budgets) {
                    if (b.covers(p)) {
                        String key = b.namespace() + "/" + b.name();
                        int[] c = out.get(key);
                        String owner = p.ownerName() == null ? null : p.namespace() + "/" + p.ownerName();
                        Integer scale = owner == null ? null : replicas.apply(owner);
                        if (scale == null) {
                            c[0]++;
                        } else if (owners.computeIfAbsent(key, k -> new java.util.HashSet<>()).add(owner)) {
                            c[0] += scale;
                        }
                        if (p.isBound() && Observers.isHealthy(p, cluster.node(p.nodeName()))) {
                            c[1]++;
                        }
                    }
                }
            }
        }
        return new Counts(version, out);
    }

    /** The minimum available the budget implies over {@code expected} pods. */
    static int minAvailable(PodDisruptionBudget b, int expected) {
        if (b.minAvailable() != null) {
            return amount(b.minAvailable(), expected, true);
        }
        if (b.maxUnavailable() != null) {
            return expected - amount(b.maxUnavailable(), expected, false);
        }
        return 0;
    }

    /** An integer, or a percentage of {@code total} (rounded up, as Kubernetes rounds both fields). */
    private static int amount(String v, int total, boolean roundUp) {
        if (v.endsWith("%")) {
            double pct = Double.parseDouble(v.substring(0, v.length() - 1)) / 100.0;
            return (int) Math.ceil(pct * total);
        }
        return Integer.parseInt(v);
    }
}
