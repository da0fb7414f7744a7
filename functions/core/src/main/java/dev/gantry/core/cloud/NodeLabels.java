package dev.gantry.core.cloud;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The labels a launched node registers with through its user data, for one launch template's share of a launch
 * ({@code types} launched into {@code zones}). Only values that hold whichever override EC2 picks go in: the claim's
 * labels, the pool, the capacity type (one per fleet), the zone when there is one, the instance type when there is
 * one, and the instance labels every type shares (arch, often the category). The rest (instance type, zone, size…)
 * are the registration's to add, from the launched instance. Of those, the user data carries only what the kubelet
 * accepts ({@link KubeletLabels#forUserData}); the registration sets the others on the Node.
 *
 * <p>The EC2 adapter writes these into the launch template, and the simulator's kubelet registers with them.
 */
public final class NodeLabels {
    private NodeLabels() {
    }

    /** The labels the kubelet is given: {@link #forGroup} less what it would refuse. */
    public static Map<String, String> forUserData(LaunchRequest request, String capacityType, List<InstanceType> types,
                                                  List<String> zones) {
        return KubeletLabels.forUserData(forGroup(request, capacityType, types, zones));
    }

    /** Every label known at launch for a node of this group, sorted by key. */
    public static Map<String, String> forGroup(LaunchRequest request, String capacityType, List<InstanceType> types,
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
        if (!types.isEmpty()) {
            for (Map.Entry<String, String> e : types.getFirst().labels().entrySet()) {
                String key = e.getKey();
                boolean shared = types.stream().allMatch(t -> Objects.equals(t.labels().get(key), e.getValue()));
                if (shared && (key.startsWith("karpenter.k8s.aws/instance-") || key.equals(WellKnownLabels.ARCH)
                        || key.equals(WellKnownLabels.OS))) {
                    labels.put(key, e.getValue());
                }
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
