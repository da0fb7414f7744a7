package dev.gantry.core.catalog;

import dev.gantry.core.model.NodeClass;

/**
 * Whether a type can launch with a NodeClass's launch options (its primary-interface settings and CPU options), so the
 * catalogue offers only types EC2 will start. Karpenter v1.14 draws the same lines (aws
 * {@code pkg/providers/instancetype/compatibility}):
 * <ul>
 *   <li>connection tracking needs the Nitro hypervisor (EC2 refuses others with "The instance type t2.medium does not
 *       support configurable connection tracking"; bare metal reports no hypervisor and is left out, as Karpenter
 *       leaves it);</li>
 *   <li>{@code cpuOptions.nestedVirtualization: enabled} needs a processor that lists {@code nested-virtualization}
 *       ({@link InstanceTypeSpec#nestedVirtualization});</li>
 *   <li>assigned addresses must fit the interface: each IPv4 prefix takes one of its address slots beside the primary
 *       address. Karpenter checks this only for the interfaces a user lists and leaves the launch to fail for
 *       {@code ipPrefixCount}; a type that cannot fit them is left out here. On an IPv6 cluster the prefixes are IPv6
 *       ones, counted against the IPv4 limit (EC2's IPv6 limit per interface is the same on current types).</li>
 * </ul>
 */
public final class LaunchOptionsFit {
    private LaunchOptionsFit() {
    }

    /** True when {@code type} can launch with the class's options; a type whose limits are unknown is given the benefit. */
    public static boolean fits(NodeClass nodeClass, InstanceTypeSpec type) {
        NodeClass.Networking networking = nodeClass.networking();
        if (networking.connectionTracking() != null && !"nitro".equals(type.hypervisor())) {
            return false;
        }
        if (nodeClass.cpuOptions().nested() && !type.nestedVirtualization()) {
            return false;
        }
        Integer prefixes = networking.ipPrefixCount();
        return prefixes == null || prefixes == 0 || type.ipv4PerEni() == null || prefixes + 1 <= type.ipv4PerEni();
    }
}
