package dev.gantry.aws.ec2;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The labels a node registers with through its user data. Only values that hold whichever override EC2 picks go in:
 * the claim's labels, the pool, the capacity type (one per fleet), the zone when the fleet has one, and the
 * instance labels every type of the launch template shares (arch, often the category). The rest (instance type,
 * zone, size…) are the registration sweep's to add, from the launched instance.
 */
final class NodeLabels {
    private NodeLabels() {}

    static Map<String, String> forGroup(LaunchRequest request, String capacityType, List<InstanceType> types,
                                        List<String> zones) {
        Map<String, String> labels = new TreeMap<>();
        request.labels().forEach((k, v) -> {
            if (!isPerInstance(k)) {
                labels.put(k, v);
            }
        });
        labels.put(WellKnownLabels.NODEPOOL, request.nodePool().name());
        labels.put(WellKnownLabels.CAPACITY_TYPE, capacityType);
        if (zones.size() == 1) {
            labels.put(WellKnownLabels.ZONE, zones.getFirst());
        }
        if (types.size() == 1) {
            labels.put(WellKnownLabels.INSTANCE_TYPE, types.getFirst().name());
        }
        for (Map.Entry<String, String> e : types.getFirst().labels().entrySet()) {
            String key = e.getKey();
            boolean shared = types.stream().allMatch(t -> Objects.equals(t.labels().get(key), e.getValue()));
            if (shared && (key.startsWith("karpenter.k8s.aws/instance-") || key.equals(WellKnownLabels.ARCH)
                    || key.equals(WellKnownLabels.OS))) {
                labels.put(key, e.getValue());
            }
        }
        return labels;
    }

    /** Keys whose value depends on the override EC2 picks; set from the request only if proven shared, above. */
    private static boolean isPerInstance(String key) {
        return key.equals(WellKnownLabels.INSTANCE_TYPE) || key.equals(WellKnownLabels.ZONE)
                || key.equals(WellKnownLabels.ZONE_ID) || key.startsWith("karpenter.k8s.aws/instance-");
    }
}
