package dev.gantry.core.catalog;

import static dev.gantry.core.requirements.WellKnownLabels.*;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The node labels an instance type carries, spelled and formatted as Karpenter's {@code computeRequirements} writes
 * them: integers in decimal, booleans as {@code true}/{@code false}, names in lower kebab case, memory and GPU
 * memory in MiB (GPU memory per GPU), local NVMe in GB, bandwidths in Mbit/s, clock speed in MHz, and
 * {@code instance-hypervisor} the empty string on bare metal.
 *
 * <p>A label the data does not supply is absent, and is listed in {@link #undefined()} so the instance type can
 * require its absence: a pod that asks for {@code instance-gpu-name In [a100]} must not fit a type with no GPU.
 */
public record InstanceTypeLabels(Map<String, String> labels, Set<String> undefined) {

    /** The instance-describing labels Karpenter defines for every type, present or required absent. */
    public static final List<String> INSTANCE_LABELS = List.of(INSTANCE_CATEGORY, INSTANCE_FAMILY, INSTANCE_GENERATION,
            INSTANCE_SIZE, INSTANCE_CPU, INSTANCE_CPU_MANUFACTURER, INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ,
            INSTANCE_MEMORY, INSTANCE_NETWORK_BANDWIDTH, INSTANCE_EBS_BANDWIDTH, INSTANCE_GPU_NAME,
            INSTANCE_GPU_MANUFACTURER, INSTANCE_GPU_COUNT, INSTANCE_GPU_MEMORY, INSTANCE_ACCELERATOR_NAME,
            INSTANCE_ACCELERATOR_MANUFACTURER, INSTANCE_ACCELERATOR_COUNT, INSTANCE_LOCAL_NVME, INSTANCE_HYPERVISOR,
            INSTANCE_ENCRYPTION_IN_TRANSIT, INSTANCE_CAPABILITY_FLEX);

    public InstanceTypeLabels {
        labels = Map.copyOf(labels);
        undefined = Set.copyOf(undefined);
    }

    /** The labels of a schedulable type in {@code region} under an AMI family. */
    public static InstanceTypeLabels of(InstanceTypeSpec s, String region, AmiFamilyTraits traits) {
        Map<String, String> l = new TreeMap<>();
        l.put(INSTANCE_TYPE, s.name());
        l.put(ARCH, s.arch());
        l.put(OS, traits.os());
        l.put(REGION, region);
        put(l, INSTANCE_CATEGORY, s.category());
        put(l, INSTANCE_FAMILY, s.family());
        put(l, INSTANCE_GENERATION, s.generation());
        put(l, INSTANCE_SIZE, s.size());
        put(l, INSTANCE_CPU, s.vcpu());
        put(l, INSTANCE_CPU_MANUFACTURER, s.cpuManufacturer());
        put(l, INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ, s.cpuSustainedClockSpeedMhz());
        put(l, INSTANCE_MEMORY, s.memoryMiB());
        put(l, INSTANCE_NETWORK_BANDWIDTH, s.networkBandwidthMbps());
        put(l, INSTANCE_EBS_BANDWIDTH, s.ebsBandwidthMbps());
        // Karpenter labels GPUs only when the type has exactly one GPU model; the data holds that one model.
        if (s.gpuName() != null) {
            put(l, INSTANCE_GPU_NAME, s.gpuName());
            put(l, INSTANCE_GPU_MANUFACTURER, s.gpuManufacturer());
            put(l, INSTANCE_GPU_COUNT, s.gpuCount());
            put(l, INSTANCE_GPU_MEMORY, s.gpuMemoryMiB());
        }
        if (s.acceleratorName() != null) {
            put(l, INSTANCE_ACCELERATOR_NAME, s.acceleratorName());
            put(l, INSTANCE_ACCELERATOR_MANUFACTURER, s.acceleratorManufacturer());
            put(l, INSTANCE_ACCELERATOR_COUNT, s.acceleratorCount());
        }
        put(l, INSTANCE_LOCAL_NVME, s.localNvmeGB());
        // EC2 reports no hypervisor for bare metal, and Karpenter labels that as the empty string.
        l.put(INSTANCE_HYPERVISOR, s.hypervisor() == null ? "" : s.hypervisor());
        put(l, INSTANCE_ENCRYPTION_IN_TRANSIT, s.encryptionInTransitSupported() == null ? Boolean.FALSE
                : s.encryptionInTransitSupported());
        l.put(INSTANCE_CAPABILITY_FLEX, Boolean.toString(s.flex()));

        Set<String> undefined = new LinkedHashSet<>();
        for (String key : INSTANCE_LABELS) {
            if (!l.containsKey(key)) {
                undefined.add(key);
            }
        }
        // Windows nodes carry a build label Gantry cannot know offline; elsewhere it is absent.
        if (!traits.windows()) {
            undefined.add(WINDOWS_BUILD);
        }
        return new InstanceTypeLabels(l, undefined);
    }

    private static void put(Map<String, String> l, String key, Object value) {
        if (value != null) {
            l.put(key, value.toString());
        }
    }
}
