package dev.gantry.simulator.world.aws;

import dev.gantry.core.model.NodeClass;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The simulated VPC's subnets and what an EC2NodeClass's {@code subnetSelectorTerms} select of them, as
 * DescribeSubnets answers the adapter. Each zone has two private subnets:
 * <ul>
 *   <li>{@code subnet-<zone>}, the primary, tagged {@code network: primary} and {@code Name: primary-<zone>}. It stands
 *       for the user's own VPC: besides its own id and tags, it matches any subnet id and any other tag (any value),
 *       so the samples' real ids and discovery tags select it, as the simulator always has;</li>
 *   <li>{@code subnet-<zone>-secondary}, tagged {@code network: secondary}, {@code Name: secondary-<zone>} and
 *       {@code karpenter.sh/discovery} (any value): only its own id and those tags match it.</li>
 * </ul>
 * A term selects by {@code id}, or by {@code tags} (all of them; {@code "*"} matches any value); terms are ORed, as
 * Karpenter's. A NodeClass without terms (a NodePool whose EC2NodeClass the scenario leaves out) gets the primaries.
 * Launches go into the first selected subnet of their zone ({@link PreparedLaunch}); drift compares a running
 * instance's subnet with what is selected now ({@link SimulatedCloud#resolve}). A scenario moves nodes by applying
 * the EC2NodeClass with {@code subnetSelectorTerms: [{tags: {network: secondary}}]}.
 *
 * <p>Not modelled: free IP addresses (Karpenter prefers the subnet with the most; here the first in order) and
 * exhaustion, zones with no selected subnet being removed from the offerings the provisioner plans with (the
 * simulated provisioner may plan such a zone; its launch then names none of that zone's offerings), subnets created
 * or retagged at run time (only the NodeClass's terms change), and security groups (one, {@link SimulatedCloud#SECURITY_GROUP},
 * always selected).
 */
public final class SimulatedSubnets {
    /** A subnet: its id, zone and tags. */
    public record Subnet(String id, String zone, Map<String, String> tags) {
    }

    static final String DISCOVERY = "karpenter.sh/discovery";

    private SimulatedSubnets() {
    }

    /** The VPC's subnets in {@code zones}, in order: each zone's primary, then its secondary. */
    public static List<Subnet> of(Collection<String> zones) {
        List<Subnet> all = new ArrayList<>();
        for (String z : zones) {
            all.add(new Subnet("subnet-" + z, z, Map.of("Name", "primary-" + z, "network", "primary")));
            all.add(new Subnet("subnet-" + z + "-secondary", z, Map.of("Name", "secondary-" + z, "network", "secondary")));
        }
        return all;
    }

    /** The subnets of {@code zones} that {@code nodeClass}'s terms select. */
    public static List<Subnet> selected(NodeClass nodeClass, Collection<String> zones) {
        List<NodeClass.SelectorTerm> terms = nodeClass == null ? List.of() : nodeClass.subnetSelectorTerms();
        return of(zones).stream().filter(s -> terms.isEmpty() ? s.tags().get("network").equals("primary")
                : terms.stream().anyMatch(t -> matches(t, s))).toList();
    }

    /** The subnet a launch into {@code zone} uses: the first selected there, if any. */
    public static Optional<String> in(NodeClass nodeClass, String zone) {
        return selected(nodeClass, List.of(zone)).stream().map(Subnet::id).findFirst();
    }

    private static boolean matches(NodeClass.SelectorTerm t, Subnet s) {
        boolean primary = s.tags().get("network").equals("primary");
        if (t.id() != null && !t.id().isBlank()) {
            return t.id().equals(s.id()) || primary && !t.id().matches("subnet-.*-\\d[a-z](-secondary)?");
        }
        if (t.tags().isEmpty()) {
            return false;
        }
        return t.tags().entrySet().stream().allMatch(e -> {
            String v = s.tags().get(e.getKey());
            if (v != null) {
                return "*".equals(e.getValue()) || v.equals(e.getValue());
            }
            return primary || e.getKey().equals(DISCOVERY);
        });
    }
}
