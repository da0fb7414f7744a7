package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.InstanceTypeInfo;
import java.util.List;
import java.util.Objects;

/**
 * One instance type as EC2 DescribeInstanceTypes describes it, the fields Karpenter and Gantry read, in EC2's own
 * words ({@code x86_64}, {@code Intel}, GHz, Gbps). Null fields are omitted from the answer, as EC2 omits what a type
 * lacks (no {@code gpuInfo} on a type without GPUs).
 *
 * @param usageClasses {@code on-demand}, {@code spot}, {@code capacity-block}
 * @param gpuCount     0 for none
 */
public record Ec2InstanceTypeShape(String name, int vcpus, long memoryMiB, String architecture, String manufacturer,
                                   Double clockGhz, int maxEnis, int ipv4PerEni, String hypervisor, boolean bareMetal,
                                   boolean burstable, List<String> usageClasses, Double baselineBandwidthGbps,
                                   Integer ebsBaselineMbps, Long nvmeGB, int gpuCount, String gpuName,
                                   String gpuManufacturer, Integer gpuMemoryMiB) {
    public Ec2InstanceTypeShape {
        Objects.requireNonNull(name, "name");
        usageClasses = List.copyOf(usageClasses);
    }

    /**
     * The families EC2 lists {@code nested-virtualization} for, in {@code processorInfo.supportedFeatures}: "8th
     * generation Intel-based instance types (c8i, m8i, r8i, and their flex variants)" (EC2 API reference), bare metal
     * aside.
     */
    private static final java.util.Set<String> NESTED_VIRTUALIZATION = java.util.Set.of("c8i", "c8i-flex", "m8i",
            "m8i-flex", "r8i", "r8i-flex");

    /** The shape the stub gives a type added with only the basic facts of {@link InstanceTypeInfo}. */
    static Ec2InstanceTypeShape of(InstanceTypeInfo t) {
        return new Ec2InstanceTypeShape(t.name(), t.vcpus(), t.memoryMiB(), t.architecture(),
                "arm64".equals(t.architecture()) ? "AWS" : "Intel", 3.1, t.maxEnis(), t.ipv4PerEni(), t.hypervisor(),
                false, false, List.of("on-demand", "spot"), 0.75, 650, null, 0, null, null, null);
    }

    /** The basic facts, for {@link Ec2State#addInstanceType} (offerings and spot prices). */
    public InstanceTypeInfo info() {
        return new InstanceTypeInfo(name, vcpus, memoryMiB, architecture, maxEnis, ipv4PerEni, hypervisor);
    }

    /** EC2's filter values for this type (the DescribeInstanceTypes filters Gantry's callers could use). */
    List<String> attribute(String filterName) {
        return switch (filterName) {
            case "instance-type" -> List.of(name);
            case "processor-info.supported-architecture" -> List.of(architecture);
            case "current-generation" -> List.of("true");
            case "supported-usage-class" -> usageClasses;
            case "bare-metal" -> List.of(String.valueOf(bareMetal));
            case "hypervisor" -> hypervisor == null ? List.of() : List.of(hypervisor);
            case "burstable-performance-supported" -> List.of(String.valueOf(burstable));
            case "vcpu-info.default-vcpus" -> List.of(String.valueOf(vcpus));
            case "memory-info.size-in-mib" -> List.of(String.valueOf(memoryMiB));
            default -> List.of();
        };
    }

    /** The {@code item} of {@code instanceTypeSet}, in EC2's element names and order. */
    void write(Xml x) {
        x.open("item").leaf("instanceType", name).leaf("currentGeneration", true).leaf("freeTierEligible", false)
                .items("supportedUsageClasses", usageClasses).items("supportedRootDeviceTypes", List.of("ebs"))
                .items("supportedVirtualizationTypes", List.of("hvm")).leaf("bareMetal", bareMetal)
                .leaf("hypervisor", hypervisor)
                .open("processorInfo").items("supportedArchitectures", List.of(architecture))
                .leaf("sustainedClockSpeedInGhz", clockGhz).leaf("manufacturer", manufacturer);
        if (NESTED_VIRTUALIZATION.contains(name.substring(0, name.indexOf('.'))) && !bareMetal) {
            x.items("supportedFeatures", List.of("nested-virtualization"));
        }
        x.close("processorInfo")
                .open("vCpuInfo").leaf("defaultVCpus", vcpus).leaf("defaultCores", Math.max(1, vcpus / 2))
                .leaf("defaultThreadsPerCore", vcpus > 1 ? 2 : 1).close("vCpuInfo")
                .open("memoryInfo").leaf("sizeInMiB", memoryMiB).close("memoryInfo")
                .leaf("instanceStorageSupported", nvmeGB != null);
        if (nvmeGB != null) {
            x.open("instanceStorageInfo").leaf("totalSizeInGB", nvmeGB).leaf("nvmeSupport", "required")
                    .leaf("encryptionSupport", "required").close("instanceStorageInfo");
        }
        x.open("ebsInfo").leaf("ebsOptimizedSupport", "default").leaf("encryptionSupport", "supported");
        if (ebsBaselineMbps != null) {
            x.open("ebsOptimizedInfo").leaf("baselineBandwidthInMbps", ebsBaselineMbps)
                    .leaf("maximumBandwidthInMbps", ebsBaselineMbps * 4).close("ebsOptimizedInfo");
        }
        x.leaf("nvmeSupport", "required").close("ebsInfo")
                .open("networkInfo").leaf("networkPerformance", "Up to 12.5 Gigabit")
                .leaf("maximumNetworkInterfaces", maxEnis).leaf("maximumNetworkCards", 1)
                .leaf("defaultNetworkCardIndex", 0)
                .open("networkCards").open("item").leaf("networkCardIndex", 0)
                .leaf("networkPerformance", "Up to 12.5 Gigabit").leaf("maximumNetworkInterfaces", maxEnis)
                .leaf("baselineBandwidthInGbps", baselineBandwidthGbps).close("item").close("networkCards")
                .leaf("ipv4AddressesPerInterface", ipv4PerEni).leaf("ipv6AddressesPerInterface", ipv4PerEni)
                .leaf("ipv6Supported", true).leaf("enaSupport", "required").leaf("efaSupported", false)
                .leaf("encryptionInTransitSupported", true).close("networkInfo");
        if (gpuCount > 0) {
            x.open("gpuInfo").open("gpus").open("item").leaf("name", gpuName).leaf("manufacturer", gpuManufacturer)
                    .leaf("count", gpuCount).open("memoryInfo").leaf("sizeInMiB", gpuMemoryMiB).close("memoryInfo")
                    .close("item").close("gpus").leaf("totalGpuMemoryInMiB", gpuMemoryMiB == null ? null
                            : gpuMemoryMiB * gpuCount).close("gpuInfo");
        }
        x.leaf("hibernationSupported", false).leaf("burstablePerformanceSupported", burstable)
                .leaf("dedicatedHostsSupported", true).leaf("autoRecoverySupported", true)
                .items("supportedBootModes", List.of("legacy-bios", "uefi")).close("item");
    }
}
