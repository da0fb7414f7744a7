package dev.gantry.core.scheduling;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Capacity that exists or is on its way: a node, or an in-flight claim. Its labels are fixed. */
final class NodeSlot implements Slot {
    final String name;
    final boolean inFlight;
    final Map<String, String> labels;
    final List<Taint> taints;
    Resources free;
    final List<HostPort> ports = new ArrayList<>();
    final List<Pod> placed = new ArrayList<>();

    /** A node that exists, with {@code free} room and the pods {@code bound} to it. */
    static NodeSlot node(String name, Map<String, String> labels, List<Taint> taints, Resources free, List<Pod> bound) {
        return new NodeSlot(name, false, labels, taints, free, bound);
    }

    /** A claim on its way, labelled as its node will be, with {@code free} room and the pods planned onto it. */
    static NodeSlot inFlight(String name, Map<String, String> labels, List<Taint> taints, Resources free, List<Pod> bound) {
        return new NodeSlot(name, true, labels, taints, free, bound);
    }

    private NodeSlot(String name, boolean inFlight, Map<String, String> labels, List<Taint> taints, Resources free, List<Pod> bound) {
        this.name = name;
        this.inFlight = inFlight;
        this.labels = labels;
        this.taints = taints;
        this.free = free;
        for (Pod p : bound) {
            ports.addAll(p.hostPorts());
        }
    }

    @Override
    public String hostname() {
        return labels.getOrDefault(WellKnownLabels.HOSTNAME, name);
    }

    @Override
    public Set<String> domains(String key) {
        String v = key.equals(WellKnownLabels.HOSTNAME) ? hostname() : labels.get(key);
        return v == null ? Set.of() : Set.of(v);
    }

    @Override
    public List<Taint> taints() {
        return taints;
    }

    @Override
    public boolean couldMatch(dev.gantry.core.requirements.Requirements term) {
        return term.matches(labels);
    }

    /** Why the pod cannot go here (ignoring topology), or null. */
    String misfit(PodConstraints c) {
        Taint t = c.firstUntolerated(taints);
        if (t != null) {
            return "taint " + t;
        }
        if (!c.nodeRequirements().matches(labels)) {
            return "labels";
        }
        if (!c.requests().fitsIn(free)) {
            return "resources";
        }
        for (HostPort w : c.hostPorts()) {
            for (HostPort p : ports) {
                if (w.conflictsWith(p)) {
                    return "host port " + w.port();
                }
            }
        }
        return null;
    }

    void place(Pod pod) {
        placed.add(pod);
        free = free.minus(pod.requests());
        ports.addAll(pod.hostPorts());
    }
}
