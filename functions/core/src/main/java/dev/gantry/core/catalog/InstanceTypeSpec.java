package dev.gantry.core.catalog;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The raw facts about one EC2 instance type, as EC2 DescribeInstanceTypes and the VPC CNI limits state them, before
 * any NodeClass is applied. Boxed fields are null when the source does not know the value; nothing is estimated.
 *
 * @param memoryMiB            EC2 {@code MemoryInfo.SizeInMiB}, before any overhead
 * @param cpuSustainedClockSpeedMhz rounded to whole MHz, as Karpenter labels it
 * @param gpuMemoryMiB         memory of <em>one</em> GPU
 * @param neuronCoreCount      total Neuron cores (devices × cores per device)
 * @param maxPods              ENI-limited pod count, {@code eniCount × (ipv4PerEni − 1) + 2}
 * @param eniCount             ENIs on the default network card
 * @param branchEniCount       {@code vpc.amazonaws.com/pod-eni} capacity when {@code trunkingCompatible}
 * @param networkBandwidthMbps baseline (not burst) bandwidth
 * @param localNvmeGB          total instance-store NVMe in GB (decimal, as EC2 reports it)
 * @param hypervisor           {@code nitro} or {@code xen}; null on bare metal
 * @param nestedVirtualization EC2 lists {@code nested-virtualization} among its processor's supported features (the
 *                             {@code cpuOptions.nestedVirtualization: enabled} an EC2NodeClass may ask for)
 */
public record InstanceTypeSpec(String name, String family, String category, Integer generation, String size,
                               Integer vcpu, Long memoryMiB, String arch, String cpuManufacturer,
                               Integer cpuSustainedClockSpeedMhz, Integer gpuCount, String gpuName,
                               String gpuManufacturer, Long gpuMemoryMiB, Integer acceleratorCount,
                               String acceleratorName, String acceleratorManufacturer, Integer neuronCoreCount,
                               Integer maxPods, Integer eniCount, Integer ipv4PerEni, Integer branchEniCount,
                               boolean trunkingCompatible, Integer efaMaxInterfaces, Integer networkBandwidthMbps,
                               Integer ebsBandwidthMbps, Long localNvmeGB, String hypervisor, boolean bareMetal,
                               boolean burstable, boolean flex, Boolean encryptionInTransitSupported,
                               boolean nestedVirtualization) {

    /** Karpenter's instance-type name scheme: category letters, an optional {@code -Ntb}, then the generation. */
    private static final Pattern SCHEME = Pattern.compile("(^[a-z]+)(-[0-9]+tb)?([0-9]+).*\\.");

    public InstanceTypeSpec {
        Objects.requireNonNull(name, "name");
        if (vcpu != null && vcpu <= 0) {
            throw new IllegalArgumentException(name + ": vcpu must be positive, got " + vcpu);
        }
        if (memoryMiB != null && memoryMiB <= 0) {
            throw new IllegalArgumentException(name + ": memoryMiB must be positive, got " + memoryMiB);
        }
        if (arch != null && !arch.equals("amd64") && !arch.equals("arm64")) {
            throw new IllegalArgumentException(name + ": arch must be amd64 or arm64, got " + arch);
        }
    }

    /**
     * Whether the type can be scheduled onto at all: without vCPU, memory and architecture there is no capacity to
     * bin-pack against, and without an ENI-limited pod count no pod capacity, so such types are left out of every
     * catalogue. (In the shipped data every type lacking maxPods also lacks vCPU/memory/arch.)
     */
    public boolean schedulable() {
        return vcpu != null && memoryMiB != null && arch != null && maxPods != null;
    }

    /** The name with the fields Karpenter derives from it (family, size, category, generation) filled in. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Fluent construction for tests and loaders; unset fields stay null (or false). */
    public static final class Builder {
        private final String name;
        private String family, category, size, arch, cpuManufacturer, gpuName, gpuManufacturer, acceleratorName,
                acceleratorManufacturer, hypervisor;
        private Integer generation, vcpu, cpuSustainedClockSpeedMhz, gpuCount, acceleratorCount, neuronCoreCount,
                maxPods, eniCount, ipv4PerEni, branchEniCount, efaMaxInterfaces, networkBandwidthMbps, ebsBandwidthMbps;
        private Long memoryMiB, gpuMemoryMiB, localNvmeGB;
        private boolean trunkingCompatible, bareMetal, burstable, flex, nestedVirtualization;
        private Boolean encryptionInTransitSupported;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
            String[] parts = name.split("\\.");
            if (parts.length == 2) {
                family = parts[0];
                size = parts[1];
                flex = parts[0].contains("-flex");
            }
            Matcher m = SCHEME.matcher(name);
            if (m.find()) {
                category = m.group(1);
                generation = Integer.parseInt(m.group(3));
            }
        }

        public Builder family(String v) { family = v; return this; }
        public Builder category(String v) { category = v; return this; }
        public Builder generation(Integer v) { generation = v; return this; }
        public Builder size(String v) { size = v; return this; }
        public Builder vcpu(Integer v) { vcpu = v; return this; }
        public Builder memoryMiB(Long v) { memoryMiB = v; return this; }
        public Builder arch(String v) { arch = v; return this; }
        public Builder cpuManufacturer(String v) { cpuManufacturer = v; return this; }
        public Builder cpuSustainedClockSpeedMhz(Integer v) { cpuSustainedClockSpeedMhz = v; return this; }
        public Builder gpuCount(Integer v) { gpuCount = v; return this; }
        public Builder gpuName(String v) { gpuName = v; return this; }
        public Builder gpuManufacturer(String v) { gpuManufacturer = v; return this; }
        public Builder gpuMemoryMiB(Long v) { gpuMemoryMiB = v; return this; }
        public Builder acceleratorCount(Integer v) { acceleratorCount = v; return this; }
        public Builder acceleratorName(String v) { acceleratorName = v; return this; }
        public Builder acceleratorManufacturer(String v) { acceleratorManufacturer = v; return this; }
        public Builder neuronCoreCount(Integer v) { neuronCoreCount = v; return this; }
        public Builder maxPods(Integer v) { maxPods = v; return this; }
        public Builder eniCount(Integer v) { eniCount = v; return this; }
        public Builder ipv4PerEni(Integer v) { ipv4PerEni = v; return this; }
        public Builder branchEniCount(Integer v) { branchEniCount = v; return this; }
        public Builder trunkingCompatible(boolean v) { trunkingCompatible = v; return this; }
        public Builder efaMaxInterfaces(Integer v) { efaMaxInterfaces = v; return this; }
        public Builder networkBandwidthMbps(Integer v) { networkBandwidthMbps = v; return this; }
        public Builder ebsBandwidthMbps(Integer v) { ebsBandwidthMbps = v; return this; }
        public Builder localNvmeGB(Long v) { localNvmeGB = v; return this; }
        public Builder hypervisor(String v) { hypervisor = v; return this; }
        public Builder bareMetal(boolean v) { bareMetal = v; return this; }
        public Builder burstable(boolean v) { burstable = v; return this; }
        public Builder flex(boolean v) { flex = v; return this; }
        public Builder nestedVirtualization(boolean v) { nestedVirtualization = v; return this; }
        public Builder encryptionInTransitSupported(Boolean v) { encryptionInTransitSupported = v; return this; }

        /** Shorthand for the three facts every schedulable type needs, plus an ENI-limited pod count. */
        public Builder basics(int vcpus, long memMiB, String architecture, int pods) {
            return vcpu(vcpus).memoryMiB(memMiB).arch(architecture).maxPods(pods);
        }

        public InstanceTypeSpec build() {
            return new InstanceTypeSpec(name, family, category, generation, size, vcpu, memoryMiB, arch, cpuManufacturer,
                    cpuSustainedClockSpeedMhz, gpuCount, gpuName, gpuManufacturer, gpuMemoryMiB, acceleratorCount,
                    acceleratorName, acceleratorManufacturer, neuronCoreCount, maxPods, eniCount, ipv4PerEni,
                    branchEniCount, trunkingCompatible, efaMaxInterfaces, networkBandwidthMbps, ebsBandwidthMbps,
                    localNvmeGB, hypervisor, bareMetal, burstable, flex, encryptionInTransitSupported, nestedVirtualization);
        }
    }
}
