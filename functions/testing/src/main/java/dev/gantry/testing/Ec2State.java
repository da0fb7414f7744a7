package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.Image;
import dev.gantry.testing.Ec2Resources.Instance;
import dev.gantry.testing.Ec2Resources.InstanceTypeInfo;
import dev.gantry.testing.Ec2Resources.LaunchTemplate;
import dev.gantry.testing.Ec2Resources.SecurityGroup;
import dev.gantry.testing.Ec2Resources.Subnet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The tiny in-memory EC2 behind {@link AwsStub}'s default EC2 answers: subnets, security groups, images, instance
 * types with their zones and spot prices, launch templates and instances. CreateFleet launches into it, so
 * DescribeInstances (after the {@link #describeLag describe lag}, if one is set) and TerminateInstances see what was
 * launched, and a repeated ClientToken returns the first fleet's answer as EC2 does. Tests seed it, inject capacity errors and change instance states through it.
 * All methods are synchronized: the stub's server thread and the test thread both use it.
 */
public final class Ec2State {
    /** The cluster tag the default subnets, security group and images carry, as a NodeClass selector would use. */
    public static final String DISCOVERY_TAG = "karpenter.sh/discovery";
    public static final String CLUSTER = "test-cluster";
    public static final String ACCOUNT = "123456789012";
    public static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");
    /** The instance profile the tests' launches name, and the role behind it (what a launch passes to EC2). */
    public static final String NODE_INSTANCE_PROFILE = "gantry-node-profile";
    public static final String NODE_ROLE = "gantry-node-role";

    private final Map<String, Subnet> subnets = new LinkedHashMap<>();
    private final Map<String, SecurityGroup> securityGroups = new LinkedHashMap<>();
    private final Map<String, Image> images = new LinkedHashMap<>();
    private final Map<String, InstanceTypeInfo> instanceTypes = new LinkedHashMap<>();
    private final Map<String, Set<String>> offerings = new TreeMap<>();
    private final Map<String, String> spotPrices = new TreeMap<>();
    private final Map<String, LaunchTemplate> launchTemplates = new LinkedHashMap<>();
    private final Map<String, Instance> instances = new LinkedHashMap<>();
    private final Map<String, String> launchFailures = new HashMap<>();
    private final Ec2ImageRefusals refusals = new Ec2ImageRefusals();
    private final Map<String, RememberedFleet> fleetsByToken = new HashMap<>();
    private final Map<String, Integer> capacityLeft = new HashMap<>();
    private final Map<String, String> instanceProfiles = new HashMap<>();
    private final Ec2Reservations reservations = new Ec2Reservations();
    private final Ec2DescribeInstanceTypes instanceTypeShapes = new Ec2DescribeInstanceTypes(this);
    private java.time.Duration describeLag = java.time.Duration.ZERO;
    private long nextId = 1;

    private Ec2State() {
        // IAM, not EC2: every model knows the tests' node instance profile.
        instanceProfiles.put(NODE_INSTANCE_PROFILE, NODE_ROLE);
    }

    /** The default AL2023 accelerated images ({@link JsonResponses#defaultSsmParameters} names them). */
    public static final String NVIDIA_AMD64 = "ami-0a1b2c3d4e5f60003";
    public static final String NEURON_AMD64 = "ami-0a1b2c3d4e5f60004";
    public static final String NVIDIA_ARM64 = "ami-0a1b2c3d4e5f60005";

    /** An empty EC2: nothing to launch into until the test adds it (the node instance profile is known). */
    public static Ec2State empty() {
        return new Ec2State();
    }

    /**
     * Three subnets (one per zone in {@link #ZONES}), one security group and two AL2023 standard images (x86_64, arm64),
     * all tagged {@value #DISCOVERY_TAG}={@value #CLUSTER}, and the three AL2023 accelerated images (untagged); m5.large, m5.xlarge, c5.large and m6g.large offered in every
     * zone, with spot prices.
     */
    public static Ec2State withDefaults() {
        Ec2State s = new Ec2State();
        Map<String, String> discovery = Map.of(DISCOVERY_TAG, CLUSTER);
        for (int i = 0; i < ZONES.size(); i++) {
            s.addSubnet(new Subnet("subnet-0000000000000000" + (char) ('a' + i), ZONES.get(i), "use1-az" + (i + 1),
                    "vpc-0123456789abcdef0", "10.0." + (i * 64) + ".0/18", 16000 - i * 1000, discovery));
        }
        s.addSecurityGroup(new SecurityGroup("sg-0123456789abcdef0", "eks-cluster-sg-" + CLUSTER,
                "vpc-0123456789abcdef0", discovery));
        s.addImage(new Image("ami-0a1b2c3d4e5f60001", "amazon-eks-node-al2023-x86_64-standard-1.33-v20250101",
                "x86_64", Instant.parse("2025-01-01T00:00:00Z"), "602401143452", discovery));
        s.addImage(new Image("ami-0a1b2c3d4e5f60002", "amazon-eks-node-al2023-arm64-standard-1.33-v20250101",
                "arm64", Instant.parse("2025-01-01T00:00:00Z"), "602401143452", discovery));
        // The accelerated variants AWS publishes beside them (NVIDIA for both architectures, Neuron for x86_64): public
        // images, so without the cluster's tag (a user's tag selector never finds Amazon's images); root snapshots of
        // 20 GiB, as the AL2023 images are built (awslabs/amazon-eks-ami#1581).
        s.addImage(new Image(NVIDIA_AMD64, "amazon-eks-node-al2023-x86_64-nvidia-1.33-v20250101",
                "x86_64", Instant.parse("2025-01-01T00:00:00Z"), "602401143452", Map.of()));
        s.addImage(new Image(NEURON_AMD64, "amazon-eks-node-al2023-x86_64-neuron-1.33-v20250101",
                "x86_64", Instant.parse("2025-01-01T00:00:00Z"), "602401143452", Map.of()));
        s.addImage(new Image(NVIDIA_ARM64, "amazon-eks-node-al2023-arm64-nvidia-1.33-v20250101",
                "arm64", Instant.parse("2025-01-01T00:00:00Z"), "602401143452", Map.of()));
        for (String id : List.of("ami-0a1b2c3d4e5f60001", "ami-0a1b2c3d4e5f60002", NVIDIA_AMD64, NEURON_AMD64, NVIDIA_ARM64)) {
            s.imageSnapshot(id, "/dev/xvda", "snap-" + id.substring(4), 20);
        }
        s.addInstanceType(new InstanceTypeInfo("m5.large", 2, 8192, "x86_64", 3, 10, "nitro"), ZONES, "0.0350");
        s.addInstanceType(new InstanceTypeInfo("m5.xlarge", 4, 16384, "x86_64", 4, 15, "nitro"), ZONES, "0.0700");
        s.addInstanceType(new InstanceTypeInfo("c5.large", 2, 4096, "x86_64", 3, 10, "nitro"), ZONES, "0.0310");
        s.addInstanceType(new InstanceTypeInfo("m6g.large", 2, 8192, "arm64", 3, 10, "nitro"), ZONES, "0.0290");
        return s;
    }

    /** DescribeInstanceTypes: the full shapes of the types added here (derived from their basic facts unless put). */
    public Ec2DescribeInstanceTypes instanceTypeShapes() { return instanceTypeShapes; }

    /** The capacity reservations (empty until a test adds some). */
    public Ec2Reservations reservations() {
        return reservations;
    }

    public synchronized Ec2State addSubnet(Subnet subnet) {
        subnets.put(subnet.id(), subnet);
        return this;
    }

    public synchronized Ec2State addSecurityGroup(SecurityGroup group) {
        securityGroups.put(group.id(), group);
        return this;
    }

    public synchronized Ec2State addImage(Image image) {
        images.put(image.id(), image);
        return this;
    }

    /** Adds a type offered in {@code zones}, with the same spot price (USD per hour, as EC2 writes it) in each. */
    public synchronized Ec2State addInstanceType(InstanceTypeInfo type, List<String> zones, String spotPrice) {
        instanceTypes.put(type.name(), type);
        offerings.put(type.name(), new TreeSet<>(zones));
        zones.forEach(zone -> spotPrices.put(type.name() + "/" + zone, spotPrice));
        return this;
    }

    /** Makes an instance profile known, with the role a launch naming it passes to EC2 (iam:PassRole). */
    public synchronized Ec2State addInstanceProfile(String name, String roleName) {
        instanceProfiles.put(name, roleName);
        return this;
    }

    /** The role behind an instance profile, if the profile is known. */
    public synchronized Optional<String> instanceProfileRole(String name) {
        return Optional.ofNullable(instanceProfiles.get(name));
    }

    /** Adds an instance directly, as one launched outside Gantry or leaked by a crash. */
    public synchronized Ec2State addInstance(Instance instance) {
        instances.put(instance.id(), instance);
        return this;
    }

    /**
     * Makes CreateFleet fail the (type, zone) override with {@code errorCode} (for example
     * {@code InsufficientInstanceCapacity}) until {@link #clearLaunchFailures()}.
     */
    public synchronized Ec2State failLaunches(String instanceType, String zone, String errorCode) {
        launchFailures.put(instanceType + "/" + zone, errorCode);
        return this;
    }

    /** DeregisterImage: the image is no longer described, and launches from it fail ({@link Ec2ImageRefusals}). */
    public synchronized Ec2State deregisterImage(String imageId) {
        images.remove(imageId);
        refusals.deregister(imageId);
        return this;
    }

    /** EC2's error code for a launch from {@code imageId}, or empty when it launches. */
    synchronized java.util.Optional<String> imageRefusal(String imageId) {
        return refusals.refusal(imageId);
    }

    /**
     * The image's root snapshot, as its block device mappings in DescribeImages would give it: a launch from it whose
     * template gives {@code deviceName} fewer than {@code sizeGiB} GiB is refused ({@link Ec2ImageRefusals}). The
     * default images have a 20 GiB {@code /dev/xvda}, as the EKS-optimized AL2023 images do.
     */
    public synchronized Ec2State imageSnapshot(String imageId, String deviceName, String snapshotId, int sizeGiB) {
        refusals.snapshot(imageId, new Ec2ImageRefusals.Snapshot(deviceName, snapshotId, sizeGiB));
        return this;
    }

    /** EC2's InvalidBlockDeviceMapping message for a launch from {@code imageId} with these volume sizes, or empty. */
    synchronized java.util.Optional<String> volumeRefusal(String imageId, Map<String, Integer> volumeSizes) {
        return refusals.volumeRefusal(imageId, volumeSizes);
    }

    /**
     * EC2's {@code InvalidParameterValue} message for launching {@code instanceType} from {@code imageId} when their
     * architectures differ ({@link Ec2ImageRefusals#architectureRefusal}), or empty (also when the stub knows either
     * only by name: tests name types and images freely).
     */
    synchronized java.util.Optional<String> architectureRefusal(String instanceType, String imageId) {
        InstanceTypeInfo type = instanceType == null ? null : instanceTypes.get(instanceType);
        Image image = imageId == null ? null : images.get(imageId);
        return type == null || image == null ? java.util.Optional.empty()
                : Ec2ImageRefusals.architectureRefusal(type.architecture(), image.architecture());
    }

    /** The type as DescribeInstanceTypes knows it, or null (tests name types freely). */
    synchronized InstanceTypeInfo instanceType(String name) {
        return name == null ? null : instanceTypes.get(name);
    }

    public synchronized Ec2State clearLaunchFailures() {
        launchFailures.clear();
        capacityLeft.clear();
        return this;
    }

    /**
     * EC2's eventual consistency after a launch: an instance launched less than {@code lag} ago (by the stub's clock) is
     * missing from DescribeInstances, by id ({@code InvalidInstanceID.NotFound}) and by filter alike, while the
     * CreateFleet answer and TerminateInstances know it. Zero (the default): every instance is listed at once.
     */
    public synchronized Ec2State describeLag(java.time.Duration lag) {
        this.describeLag = lag;
        return this;
    }

    private final Ec2InstanceStatuses statuses = new Ec2InstanceStatuses();
    private final Ec2PlacementGroups placementGroups = new Ec2PlacementGroups();

    /** The account's placement groups, and the group each launch template places its instances in. */
    public Ec2PlacementGroups placementGroups() {
        return placementGroups;
    }

    /** Status checks and scheduled events, as DescribeInstanceStatus reports them. */
    public Ec2InstanceStatuses statuses() {
        return statuses;
    }

    /** The instances DescribeInstances lists at {@code now}: all but those launched within the describe lag. */
    synchronized List<Instance> describable(Instant now) {
        return instances.values().stream().filter(i -> i.launchTime() == null
                || !now.isBefore(i.launchTime().plus(describeLag))).toList();
    }

    /** Sets an instance's state name (pending, running, stopping, stopped, shutting-down, terminated). */
    public synchronized void setInstanceState(String instanceId, String state) {
        Instance instance = instance(instanceId).orElseThrow(() -> new IllegalArgumentException(instanceId));
        instances.put(instanceId, instance.withState(state));
    }

    /** Adds {@code tags} to an instance (a key it has takes the new value), as CreateTags does. */
    public synchronized void tag(String instanceId, Map<String, String> tags) {
        Instance i = instance(instanceId).orElseThrow(() -> new IllegalArgumentException(instanceId));
        Map<String, String> merged = new TreeMap<>(i.tags());
        merged.putAll(tags);
        instances.put(instanceId, new Instance(i.id(), i.type(), i.zone(), i.subnetId(), i.imageId(), i.lifecycle(), i.state(),
                i.launchTime(), i.privateIp(), merged));
    }

    public synchronized Optional<Instance> instance(String id) {
        return Optional.ofNullable(instances.get(id));
    }

    /** Every instance ever launched or added, terminated ones included, in launch order. */
    public synchronized List<Instance> instances() {
        return List.copyOf(instances.values());
    }

    public synchronized List<LaunchTemplate> launchTemplates() {
        return List.copyOf(launchTemplates.values());
    }

    synchronized List<Subnet> subnets() { return List.copyOf(subnets.values()); }
    synchronized List<SecurityGroup> securityGroups() { return List.copyOf(securityGroups.values()); }
    synchronized List<Image> images() { return List.copyOf(images.values()); }
    synchronized List<InstanceTypeInfo> instanceTypes() { return List.copyOf(instanceTypes.values()); }
    synchronized Map<String, Set<String>> offerings() { return Map.copyOf(offerings); }
    synchronized Optional<String> spotPrice(String type, String zone) {
        return Optional.ofNullable(spotPrices.get(type + "/" + zone));
    }
    synchronized Optional<Subnet> subnet(String id) { return Optional.ofNullable(subnets.get(id)); }
    synchronized Optional<SecurityGroup> securityGroup(String id) { return Optional.ofNullable(securityGroups.get(id)); }
    synchronized Optional<Image> image(String id) { return Optional.ofNullable(images.get(id)); }
    synchronized Optional<LaunchTemplate> launchTemplate(String idOrName) {
        return launchTemplates.values().stream().filter(t -> t.id().equals(idOrName) || t.name().equals(idOrName))
                .findFirst();
    }
    synchronized Optional<String> launchFailure(String type, String zone) {
        return Optional.ofNullable(launchFailures.get(type + "/" + zone));
    }
    /** A fleet's answer and the request parameters (all but the ClientToken) it was created with. */
    record RememberedFleet(java.util.SortedMap<String, String> parameters, Ec2Responses.Fleet fleet) {}

    synchronized Optional<RememberedFleet> fleetFor(String clientToken) {
        return Optional.ofNullable(clientToken == null ? null : fleetsByToken.get(clientToken));
    }
    synchronized void rememberFleet(String clientToken, RememberedFleet fleet) {
        if (clientToken != null) {
            fleetsByToken.put(clientToken, fleet);
        }
    }

    /**
     * Leaves only {@code instances} more instances of the (type, zone) offering to launch: a fleet that wants more
     * gets what is left there (and an InsufficientInstanceCapacity error for it once none is), which is how EC2
     * fulfils a fleet in part. Cleared by {@link #clearLaunchFailures()}.
     */
    public synchronized Ec2State limitCapacity(String instanceType, String zone, int instances) {
        capacityLeft.put(instanceType + "/" + zone, instances);
        return this;
    }

    /** How many more instances the offering can launch ({@link Integer#MAX_VALUE} when not limited). */
    synchronized int capacityLeft(String type, String zone) {
        return capacityLeft.getOrDefault(type + "/" + zone, Integer.MAX_VALUE);
    }

    synchronized Instance launch(String type, String zone, String subnetId, String imageId, String lifecycle,
                                 Map<String, String> tags, Instant now) {
        capacityLeft.computeIfPresent(type + "/" + zone, (k, left) -> left - 1);
        long n = nextId++;
        Instance instance = new Instance(String.format("i-0%016x", 0xabcd0000L + n), type, zone, subnetId, imageId,
                lifecycle, "running", now, "10.0.%d.%d".formatted(n / 250, n % 250 + 4), tags);
        instances.put(instance.id(), instance);
        return instance;
    }

    synchronized void putLaunchTemplate(LaunchTemplate template) { launchTemplates.put(template.id(), template); }
    synchronized void removeLaunchTemplate(String id) { launchTemplates.remove(id); }
    synchronized String newId(String prefix) { return String.format("%s-0%016x", prefix, 0x1000L + nextId++); }

    /** Terminates the instances, returning each one's state before; unknown ids are the caller's to reject. */
    synchronized List<Instance> terminate(List<String> ids) {
        List<Instance> before = new ArrayList<>();
        for (String id : ids) {
            Instance instance = instances.get(id);
            before.add(instance);
            // EC2 answers shutting-down and reaches terminated later; the model skips the wait.
            instances.put(id, instance.withState("terminated"));
            reservations.terminated(id);
        }
        return before;
    }
}
