package dev.gantry.core.model;

import java.util.List;
import java.util.Map;

/**
 * The parts of a container that scheduling reads.
 *
 * @param sidecar an init container with {@code restartPolicy: Always} (a native sidecar)
 */
public record Container(String name, Map<String, Quantity> requests, Map<String, Quantity> limits, boolean sidecar,
                        List<HostPort> hostPorts) {
    public Container {
        requests = Map.copyOf(requests == null ? Map.of() : requests);
        limits = Map.copyOf(limits == null ? Map.of() : limits);
        hostPorts = List.copyOf(hostPorts == null ? List.of() : hostPorts);
    }

    /** Requests with limits filling in any resource that has a limit but no request, as the API server defaults them. */
    public Resources effectiveRequests() {
        if (limits.isEmpty()) {
            return Resources.fromQuantities(requests);
        }
        Map<String, Quantity> m = new java.util.HashMap<>(limits);
        m.putAll(requests);
        return Resources.fromQuantities(m);
    }

    /**
     * A pod's effective requests by kube-scheduler's rule: the larger of (a) the sum of app containers plus all
     * sidecars and (b) for each plain init container, its request plus the sidecars started before it; then the pod
     * overhead is added.
     */
    public static Resources podRequests(List<Container> initContainers, List<Container> containers, Resources overhead) {
        return podRequests(initContainers, containers, overhead, Map.of(), Map.of());
    }

    /** Whether pod-level {@code spec.resources} may set this resource: cpu, memory and huge pages (Kubernetes 1.34). */
    public static boolean podLevelResource(String name) {
        return name.equals(Resources.CPU) || name.equals(Resources.MEMORY) || name.startsWith("hugepages-");
    }

    /**
     * A pod's effective requests with pod-level resources (KEP-2837, {@code spec.resources}): for each supported
     * resource the pod sets a request for, that request replaces the containers' aggregate (init and sidecar containers
     * included); where the pod sets only a limit, the API server defaults the pod request to the containers' aggregate
     * if any container requests (or limits, which defaults its request) that resource, and to the pod limit otherwise.
     * Resources the pod level does not set keep the container rule. The pod overhead is added last.
     */
    public static Resources podRequests(List<Container> initContainers, List<Container> containers, Resources overhead,
                                        Map<String, Quantity> podLevelRequests, Map<String, Quantity> podLevelLimits) {
        Resources total = containerRequests(initContainers, containers);
        if (!podLevelRequests.isEmpty() || !podLevelLimits.isEmpty()) {
            java.util.Set<String> names = new java.util.TreeSet<>(podLevelRequests.keySet());
            names.addAll(podLevelLimits.keySet());
            for (String name : names) {
                if (!podLevelResource(name)) {
                    continue;
                }
                Quantity q = podLevelRequests.get(name);
                if (q == null && !anySets(initContainers, name) && !anySets(containers, name)) {
                    q = podLevelLimits.get(name);
                }
                if (q != null) {
                    total = total.with(name, Resources.fromQuantities(Map.of(name, q)).get(name));
                }
            }
        }
        return overhead == null ? total : total.plus(overhead);
    }

    private static boolean anySets(List<Container> cs, String name) {
        for (Container c : cs) {
            if (c.requests.containsKey(name) || c.limits.containsKey(name)) {
                return true;
            }
        }
        return false;
    }

    private static Resources containerRequests(List<Container> initContainers, List<Container> containers) {
        Resources apps = Resources.ZERO;
        for (Container c : containers) {
            apps = apps.plus(c.effectiveRequests());
        }
        Resources sidecars = Resources.ZERO;
        Resources initPeak = Resources.ZERO;
        for (Container c : initContainers) {
            Resources r = c.effectiveRequests();
            if (c.sidecar()) {
                sidecars = sidecars.plus(r);
                initPeak = initPeak.max(sidecars);
            } else {
                initPeak = initPeak.max(sidecars.plus(r));
            }
        }
        return apps.plus(sidecars).max(initPeak);
    }
}
