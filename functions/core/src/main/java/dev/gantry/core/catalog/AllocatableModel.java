package dev.gantry.core.catalog;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.util.Map;
import java.util.TreeMap;

/**
 * Karpenter's model of a node's capacity and overhead before the node exists: what an instance type will report to
 * Kubernetes under a NodeClass's AMI family, kubelet settings and block devices.
 *
 * <ul>
 *   <li><b>cpu</b>: vCPUs × 1000m.</li>
 *   <li><b>memory</b>: EC2 memory, less 64Mi on arm64 (Graviton's CMA reservation), less the VM overhead
 *       ({@code ceil(memory × vmMemoryOverheadPercent)} in whole MiB).</li>
 *   <li><b>pods</b>: {@code kubelet.maxPods} if set, else the ENI-limited count (110 on Windows), capped at
 *       {@code podsPerCore × vCPUs} when the family honours podsPerCore.</li>
 *   <li><b>ephemeral-storage</b>: under {@code instanceStorePolicy: RAID0}, the type's NVMe instance store (its
 *       total, in GB as EC2 gives it) when it has one; else the root volume's size from {@code blockDeviceMappings},
 *       else the mapping for the family's ephemeral device, else the family default (20Gi; Bottlerocket's second
 *       volume; Windows 50Gi).</li>
 *   <li><b>extended</b>: GPUs by manufacturer ({@code nvidia.com/gpu}, {@code amd.com/gpu}, {@code habana.ai/gaudi}),
 *       Neuron devices and cores, EFA interfaces and branch ENIs for security groups for pods.</li>
 * </ul>
 *
 * @param vmMemoryOverheadPercent Karpenter's {@code --vm-memory-overhead-percent} (0.075 by default)
 * @param reservedEnis            Karpenter's {@code --reserved-enis}: ENIs kept out of the ENI-limited pod count
 */
public record AllocatableModel(double vmMemoryOverheadPercent, int reservedEnis) {
    public static final AllocatableModel DEFAULT = new AllocatableModel(0.075, 0);
    public static final String HABANA_GAUDI = "habana.ai/gaudi";
    public static final String EFA = "vpc.amazonaws.com/efa";
    public static final String POD_ENI = "vpc.amazonaws.com/pod-eni";
    private static final long MI = 1L << 20;

    public AllocatableModel {
        if (vmMemoryOverheadPercent < 0 || vmMemoryOverheadPercent >= 1) {
            throw new IllegalArgumentException("vmMemoryOverheadPercent must be in [0, 1), got " + vmMemoryOverheadPercent);
        }
        if (reservedEnis < 0) {
            throw new IllegalArgumentException("reservedEnis must not be negative, got " + reservedEnis);
        }
    }

    /** The capacity a node of this schedulable type reports under the NodeClass. */
    public Resources capacity(InstanceTypeSpec spec, NodeClass nodeClass) {
        AmiFamilyTraits traits = AmiFamilyTraits.of(nodeClass.effectiveAmiFamily());
        Map<String, Long> ext = new TreeMap<>();
        if (spec.gpuCount() != null && spec.gpuManufacturer() != null) {
            String gpu = switch (spec.gpuManufacturer()) {
                case "nvidia" -> Resources.NVIDIA_GPU;
                case "amd" -> Resources.AMD_GPU;
                case "habana" -> HABANA_GAUDI;
                default -> null;
            };
            if (gpu != null) {
                ext.put(gpu, (long) spec.gpuCount());
            }
        }
        // Neuron types are the accelerators that report Neuron cores; other accelerators (Qualcomm) get a label only.
        if (spec.neuronCoreCount() != null && spec.acceleratorCount() != null) {
            ext.put(Resources.NEURON, (long) spec.acceleratorCount());
            ext.put(Resources.NEURON_CORE, (long) spec.neuronCoreCount());
        }
        if (spec.efaMaxInterfaces() != null) {
            ext.put(EFA, (long) spec.efaMaxInterfaces());
        }
        if (spec.trunkingCompatible() && spec.branchEniCount() != null) {
            ext.put(POD_ENI, (long) spec.branchEniCount());
        }
        return new Resources(spec.vcpu() * 1000L, memoryBytes(spec), ephemeralStorageBytes(spec, nodeClass, traits),
                pods(spec, nodeClass.kubelet(), traits), ext);
    }

    /** The overhead of this type under the NodeClass; see {@link Overhead} for the rules. */
    public Overhead overhead(InstanceTypeSpec spec, NodeClass nodeClass) {
        AmiFamilyTraits traits = AmiFamilyTraits.of(nodeClass.effectiveAmiFamily());
        NodeClass.Kubelet kubelet = nodeClass.kubelet();
        long podsForMemory = traits.eniLimitedMemoryOverhead() ? eniLimitedPods(spec, 0) : pods(spec, kubelet, traits);
        return new Overhead(
                Overhead.kubeReserved(spec.vcpu() * 1000L, podsForMemory, kubelet.kubeReserved()),
                Overhead.systemReserved(kubelet.systemReserved()),
                Overhead.evictionThreshold(memoryBytes(spec), ephemeralStorageBytes(spec, nodeClass, traits),
                        kubelet.evictionHard()));
    }

    /** Memory capacity in bytes, after Graviton's CMA reservation and the VM overhead. */
    public long memoryBytes(InstanceTypeSpec spec) {
        long mib = spec.memoryMiB() - ("arm64".equals(spec.arch()) ? 64 : 0);
        long bytes = mib * MI;
        // Same operation order as Karpenter's float64 expression, so rounding agrees to the MiB.
        long overheadMiB = (long) Math.ceil((double) bytes * vmMemoryOverheadPercent / 1024 / 1024);
        return bytes - overheadMiB * MI;
    }

    /** The pod capacity: kubelet maxPods, else the family's default density, capped by podsPerCore. */
    public long pods(InstanceTypeSpec spec, NodeClass.Kubelet kubelet, AmiFamilyTraits traits) {
        long count;
        if (kubelet.maxPods() != null) {
            count = kubelet.maxPods();
        } else if (traits.eniLimitedPodDensity()) {
            count = eniLimitedPods(spec, reservedEnis);
        } else {
            count = AmiFamilyTraits.DEFAULT_MAX_PODS;
        }
        Integer perCore = kubelet.podsPerCore();
        if (perCore != null && perCore > 0 && traits.podsPerCoreEnabled()) {
            count = Math.min(count, (long) perCore * spec.vcpu());
        }
        return count;
    }

    /** The VPC CNI's {@code ENIs × (IPv4 per ENI − 1) + 2}, with {@code reserved} ENIs left out. */
    long eniLimitedPods(InstanceTypeSpec spec, int reserved) {
        if (reserved == 0 || spec.eniCount() == null || spec.ipv4PerEni() == null) {
            return spec.maxPods();
        }
        long usable = Math.max(spec.eniCount() - reserved, 0);
        return usable == 0 ? 0 : usable * (spec.ipv4PerEni() - 1) + 2;
    }

    /**
     * Ephemeral storage in bytes: which volume backs it follows Karpenter's order of precedence (aws
     * {@code pkg/providers/instancetype/types.go} {@code ephemeralStorage}), the RAID0 array of the instance store
     * first. The catalogue knows NVMe instance stores only; an older type whose store is SATA SSD or HDD (d2, i2, c3…)
     * falls back to the root volume here, where Karpenter would count its store.
     */
    static long ephemeralStorageBytes(InstanceTypeSpec spec, NodeClass nodeClass, AmiFamilyTraits traits) {
        if (NodeClass.RAID0.equals(nodeClass.instanceStorePolicy()) && spec.localNvmeGB() != null) {
            return spec.localNvmeGB() * 1_000_000_000L;
        }
        var mappings = nodeClass.blockDeviceMappings();
        for (NodeClass.BlockDeviceMapping m : mappings) {
            if (m.rootVolume() && size(m) != null) {
                return size(m).toUnits();
            }
        }
        if (!mappings.isEmpty()) {
            if (traits.custom()) {
                Quantity last = size(mappings.get(mappings.size() - 1));
                return (last != null ? last : AmiFamilyTraits.DEFAULT_VOLUME_SIZE).toUnits();
            }
            for (NodeClass.BlockDeviceMapping m : mappings) {
                if (traits.ephemeralDevice().equals(m.deviceName()) && size(m) != null) {
                    return size(m).toUnits();
                }
            }
        }
        return traits.defaultEphemeralSize().toUnits();
    }

    private static Quantity size(NodeClass.BlockDeviceMapping m) {
        return m.ebs() == null ? null : m.ebs().volumeSize();
    }
}
