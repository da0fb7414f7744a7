package dev.gantry.core.cloud;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one launch call sends besides its ClientToken and count, as the provider resolved it for the first call: the
 * capacity type, each launch template with its image and the (instance type, zone, subnet) overrides it may launch
 * into, in order of preference, and the tags. Recorded with the claims of the launch before the call
 * ({@code NodeClaim#launchParameters}), so that every replay of the token sends exactly this: EC2 answers a
 * ClientToken reused with any other subnet, override, template or tag with {@code IdempotentParameterMismatch}, and
 * what a provider would resolve again later (the subnet with the most free addresses, the offerings not recently out
 * of capacity, the newest AMI) changes between the call and its replay.
 *
 * @param capacityType the one capacity type the launch asks for ({@code spot} or {@code on-demand})
 * @param templates    the launch templates, each with its overrides; at least one
 * @param tags         the tags of the instances it launches
 */
public record LaunchParameters(String capacityType, List<Template> templates, Map<String, String> tags) {
    /**
     * One launch template's share of the launch.
     *
     * @param name      the launch template's name (its content, the user data included, is fixed by it)
     * @param imageId   the AMI it launches
     * @param maxPods   the kubelet's max pods it was written with
     * @param overrides where it may launch, in order of preference
     */
    public record Template(String name, String imageId, int maxPods, List<Override> overrides) {
        public Template {
            Objects.requireNonNull(name, "name");
            overrides = List.copyOf(overrides);
        }

        /** The instance types of its overrides, in order, each once. */
        public List<String> instanceTypes() {
            return overrides.stream().map(Override::instanceType).distinct().toList();
        }

        /** The zones of its overrides, in order, each once. */
        public List<String> zones() {
            return overrides.stream().map(Override::zone).distinct().toList();
        }
    }

    /** One place a template may launch: an instance type in a zone's subnet. */
    public record Override(String instanceType, String zone, String subnetId) {
        public Override {
            Objects.requireNonNull(instanceType, "instanceType");
            Objects.requireNonNull(zone, "zone");
        }
    }

    public LaunchParameters {
        Objects.requireNonNull(capacityType, "capacityType");
        templates = List.copyOf(templates);
        tags = Map.copyOf(tags == null ? Map.of() : tags);
        if (templates.isEmpty()) {
            throw new IllegalArgumentException("a launch sends at least one launch template");
        }
    }

    /** The tags in key order (for readers that print or encode them). */
    public Map<String, String> sortedTags() {
        return new TreeMap<>(tags);
    }
}
