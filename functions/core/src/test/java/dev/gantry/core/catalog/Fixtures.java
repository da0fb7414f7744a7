package dev.gantry.core.catalog;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Quantity;
import java.util.List;
import java.util.Map;

/** Specs and NodeClasses for catalogue tests, with the real EC2 figures of the types they name. */
final class Fixtures {
    static final long MI = 1L << 20;
    static final long GI = 1L << 30;

    private Fixtures() {
    }

    static InstanceTypeSpec m5Large() {
        return InstanceTypeSpec.builder("m5.large").basics(2, 8192, "amd64", 29).eniCount(3).ipv4PerEni(10)
                .cpuManufacturer("intel").cpuSustainedClockSpeedMhz(3100).networkBandwidthMbps(750)
                .ebsBandwidthMbps(4750).hypervisor("nitro").encryptionInTransitSupported(false)
                .trunkingCompatible(true).branchEniCount(9).build();
    }

    static InstanceTypeSpec c7gXlarge() {
        return InstanceTypeSpec.builder("c7g.xlarge").basics(4, 8192, "arm64", 58).eniCount(4).ipv4PerEni(15)
                .cpuManufacturer("aws").hypervisor("nitro").build();
    }

    static InstanceTypeSpec p4d() {
        return InstanceTypeSpec.builder("p4d.24xlarge").basics(96, 1179648, "amd64", 737).eniCount(15).ipv4PerEni(50)
                .cpuManufacturer("intel").gpuCount(8).gpuName("a100").gpuManufacturer("nvidia").gpuMemoryMiB(40960L)
                .efaMaxInterfaces(4).localNvmeGB(8000L).hypervisor("nitro").encryptionInTransitSupported(true).build();
    }

    static InstanceTypeSpec inf2Xlarge() {
        return InstanceTypeSpec.builder("inf2.xlarge").basics(4, 16384, "amd64", 58).cpuManufacturer("amd")
                .acceleratorCount(1).acceleratorName("inferentia2").acceleratorManufacturer("aws").neuronCoreCount(2)
                .hypervisor("nitro").build();
    }

    static InstanceTypeSpec m5Metal() {
        return InstanceTypeSpec.builder("m5.metal").basics(96, 393216, "amd64", 737).bareMetal(true).build();
    }

    static InstanceTypeSpec noSpecs(String name) {
        return InstanceTypeSpec.builder(name).build();
    }

    static NodeClass nodeClass(String amiFamily) {
        return nodeClass(amiFamily, NodeClass.Kubelet.DEFAULT, List.of());
    }

    static NodeClass nodeClass(String amiFamily, NodeClass.Kubelet kubelet) {
        return nodeClass(amiFamily, kubelet, List.of());
    }

    static NodeClass nodeClass(String amiFamily, NodeClass.Kubelet kubelet, List<NodeClass.BlockDeviceMapping> devices) {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", amiFamily, List.of(), List.of(), List.of(),
                "KarpenterNodeRole", null, null, Map.of(), devices, null, kubelet, null, null, null);
    }

    static NodeClass.Kubelet kubelet(Integer maxPods, Integer podsPerCore) {
        return new NodeClass.Kubelet(maxPods, podsPerCore, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), List.of(),
                null, null, null);
    }

    static NodeClass.Kubelet reserved(Map<String, String> kubeReserved, Map<String, String> systemReserved,
                                      Map<String, String> evictionHard, Map<String, String> evictionSoft) {
        return new NodeClass.Kubelet(null, null, quantities(kubeReserved), quantities(systemReserved), evictionHard,
                evictionSoft, Map.of(), List.of(), null, null, null);
    }

    static NodeClass.BlockDeviceMapping volume(String device, boolean root, String size) {
        return new NodeClass.BlockDeviceMapping(device, root,
                new NodeClass.Ebs(size == null ? null : Quantity.parse(size), "gp3", null, null, true, null, true, null));
    }

    private static Map<String, Quantity> quantities(Map<String, String> m) {
        Map<String, Quantity> out = new java.util.TreeMap<>();
        m.forEach((k, v) -> out.put(k, Quantity.parse(v)));
        return out;
    }
}
