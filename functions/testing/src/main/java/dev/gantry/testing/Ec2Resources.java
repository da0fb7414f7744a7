package dev.gantry.testing;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The EC2 resources the {@link Ec2State} model holds. Each answers EC2 filter names ({@code tag:Key}, {@code tag-key}
 * and the resource's own, such as {@code availability-zone}) with the values it has for them, so one matcher serves
 * every Describe call.
 */
public final class Ec2Resources {
    private Ec2Resources() {}

    /** A resource that EC2 filters can select. */
    public interface Filterable {
        Map<String, String> tags();

        /** The values of a non-tag filter name; empty when the resource has no such attribute. */
        List<String> attribute(String filterName);

        default List<String> filterValues(String filterName) {
            if (filterName.startsWith("tag:")) {
                String value = tags().get(filterName.substring(4));
                return value == null ? List.of() : List.of(value);
            }
            if (filterName.equals("tag-key")) {
                return List.copyOf(tags().keySet());
            }
            return attribute(filterName);
        }
    }

    public record Subnet(String id, String zone, String zoneId, String vpcId, String cidr, int availableIps,
                         Map<String, String> tags) implements Filterable {
        public Subnet { tags = new TreeMap<>(tags); }

        @Override public List<String> attribute(String name) {
            return switch (name) {
                case "subnet-id" -> List.of(id);
                case "availability-zone" -> List.of(zone);
                case "vpc-id" -> List.of(vpcId);
                case "state" -> List.of("available");
                default -> List.of();
            };
        }
    }

    public record SecurityGroup(String id, String name, String vpcId, Map<String, String> tags) implements Filterable {
        public SecurityGroup { tags = new TreeMap<>(tags); }

        @Override public List<String> attribute(String filterName) {
            return switch (filterName) {
                case "group-id" -> List.of(id);
                case "group-name" -> List.of(name);
                case "vpc-id" -> List.of(vpcId);
                default -> List.of();
            };
        }
    }

    /**
     * An AMI; {@code architecture} is EC2's word ({@code x86_64}, {@code arm64}); {@code deprecationTime} null when it
     * has none (AWS sets one two years after creation on public images by default).
     */
    public record Image(String id, String name, String architecture, Instant creationDate, String ownerId,
                        Map<String, String> tags, Instant deprecationTime) implements Filterable {
        public Image { tags = new TreeMap<>(tags); }

        /** An image without a deprecation time. */
        public Image(String id, String name, String architecture, Instant creationDate, String ownerId,
                     Map<String, String> tags) {
            this(id, name, architecture, creationDate, ownerId, tags, null);
        }

        /** Deprecated at {@code now}: its deprecation time has come. */
        public boolean deprecated(Instant now) {
            return deprecationTime != null && !deprecationTime.isAfter(now);
        }

        @Override public List<String> attribute(String filterName) {
            return switch (filterName) {
                case "image-id" -> List.of(id);
                case "name" -> List.of(name);
                case "architecture" -> List.of(architecture);
                case "owner-id" -> List.of(ownerId);
                case "state" -> List.of("available");
                default -> List.of();
            };
        }
    }

    /** The subset of DescribeInstanceTypes that the catalogue reads. */
    public record InstanceTypeInfo(String name, int vcpus, long memoryMiB, String architecture, int maxEnis,
                                   int ipv4PerEni, String hypervisor) implements Filterable {
        @Override public Map<String, String> tags() { return Map.of(); }

        @Override public List<String> attribute(String filterName) {
            return switch (filterName) {
                case "instance-type" -> List.of(name);
                case "processor-info.supported-architecture" -> List.of(architecture);
                case "current-generation" -> List.of("true");
                default -> List.of();
            };
        }
    }

    /**
     * A launched instance; {@code lifecycle} is {@code spot} or {@code on-demand}, {@code state} an EC2 state name.
     */
    public record Instance(String id, String type, String zone, String subnetId, String imageId, String lifecycle,
                           String state, Instant launchTime, String privateIp, Map<String, String> tags)
            implements Filterable {
        public Instance { tags = new TreeMap<>(tags); }

        public Instance withState(String newState) {
            return new Instance(id, type, zone, subnetId, imageId, lifecycle, newState, launchTime, privateIp, tags);
        }

        @Override public List<String> attribute(String filterName) {
            return switch (filterName) {
                case "instance-id" -> List.of(id);
                case "instance-state-name" -> List.of(state);
                case "instance-type" -> List.of(type);
                case "availability-zone" -> List.of(zone);
                case "subnet-id" -> List.of(subnetId);
                case "instance-lifecycle" -> lifecycle.equals("spot") ? List.of("spot") : List.of();
                default -> List.of();
            };
        }
    }

    /**
     * A launch template: {@code tags} are its own, {@code instanceProfile}, {@code securityGroupIds} and
     * {@code tagSpecifications} (tags by resource type: instance, volume, network-interface) and {@code volumeSizes}
     * (GiB by device name, for the block device mappings that give one) and {@code primaryInterface} (the fields of
     * its {@code NetworkInterface.1}, such as {@code Ipv4PrefixCount}) are from its data.
     */
    public record LaunchTemplate(String id, String name, long version, String imageId, Instant createTime,
                                 Map<String, String> tags, String instanceProfile, List<String> securityGroupIds,
                                 Map<String, Map<String, String>> tagSpecifications, Map<String, Integer> volumeSizes,
                                 Map<String, String> primaryInterface)
            implements Filterable {
        public LaunchTemplate {
            tags = new TreeMap<>(tags);
            securityGroupIds = List.copyOf(securityGroupIds);
            tagSpecifications = Map.copyOf(tagSpecifications);
            volumeSizes = Map.copyOf(volumeSizes);
            primaryInterface = Map.copyOf(primaryInterface);
        }

        public LaunchTemplate(String id, String name, long version, String imageId, Instant createTime,
                              Map<String, String> tags) {
            this(id, name, version, imageId, createTime, tags, null, List.of(), Map.of(), Map.of(), Map.of());
        }

        @Override public List<String> attribute(String filterName) {
            return switch (filterName) {
                case "launch-template-name" -> List.of(name);
                case "launch-template-id" -> List.of(id);
                default -> List.of();
            };
        }
    }
}
