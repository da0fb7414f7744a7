package dev.gantry.core.catalog;

import dev.gantry.core.model.NodeClass;

/**
 * Whether a type can launch with a NodeClass's primary-interface settings ({@link NodeClass.Networking}), so the
 * catalogue offers only types EC2 will start. Karpenter v1.14 draws the same lines (aws
 * {@code pkg/providers/instancetype/compatibility}): connection tracking needs the Nitro hypervisor (EC2 refuses others
 * with "The instance type t2.medium does not support configurable connection tracking"; bare metal reports no
 * hypervisor and is left out, as Karpenter leaves it), and assigned addresses must fit the interface: each IPv4 prefix
 * takes one of its address slots beside the primary address. Karpenter checks that second rule only for the interfaces
 * a user lists and leaves the launch to fail for {@code ipPrefixCount}; a type that cannot fit them is left out here.
 */
public final class NetworkingFit {
    private NetworkingFit() {
    }

    /** True when {@code type} can launch with {@code networking}; a type whose limits are unknown is given the benefit. */
    public static boolean fits(NodeClass.Networking networking, InstanceTypeSpec type) {
        if (networking.connectionTracking() != null && !"nitro".equals(type.hypervisor())) {
            return false;
        }
        Integer prefixes = networking.ipPrefixCount();
        return prefixes == null || prefixes == 0 || type.ipv4PerEni() == null || prefixes + 1 <= type.ipv4PerEni();
    }
}
