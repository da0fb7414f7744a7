package dev.gantry.core.requirements;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Label keys with meaning to Gantry, spelled as Karpenter spells them, and the aliases that mean the same thing.
 *
 * <p>EKS Auto Mode writes {@code eks.amazonaws.com/instance-*} where Karpenter writes {@code karpenter.k8s.aws/instance-*};
 * Kubernetes' deprecated beta labels map to their GA names. {@link #normalize(String)} is applied to every key that
 * enters the system, in NodePools and pod specs alike, so the rest of Gantry only ever sees one spelling.
 */
public final class WellKnownLabels {
    public static final String NODEPOOL = "karpenter.sh/nodepool";
    public static final String CAPACITY_TYPE = "karpenter.sh/capacity-type";
    public static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
    public static final String ZONE = "topology.kubernetes.io/zone";
    public static final String REGION = "topology.kubernetes.io/region";
    public static final String ZONE_ID = "topology.k8s.aws/zone-id";
    public static final String ARCH = "kubernetes.io/arch";
    public static final String OS = "kubernetes.io/os";
    public static final String HOSTNAME = "kubernetes.io/hostname";
    public static final String WINDOWS_BUILD = "node.kubernetes.io/windows-build";

    private static final String K = "karpenter.k8s.aws/";
    public static final String INSTANCE_CATEGORY = K + "instance-category";
    public static final String INSTANCE_FAMILY = K + "instance-family";
    public static final String INSTANCE_GENERATION = K + "instance-generation";
    public static final String INSTANCE_SIZE = K + "instance-size";
    public static final String INSTANCE_CPU = K + "instance-cpu";
    public static final String INSTANCE_CPU_MANUFACTURER = K + "instance-cpu-manufacturer";
    public static final String INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ = K + "instance-cpu-sustained-clock-speed-mhz";
    public static final String INSTANCE_MEMORY = K + "instance-memory";
    public static final String INSTANCE_NETWORK_BANDWIDTH = K + "instance-network-bandwidth";
    public static final String INSTANCE_EBS_BANDWIDTH = K + "instance-ebs-bandwidth";
    public static final String INSTANCE_GPU_NAME = K + "instance-gpu-name";
    public static final String INSTANCE_GPU_MANUFACTURER = K + "instance-gpu-manufacturer";
    public static final String INSTANCE_GPU_COUNT = K + "instance-gpu-count";
    public static final String INSTANCE_GPU_MEMORY = K + "instance-gpu-memory";
    public static final String INSTANCE_ACCELERATOR_NAME = K + "instance-accelerator-name";
    public static final String INSTANCE_ACCELERATOR_MANUFACTURER = K + "instance-accelerator-manufacturer";
    public static final String INSTANCE_ACCELERATOR_COUNT = K + "instance-accelerator-count";
    public static final String INSTANCE_LOCAL_NVME = K + "instance-local-nvme";
    public static final String INSTANCE_HYPERVISOR = K + "instance-hypervisor";
    public static final String INSTANCE_ENCRYPTION_IN_TRANSIT = K + "instance-encryption-in-transit-supported";
    public static final String INSTANCE_CAPABILITY_FLEX = K + "instance-capability-flex";
    /**
     * The placement group a node launched into (its EC2NodeClass's {@code placementGroupSelector}), as Karpenter labels
     * it; on the node, not an instance-type label.
     */
    public static final String PLACEMENT_GROUP_ID = K + "placement-group-id";

    public static final String CAPACITY_ON_DEMAND = "on-demand";
    public static final String CAPACITY_SPOT = "spot";
    public static final String CAPACITY_RESERVED = "reserved";

    /** Labels every instance type or offering defines; pods may require them even though a NodePool leaves them open. */
    public static final Set<String> WELL_KNOWN = Set.of(NODEPOOL, CAPACITY_TYPE, INSTANCE_TYPE, ZONE, REGION, ZONE_ID, ARCH, OS,
            HOSTNAME, WINDOWS_BUILD, INSTANCE_CATEGORY, INSTANCE_FAMILY, INSTANCE_GENERATION, INSTANCE_SIZE, INSTANCE_CPU,
            INSTANCE_CPU_MANUFACTURER, INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ, INSTANCE_MEMORY, INSTANCE_NETWORK_BANDWIDTH,
            INSTANCE_EBS_BANDWIDTH, INSTANCE_GPU_NAME, INSTANCE_GPU_MANUFACTURER, INSTANCE_GPU_COUNT, INSTANCE_GPU_MEMORY,
            INSTANCE_ACCELERATOR_NAME, INSTANCE_ACCELERATOR_MANUFACTURER, INSTANCE_ACCELERATOR_COUNT, INSTANCE_LOCAL_NVME,
            INSTANCE_HYPERVISOR, INSTANCE_ENCRYPTION_IN_TRANSIT, INSTANCE_CAPABILITY_FLEX);

    /** Labels that come from the offering (zone, capacity type) rather than from the instance type. */
    public static final List<String> OFFERING_LABELS = List.of(ZONE, CAPACITY_TYPE, ZONE_ID);

    /** Kubernetes' deprecated spellings and EKS Auto Mode's, by the key they stand for. */
    private static final Map<String, String> ALIASES = Map.of(
            "beta.kubernetes.io/instance-type", INSTANCE_TYPE,
            "failure-domain.beta.kubernetes.io/zone", ZONE,
            "failure-domain.beta.kubernetes.io/region", REGION,
            "beta.kubernetes.io/arch", ARCH,
            "beta.kubernetes.io/os", OS);
    private static final String AUTO_MODE_PREFIX = "eks.amazonaws.com/instance-";

    private WellKnownLabels() {
    }

    /** The one spelling Gantry uses for {@code key}. */
    public static String normalize(String key) {
        String alias = ALIASES.get(key);
        if (alias != null) {
            return alias;
        }
        if (key.startsWith(AUTO_MODE_PREFIX)) {
            return K + key.substring("eks.amazonaws.com/".length());
        }
        return key;
    }

    /** Whether {@code key} was written in an alias spelling (for a warning line). */
    public static boolean isAlias(String key) {
        return !normalize(key).equals(key);
    }
}
