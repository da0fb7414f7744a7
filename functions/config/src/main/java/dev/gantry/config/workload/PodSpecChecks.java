package dev.gantry.config.workload;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.Container;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import java.util.Map;

/**
 * Checks a pod spec a person wrote, with every problem at its line: requests and limits, node selector and affinity,
 * tolerations, topology spread, host ports, priority and binding. Fields Gantry does not use are not checked. The
 * values are read afterwards by the kube-objects mappers, from the same text, as the API server's pods are.
 */
public final class PodSpecChecks {
    private PodSpecChecks() {
    }

    public static void check(YamlObject spec) {
        if (spec == null) {
            return;
        }
        ContainerChecks.check(spec, "initContainers");
        ContainerChecks.check(spec, "containers");
        spec.quantityMap("overhead");
        YamlObject podLevel = spec.object("resources");
        if (podLevel != null) {
            podLevel(podLevel, "requests");
            podLevel(podLevel, "limits");
        }
        spec.stringMap("nodeSelector");
        YamlObject affinity = spec.object("affinity");
        if (affinity != null) {
            AffinityChecks.check(affinity);
        }
        tolerations(spec);
        spreads(spec);
        spec.string("nodeName");
        spec.string("priorityClassName");
        spec.integer("priority");
    }

    /** Pod-level {@code resources.requests} or {@code limits}; Kubernetes accepts only cpu, memory and huge pages there. */
    private static void podLevel(YamlObject resources, String field) {
        Map<String, dev.gantry.core.model.Quantity> m = resources.quantityMap(field);
        if (m == null) {
            return;
        }
        for (String name : m.keySet()) {
            if (!Container.podLevelResource(name)) {
                resources.error(field, "pod-level resources support only cpu, memory and hugepages-*, not " + name);
            }
        }
    }

    private static void tolerations(YamlObject spec) {
        for (YamlObject t : spec.objects("tolerations")) {
            String op = t.string("operator");
            if (op != null) {
                try {
                    Toleration.Operator.valueOf(op);
                } catch (IllegalArgumentException e) {
                    t.error("operator", "'" + op + "' is not a toleration operator (Equal, Exists)");
                }
            }
            String e = t.string("effect");
            if (e != null && !e.isEmpty()) {
                try {
                    Taint.Effect.parse(e);
                } catch (IllegalArgumentException ex) {
                    t.error("effect", ex.getMessage());
                }
            }
            t.string("key");
            t.string("value");
        }
    }

    private static void spreads(YamlObject spec) {
        for (YamlObject t : spec.objects("topologySpreadConstraints")) {
            t.require("maxSkew");
            t.require("topologyKey");
            t.require("whenUnsatisfiable");
            Integer skew = t.integer("maxSkew");
            if (skew != null && skew < 1) {
                t.error("maxSkew", "must be at least 1, got " + skew);
            }
            String when = t.string("whenUnsatisfiable");
            if (when != null && !when.equals("DoNotSchedule") && !when.equals("ScheduleAnyway")) {
                t.error("whenUnsatisfiable", "must be DoNotSchedule or ScheduleAnyway, got '" + when + "'");
            }
            Integer minDomains = t.integer("minDomains");
            if (minDomains != null && (minDomains < 1 || !"DoNotSchedule".equals(when))) {
                t.error("minDomains", "must be at least 1 and needs whenUnsatisfiable DoNotSchedule");
            }
            policy(t, "nodeAffinityPolicy");
            policy(t, "nodeTaintsPolicy");
            t.strings("matchLabelKeys");
            AffinityChecks.selector(t, "labelSelector");
        }
    }

    private static void policy(YamlObject t, String key) {
        String v = t.string(key);
        if (v != null && !v.equals("Honor") && !v.equals("Ignore")) {
            t.error(key, "must be Honor or Ignore, got '" + v + "'");
        }
    }
}
