package dev.gantry.simulator.world.kube;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.util.List;
import java.util.Map;

/**
 * PodDisruptionBudgets, as the disruption controller counts them (a scenario's budgets are read by the config loader,
 * through the kube-objects mapper, as every manifest is): healthy pods (Running on a Ready node) against the minimum available that
 * {@code minAvailable} or {@code maxUnavailable} (an integer, or a percentage of the pods the budget expects: its
 * controllers' replicas) implies.
 */
public final class Pdbs {
    private Pdbs() {
    }

    /**
     * Per PDB (namespace/name): how many pods it expects (the disruption controller's {@code expectedPods}: the desired
     * replicas of each controller owning a selected pod, plus the selected pods no controller owns) and how many of the
     * selected pods are healthy.
     */
    public record Counts(long version, Map<String, int[]> byPdb) {
        public int healthy(PodDisruptionBudget b) {
            int[] c = byPdb.get(b.namespace() + "/" + b.name());
            return c == null ? 0 : c[1];
        }

        public int expected(PodDisruptionBudget b) {
            int[] c = byPdb.get(b.namespace() + "/" + b.name());
            return c == null ? 0 : c[0];
        }
    }

    /**
     * Counts every PDB's expected and healthy pods in one pass over the pods. {@code replicas} gives a controller's
     * desired replicas by namespace/name (null for an owner the simulation does not control: its pods count one each).
     * Expected pods follow the controllers' scale, not the pods that exist, so an eviction does not lower the minimum
     * before its replacement is created (counted from the pods that exist, eight evictions in one instant would pass a
     * budget of 80% of 20).
     */
    public static Counts count(InMemoryCluster cluster, java.util.function.Function<String, Integer> replicas) {
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
                        if (p.isBound() && isHealthy(p, cluster.node(p.nodeName()))) {
                            c[1]++;
                        }
                    }
                }
            }
        }
        return new Counts(version, out);
    }

    /** The minimum available the budget implies over {@code expected} pods. */
    public static int minAvailable(PodDisruptionBudget b, int expected) {
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

    /**
     * Running on a Ready node, not being deleted, and not reporting PodReady False (a crash-looping pod between two
     * restarts): what a PodDisruptionBudget counts as healthy.
     */
    public static boolean isHealthy(Pod p, Node n) {
        return p.isBound() && n != null && n.ready() && "Running".equals(p.status().phase()) && p.status().deletingSince() == null
                && !p.status().reportsNotReady();
    }
}
