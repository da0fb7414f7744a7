package dev.gantry.core.catalog;

import dev.gantry.core.model.Quantity;
import java.util.Locale;

/**
 * What an AMI family changes about an instance type's capacity and overhead, as Karpenter's {@code amifamily}
 * package defines it.
 *
 * @param ephemeralDevice            the block device whose size is the node's ephemeral storage; null for Custom,
 *                                   where Gantry cannot know it
 * @param defaultEphemeralSize       that device's size when the NodeClass does not map it
 * @param eniLimitedPodDensity       pods default to the ENI-limited count (otherwise 110, as on Windows)
 * @param eniLimitedMemoryOverhead   kube-reserved memory is sized from the ENI-limited pod count even when the kubelet
 *                                   sets maxPods (AL2, AL2023, Custom), rather than from the effective pod count
 * @param podsPerCoreEnabled         whether {@code kubelet.podsPerCore} is honoured (Bottlerocket ignores it)
 * @param os                         the {@code kubernetes.io/os} value
 */
public record AmiFamilyTraits(String family, String ephemeralDevice, Quantity defaultEphemeralSize,
                              boolean eniLimitedPodDensity, boolean eniLimitedMemoryOverhead,
                              boolean podsPerCoreEnabled, String os) {

    /** Karpenter's {@code DefaultEBS} volume size. */
    public static final Quantity DEFAULT_VOLUME_SIZE = Quantity.parse("20Gi");
    /** Pods per node where the AMI does not use ENI-limited density. */
    public static final int DEFAULT_MAX_PODS = 110;

    /** The traits of a family as {@link dev.gantry.core.model.NodeClass#effectiveAmiFamily()} names it. */
    public static AmiFamilyTraits of(String family) {
        String f = family == null ? "al2023" : family.toLowerCase(Locale.ROOT);
        if (f.startsWith("windows")) {
            return new AmiFamilyTraits(family, "/dev/sda1", Quantity.parse("50Gi"), false, false, true, "windows");
        }
        return switch (f) {
            // Bottlerocket keeps the OS on a 4Gi /dev/xvda and gives pods the second volume.
            case "bottlerocket" -> new AmiFamilyTraits(family, "/dev/xvdb", DEFAULT_VOLUME_SIZE, true, false, false, "linux");
            case "custom" -> new AmiFamilyTraits(family, null, DEFAULT_VOLUME_SIZE, true, true, true, "linux");
            // AL2023, AL2 and anything unrecognised take Karpenter's DefaultFamily behaviour.
            default -> new AmiFamilyTraits(family, "/dev/xvda", DEFAULT_VOLUME_SIZE, true, true, true, "linux");
        };
    }

    public boolean windows() {
        return os.equals("windows");
    }

    /**
     * Whether an image of this family boots on the type, as Karpenter v1.14 decides it (aws
     * {@code pkg/providers/instancetype/compatibility}, whose offerings are unavailable otherwise): Windows has no arm64
     * image, and AL2023 does not support the A1 family (AWS's AL2023 system requirements); an A1 instance launched
     * with it never joins, so the launch would be wasted until the registration timeout.
     */
    public boolean runs(InstanceTypeSpec type) {
        if (windows()) {
            return "amd64".equals(type.arch());
        }
        boolean al2023 = family == null || family.equalsIgnoreCase("al2023"); // of(null) is AL2023's traits
        return !(al2023 && "a1".equals(type.family()));
    }

    public boolean custom() {
        return ephemeralDevice == null;
    }
}
