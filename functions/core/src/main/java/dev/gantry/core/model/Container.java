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
        Resources total = apps.plus(sidecars).max(initPeak);
        return overhead == null ? total : total.plus(overhead);
    }
}
