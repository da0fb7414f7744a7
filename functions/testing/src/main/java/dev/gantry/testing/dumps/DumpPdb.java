package dev.gantry.testing.dumps;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A policy/v1 PodDisruptionBudget as the API server returns it, selecting pods by their {@code app} label, with the
 * disruption controller's status ({@code disruptionsAllowed}, default 1).
 */
public final class DumpPdb {
    private final String namespace;
    private final String name;
    private String app;
    private Object minAvailable;
    private Object maxUnavailable = 1;
    private int disruptionsAllowed = 1;
    private String unhealthyPodEvictionPolicy;

    private DumpPdb(String namespace, String name) {
        this.namespace = namespace;
        this.name = name;
        this.app = name;
    }

    public static DumpPdb named(String namespace, String name) {
        return new DumpPdb(namespace, name);
    }

    public DumpPdb app(String v) { app = v; return this; }
    public DumpPdb minAvailable(Object v) { minAvailable = v; maxUnavailable = null; return this; }
    public DumpPdb maxUnavailable(Object v) { maxUnavailable = v; minAvailable = null; return this; }
    public DumpPdb allowed(int n) { disruptionsAllowed = n; return this; }
    public DumpPdb alwaysAllowUnhealthy() { unhealthyPodEvictionPolicy = "AlwaysAllow"; return this; }

    public Map<String, Object> toMap() {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("creationTimestamp", DumpNode.NOW.minusSeconds(86_400).toString());
        meta.put("generation", 1);
        meta.put("name", name);
        meta.put("namespace", namespace);
        meta.put("resourceVersion", "4412");
        meta.put("uid", DumpNode.uid(namespace + "/pdb/" + name));
        Map<String, Object> spec = new LinkedHashMap<>();
        if (maxUnavailable != null) {
            spec.put("maxUnavailable", maxUnavailable);
        }
        if (minAvailable != null) {
            spec.put("minAvailable", minAvailable);
        }
        spec.put("selector", Map.of("matchLabels", Map.of("app", app)));
        if (unhealthyPodEvictionPolicy != null) {
            spec.put("unhealthyPodEvictionPolicy", unhealthyPodEvictionPolicy);
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("currentHealthy", 3);
        status.put("desiredHealthy", 2);
        status.put("disruptionsAllowed", disruptionsAllowed);
        status.put("expectedPods", 3);
        status.put("observedGeneration", 1);
        Map<String, Object> pdb = new LinkedHashMap<>();
        pdb.put("apiVersion", "policy/v1");
        pdb.put("kind", "PodDisruptionBudget");
        pdb.put("metadata", meta);
        pdb.put("spec", spec);
        pdb.put("status", status);
        return pdb;
    }
}
