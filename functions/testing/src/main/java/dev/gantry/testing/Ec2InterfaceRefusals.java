package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.InstanceTypeInfo;
import java.util.Map;
import java.util.Optional;

/**
 * What EC2 refuses at launch about a template's primary network interface, per instance type, as an override's
 * {@code InvalidParameterValue}:
 * <ul>
 *   <li>connection tracking on an instance that is not on the Nitro hypervisor, in EC2's words ("The instance type
 *       t2.medium does not support configurable connection tracking", quoted in aws/karpenter-provider-aws#9152);</li>
 *   <li>more IPv4 prefixes than the interface has address slots beside its primary address (EC2 counts a /28 prefix
 *       as one slot of the type's IPv4 addresses per interface). The message is the stub's own words: the real text
 *       was not found.</li>
 * </ul>
 * A type the stub knows only by name is refused nothing. Not modelled: EC2 also refuses
 * {@code CpuOptions.NestedVirtualization=enabled} on a type whose processor lacks it (its words were not found); the
 * catalogue never offers one ({@code LaunchOptionsFit}).
 */
final class Ec2InterfaceRefusals {
    private Ec2InterfaceRefusals() {
    }

    /**
     * @param type      the override's type, or null when the stub does not know it
     * @param primary   the template's {@code NetworkInterface.1.*} fields, keys without that prefix
     */
    static Optional<String> refusal(InstanceTypeInfo type, Map<String, String> primary) {
        if (type == null || primary.isEmpty()) {
            return Optional.empty();
        }
        boolean tracking = primary.keySet().stream().anyMatch(k -> k.startsWith("ConnectionTrackingSpecification."));
        if (tracking && !"nitro".equals(type.hypervisor())) {
            return Optional.of("The instance type " + type.name() + " does not support configurable connection tracking");
        }
        String prefixes = primary.get("Ipv4PrefixCount");
        if (prefixes != null && Integer.parseInt(prefixes) + 1 > type.ipv4PerEni()) {
            return Optional.of("The number of IPv4 prefixes (" + prefixes + ") exceeds the " + (type.ipv4PerEni() - 1)
                    + " the instance type " + type.name() + " can assign to a network interface (stub's words)");
        }
        return Optional.empty();
    }
}
