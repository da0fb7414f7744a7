package dev.gantry.config.workload;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.Container;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a pod spec into a pod builder: effective requests ({@link Container#podRequests}), node selector and
 * affinity, tolerations, topology spread, host ports, priority and binding. Pod specs are read leniently (fields
 * Gantry does not use are not checked), but what is read is checked.
 */
public final class PodSpecReader {
    private PodSpecReader() {
    }

    public static Pod.Builder read(String namespace, String name, Map<String, String> labels,
                                   Map<String, String> annotations, YamlObject spec) {
        Pod.Builder b = Pod.builder(namespace, name).labels(labels).annotations(annotations);
        if (spec == null) {
            return b;
        }
        List<Container> init = ContainerReader.read(spec, "initContainers", true);
        List<Container> containers = ContainerReader.read(spec, "containers", false);
        Map<String, dev.gantry.core.model.Quantity> overhead = spec.quantityMap("overhead");
        Map<String, dev.gantry.core.model.Quantity> podRequests = Map.of();
        Map<String, dev.gantry.core.model.Quantity> podLimits = Map.of();
        YamlObject podLevel = spec.object("resources");
        if (podLevel != null) {
            podRequests = podLevel(podLevel, "requests");
            podLimits = podLevel(podLevel, "limits");
        }
        b.requests(Container.podRequests(init, containers, overhead == null ? null : Resources.fromQuantities(overhead),
                podRequests, podLimits));
        List<dev.gantry.core.model.HostPort> ports = new ArrayList<>();
        init.forEach(c -> ports.addAll(c.hostPorts()));
        containers.forEach(c -> ports.addAll(c.hostPorts()));
        b.hostPorts(ports);
        Map<String, String> selector = spec.stringMap("nodeSelector");
        if (selector != null) {
            b.nodeSelector(selector);
        }
        YamlObject affinity = spec.object("affinity");
        if (affinity != null) {
            AffinityReader.read(affinity, b);
        }
        b.tolerations(tolerations(spec));
        b.topologySpread(spreads(spec, labels));
        b.nodeName(spec.string("nodeName"));
        b.priorityClassName(spec.string("priorityClassName"));
        Integer priority = spec.integer("priority");
        b.priority(priority == null ? 0 : priority);
        return b;
    }

    /** Pod-level {@code resources.requests} or {@code limits}; Kubernetes accepts only cpu, memory and huge pages there. */
    private static Map<String, dev.gantry.core.model.Quantity> podLevel(YamlObject resources, String field) {
        Map<String, dev.gantry.core.model.Quantity> m = resources.quantityMap(field);
        if (m == null) {
            return Map.of();
        }
        for (String name : m.keySet()) {
            if (!Container.podLevelResource(name)) {
                resources.error(field, "pod-level resources support only cpu, memory and hugepages-*, not " + name);
            }
        }
        return m;
    }

    private static List<Toleration> tolerations(YamlObject spec) {
        List<Toleration> out = new ArrayList<>();
        for (YamlObject t : spec.objects("tolerations")) {
            String op = t.string("operator");
            Toleration.Operator operator = null;
            if (op != null) {
                try {
                    operator = Toleration.Operator.valueOf(op);
                } catch (IllegalArgumentException e) {
                    t.error("operator", "'" + op + "' is not a toleration operator (Equal, Exists)");
                }
            }
            Taint.Effect effect = null;
            String e = t.string("effect");
            if (e != null && !e.isEmpty()) {
                try {
                    effect = Taint.Effect.parse(e);
                } catch (IllegalArgumentException ex) {
                    t.error("effect", ex.getMessage());
                }
            }
            out.add(new Toleration(t.string("key"), operator, t.string("value"), effect));
        }
        return out;
    }

    private static List<TopologySpread> spreads(YamlObject spec, Map<String, String> podLabels) {
        List<TopologySpread> out = new ArrayList<>();
        for (YamlObject t : spec.objects("topologySpreadConstraints")) {
            boolean ok = t.require("maxSkew") & t.require("topologyKey") & t.require("whenUnsatisfiable");
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
            String affinityPolicy = policy(t, "nodeAffinityPolicy");
            String taintsPolicy = policy(t, "nodeTaintsPolicy");
            List<String> keys = t.strings("matchLabelKeys");
            LabelSelector selector = AffinityReader.selector(t, "labelSelector");
            Map<String, String> extra = new java.util.TreeMap<>();
            for (String k : keys) {
                if (podLabels.containsKey(k)) {
                    extra.put(k, podLabels.get(k));
                }
            }
            if (ok && skew != null && when != null) {
                out.add(new TopologySpread(skew, t.string("topologyKey"), when.equals("DoNotSchedule"), selector.and(extra),
                        minDomains, keys, !"Ignore".equals(affinityPolicy), "Honor".equals(taintsPolicy)));
            }
        }
        return out;
    }

    private static String policy(YamlObject t, String key) {
        String v = t.string(key);
        if (v != null && !v.equals("Honor") && !v.equals("Ignore")) {
            t.error(key, "must be Honor or Ignore, got '" + v + "'");
        }
        return v;
    }
}
