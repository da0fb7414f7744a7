package dev.gantry.aws.ec2;

import dev.gantry.aws.ec2.AmiResolver.Ami;
import dev.gantry.aws.ec2.SubnetResolver.ZonalSubnet;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.NodeLabels;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.CreateFleetError;
import software.amazon.awssdk.services.ec2.model.CreateFleetInstance;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverrides;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The {@link CloudProvider} over EC2: resolves the NodeClass (subnets, security groups, AMIs) and ensures the launch
 * templates ({@link #prepare}, whose {@link LaunchParameters} the caller records), and launches with CreateFleet
 * ({@code instant}) sending exactly those: one instance per claim with ClientToken = claim name, or several identical
 * ones in one fleet (TotalTargetCapacity = the count) under the batch's launch token, as Karpenter's CreateFleet
 * batcher does.
 * Gantry's instances carry {@code gantry.dev/*} tags only, never Karpenter's, so a Karpenter in the same account
 * neither lists nor garbage-collects them.
 */
public final class Ec2CloudProvider implements CloudProvider, NodeClassResolution {
    private final Ec2Client ec2;
    private final Ec2LauncherConfig config;
    private final SubnetResolver subnets;
    private final SecurityGroupResolver securityGroups;
    private final AmiResolver amis;
    private final LaunchTemplates launchTemplates;
    private final Ec2Instances instances;
    private final LaunchTemplateCollector templateCollector;
    private final CapacityReservationResolver reservations;
    private final PlacementGroupResolver placementGroups;

    public Ec2CloudProvider(Ec2Client ec2, SsmClient ssm, Ec2LauncherConfig config) {
        this.ec2 = ec2;
        this.config = config;
        this.subnets = new SubnetResolver(ec2, config.clock());
        this.securityGroups = new SecurityGroupResolver(ec2, config.clock());
        this.amis = new AmiResolver(ec2, ssm, config.kubernetesVersion(), config.clock());
        this.launchTemplates = new LaunchTemplates(ec2, config.clusterName(), config.clock());
        this.instances = new Ec2Instances(ec2, config.clusterName());
        this.templateCollector = new LaunchTemplateCollector(ec2, config.clusterName(), config.clock());
        this.reservations = new CapacityReservationResolver(ec2, config.clock());
        this.placementGroups = new PlacementGroupResolver(ec2, config.clock());
    }

    @Override
    public LaunchResult launch(LaunchRequest request) {
        return launch(request, prepare(request));
    }

    /**
     * Resolves the NodeClass (subnets, security groups, AMIs), plans the fleet ({@link FleetPlan}) and ensures its
     * launch templates: everything the CreateFleet will send but its ClientToken and count.
     */
    @Override
    public LaunchParameters prepare(LaunchRequest request) {
        NodeClass nodeClass = request.nodeClass();
        Map<String, ZonalSubnet> zonal = subnets.byZone(nodeClass.subnetSelectorTerms());
        List<String> groups = securityGroups.groupIds(nodeClass.securityGroupSelectorTerms());
        Map<String, String> images = new TreeMap<>();
        amis.resolve(nodeClass).forEach((key, ami) -> images.put(key, ami.id()));
        if (!request.options().isEmpty() && FleetPlan.served(request, images).isEmpty()) {
            // Not capacity: no image the class selects runs these types (a GPU type under an alias that publishes no
            // GPU image for its architecture). Karpenter fails the launch alike ("no instance types satisfy
            // requirements of amis"); the words say which.
            throw new CloudException("NoCompatibleImage", "no image EC2NodeClass " + nodeClass.name() + " selects serves "
                    + request.options().stream().limit(FleetPlan.MAX_INSTANCE_TYPES).map(InstanceType::name).limit(5).toList()
                    + (request.options().size() > 5 ? "…" : "") + " (its images: " + images + ")", false);
        }
        FleetPlan plan = FleetPlan.of(request, zonal, images)
                .orElseThrow(() -> new InsufficientCapacity("NoAvailableOffering", List.of()));
        List<LaunchParameters.Template> templates = new ArrayList<>();
        for (FleetPlan.Group g : plan.groups()) {
            String name = launchTemplates.ensure(templateSpec(request, plan.capacityType(), g, groups));
            templates.add(new LaunchParameters.Template(name, g.imageId(), g.maxPods(), g.overrides().stream()
                    .map(o -> new LaunchParameters.Override(o.instanceType(), o.zone(), o.subnetId())).toList()));
        }
        return new LaunchParameters(plan.capacityType(), templates, InstanceTags.forClaim(config.clusterName(), request));
    }

    /**
     * One CreateFleet ({@code instant}) sending {@code parameters} as they are, under the request's token and count.
     * A template missing at EC2 (the sweep collected an idle one whose name was still cached) is created again when
     * the request still describes it exactly, and the call made once more; otherwise nothing was launched under the
     * token and the launch fails for good, to be planned afresh.
     */
    @Override
    public LaunchResult launch(LaunchRequest request, LaunchParameters parameters) {
        if (parameters == null) {
            return launch(request);
        }
        try {
            return createFleet(request, parameters);
        } catch (MissingTemplate missing) {
            if (!recreateTemplates(request, parameters)) {
                throw new CloudException(missing.code, "CreateFleet: a launch template the launch was recorded with is "
                        + "gone and the NodeClass or NodePool no longer describes it: " + missing.getMessage(), false);
            }
            try {
                return createFleet(request, parameters);
            } catch (MissingTemplate again) {
                throw new CloudException(again.code, "CreateFleet: " + again.getMessage(), true);
            }
        }
    }

    /** EC2 does not know a launch template the call names. */
    private static final class MissingTemplate extends RuntimeException {
        final String code;

        MissingTemplate(String code, String message) {
            super(message);
            this.code = code;
        }
    }

    private LaunchResult createFleet(LaunchRequest request, LaunchParameters parameters) {
        CreateFleetResponse response;
        try {
            response = ec2.createFleet(FleetRequests.build(parameters, request.clientToken(), request.count(),
                    ReservationTarget.of(request.labels()).orElse(null), request.nodeClass().context()));
        } catch (SdkException e) {
            if (Ec2Errors.classify(e) == Ec2Errors.Kind.TOKEN_REUSED) {
                // Launched before under this token with other parameters: its live instances, found by tag (the claim
                // name a claim launched alone is tagged with is its ClientToken; a batch's, its launch token).
                List<CloudInstance> found = request.count() == 1
                        ? instances.byClaim(request.clientToken()).map(List::of).orElse(List.of())
                        : instances.byLaunch(request.clientToken());
                if (found.isEmpty()) {
                    throw Ec2Errors.toCloud("CreateFleet", e);
                }
                return new LaunchResult(found, List.of());
            }
            if (Ec2Errors.classify(e) == Ec2Errors.Kind.NOT_FOUND) {
                launchTemplates.forget(parameters.templates().stream().map(LaunchParameters.Template::name).toList());
                throw new MissingTemplate(Ec2Errors.code(e), e.getMessage());
            }
            throw Ec2Errors.toCloud("CreateFleet", e);
        }
        return outcome(response, parameters);
    }

    /**
     * Creates the recorded launch templates again from the request, if each one the request describes now has the
     * recorded name (the name is a hash of the whole template, user data included); false when one differs.
     */
    private boolean recreateTemplates(LaunchRequest request, LaunchParameters parameters) {
        List<String> groups = securityGroups.groupIds(request.nodeClass().securityGroupSelectorTerms());
        List<LaunchTemplateSpec> specs = new ArrayList<>();
        for (LaunchParameters.Template t : parameters.templates()) {
            List<InstanceType> types = t.instanceTypes().stream().map(name -> request.options().stream()
                    .filter(o -> o.name().equals(name)).findFirst().orElse(null)).toList();
            if (types.contains(null)) {
                return false;
            }
            FleetPlan.Group g = new FleetPlan.Group(t.imageId(), FleetPlan.arch(types.getFirst()), t.maxPods(),
                    FleetPlan.efaCount(request, types.getFirst()), types,
                    t.overrides().stream().map(o -> new FleetPlan.Override(o.instanceType(), o.subnetId(), o.zone())).toList());
            LaunchTemplateSpec spec = templateSpec(request, parameters.capacityType(), g, groups);
            if (!spec.name(config.clusterName()).equals(t.name())) {
                return false;
            }
            specs.add(spec);
        }
        specs.forEach(launchTemplates::ensure);
        return true;
    }

    private LaunchTemplateSpec templateSpec(LaunchRequest request, String capacityType, FleetPlan.Group g, List<String> sgs) {
        NodeClass nc = request.nodeClass();
        String profile = config.nodeRoles().of(nc).name();
        if (profile == null) {
            throw new CloudException("NoInstanceProfile", "NodeClass " + nc.name()
                    + " names no instanceProfile and the deployment has no node instance profile", false);
        }
        List<String> zones = g.overrides().stream().map(FleetPlan.Override::zone).distinct().toList();
        String placementGroup = placementGroupId(nc);
        Map<String, String> labels = new TreeMap<>(NodeLabels.forUserData(request, capacityType, g.types(), zones));
        if (placementGroup != null) {
            labels.put(WellKnownLabels.PLACEMENT_GROUP_ID, placementGroup); // Karpenter's label, set as it launches
        }
        BootstrapOptions bootstrap = new BootstrapOptions(config.clusterName(), config.endpoint(),
                config.certificateAuthority(), config.serviceCidr(), config.clusterDnsIp(),
                labels, request.taints(), g.maxPods(),
                nc.kubelet(), nc.userData(), nc.instanceStorePolicy());
        String family = nc.effectiveAmiFamily();
        return new LaunchTemplateSpec(family, g.imageId(), profile, sgs, nc.metadataOptions(),
                nc.blockDeviceMappings().isEmpty() ? BlockDevices.defaults(family) : nc.blockDeviceMappings(),
                UserData.render(family, bootstrap), Boolean.TRUE.equals(nc.detailedMonitoring()),
                nc.associatePublicIPAddress(), InstanceTags.forTemplate(config.clusterName(), request),
                WellKnownLabels.CAPACITY_RESERVED.equals(capacityType) ? ReservationTarget.of(request.labels()).orElse(null) : null,
                nc.networking(), nc.cpuOptions(), config.ipv6(), placementGroup, g.efaCount());
    }

    /**
     * The id of the placement group the class launches into, null when it selects none.
     *
     * @throws CloudException (not retryable) when it selects a group EC2 does not list as available: Karpenter marks
     *                        such a class not ready ({@code PlacementGroupReady=False}) and launches nothing from it
     */
    private String placementGroupId(NodeClass nc) {
        if (nc.placementGroup() == null) {
            return null;
        }
        return placementGroups.resolve(nc.placementGroup()).map(PlacementGroupResolver.Group::id)
                .orElseThrow(() -> new CloudException("PlacementGroupNotFound", "EC2NodeClass " + nc.name()
                        + " selects placement group " + nc.placementGroup() + ", which EC2 does not list as available",
                        false));
    }

    private LaunchResult outcome(CreateFleetResponse response, LaunchParameters plan) {
        Map<String, String> tags = plan.tags();
        List<OfferingKey> unavailable = new ArrayList<>();
        String firstError = null;
        String firstMessage = null;
        for (CreateFleetError err : response.errors()) {
            FleetLaunchTemplateOverrides o = err.launchTemplateAndOverrides() == null ? null
                    : err.launchTemplateAndOverrides().overrides();
            if (firstError == null) {
                firstError = err.errorCode();
                firstMessage = err.errorMessage();
            }
            switch (Ec2Errors.classify(err.errorCode())) {
                case OFFERING_UNAVAILABLE -> {
                    if (o != null && o.instanceTypeAsString() != null && o.availabilityZone() != null) {
                        OfferingKey key = new OfferingKey(o.instanceTypeAsString(), o.availabilityZone(), plan.capacityType());
                        if (!unavailable.contains(key)) {
                            unavailable.add(key);
                        }
                    }
                }
                case SUBNET_FULL -> {
                    if (o != null && o.subnetId() != null) {
                        subnets.markFull(o.subnetId());
                    }
                }
                default -> { }
            }
        }
        List<CloudInstance> launched = new ArrayList<>();
        for (CreateFleetInstance i : response.instances()) {
            FleetLaunchTemplateOverrides o = i.launchTemplateAndOverrides() == null ? null
                    : i.launchTemplateAndOverrides().overrides();
            // EC2 answers before an instance is describable (eventual consistency), so each is built from the fleet's
            // answer, at the type and zone it got; the sweep reads the full records later.
            for (String id : i.instanceIds()) {
                launched.add(new CloudInstance(id, i.instanceTypeAsString(), o == null ? null : o.availabilityZone(),
                        plan.capacityType(), "pending", config.clock().instant(), null, tags));
            }
        }
        if (launched.isEmpty()) {
            if (!unavailable.isEmpty()) {
                throw new InsufficientCapacity(firstError, unavailable);
            }
            String code = firstError == null ? "NoInstanceLaunched" : firstError;
            // EC2's own words go with the code: "Volume of size 2GB is smaller than snapshot 'snap-…', expect size >=
            // 4GB" says what to change, where the code alone (InvalidBlockDeviceMapping) does not.
            String why = firstMessage == null || firstMessage.isBlank() ? "" : ": " + firstMessage;
            if (Ec2Errors.classify(code) == Ec2Errors.Kind.IMAGE_REFUSED) {
                throw new dev.gantry.core.cloud.ImageRefused(code, "CreateFleet launched no instance: its image was refused" + why);
            }
            boolean retryable = firstError == null || Ec2Errors.classify(code) == Ec2Errors.Kind.SUBNET_FULL
                    || Ec2Errors.classify(code) == Ec2Errors.Kind.RETRYABLE;
            throw new CloudException(code, "CreateFleet launched no instance" + why, retryable);
        }
        // Fewer than asked for (EC2 fulfilled the fleet in part): what launched, with the offerings that failed.
        return new LaunchResult(launched, unavailable);
    }

    @Override
    public void terminate(List<String> instanceIds) {
        instances.terminate(instanceIds);
    }

    @Override
    public List<CloudInstance> listInstances() {
        return instances.list();
    }

    @Override
    public Optional<CloudInstance> describe(String instanceId) {
        return instances.describe(instanceId);
    }

    @Override
    public List<CloudInstance> listKarpenterInstances() {
        return instances.karpenters();
    }

    @Override
    public void tag(String instanceId, Map<String, String> tags) {
        instances.tag(instanceId, tags);
    }

    /**
     * The sweep's launch template clean-up ({@link LaunchTemplateCollector}): deletes the cluster's templates that no
     * live instance came from and that are over a day old, at most once an hour. Returns how many went.
     */
    public int collectLaunchTemplates() {
        return templateCollector.collect(instances::list);
    }

    /**
     * What {@code nodeClass}'s selector terms resolve to now, through the same cached resolvers launches use (the
     * EC2NodeClass status): subnets, security groups (id and name), the AMI per image key (an alias's variants with Karpenter's
     * requirements), the instance profile, the capacity reservations its {@code capacityReservationSelectorTerms}
     * select (none without terms, and no call), and whether the placement group it selects is listed.
     */
    public dev.gantry.core.status.NodeClassStatus status(NodeClass nodeClass) {
        return NodeClassStatusOf.of(nodeClass, subnets.subnets(nodeClass.subnetSelectorTerms()),
                securityGroups.groups(nodeClass.securityGroupSelectorTerms()), amis.resolve(nodeClass),
                config.nodeRoles().of(nodeClass),
                reservations.select(nodeClass.capacityReservationSelectorTerms()),
                nodeClass.placementGroup() != null && placementGroups.resolve(nodeClass.placementGroup()).isEmpty()
                        ? selectorValue(nodeClass.placementGroup()) : null, config.clock().instant());
    }

    /** The name or id a placement-group selector gives, as Karpenter's condition quotes it. */
    private static String selectorValue(NodeClass.PlacementGroupSelector s) {
        return s.name() != null ? s.name() : s.id();
    }

    /** The capacity reservations lookup launches and the NodeClass status share. */
    public CapacityReservationResolver capacityReservations() {
        return reservations;
    }

    /** The AMI each image key ({@link dev.gantry.core.cloud.ImageKeys}) resolves to for {@code nodeClass} (diagnostics). */
    public Map<String, Ami> amis(NodeClass nodeClass) {
        return amis.resolve(nodeClass);
    }

    /**
     * What the NodeClass selects now, through the same cached lookups a launch uses (the AMI cache lives a minute, so
     * an {@code @latest} release is seen as soon as a launch would use it).
     */
    @Override
    public Optional<Selected> resolve(NodeClass nodeClass) {
        Map<String, String> images = new java.util.TreeMap<>();
        amis.resolve(nodeClass).forEach((arch, ami) -> images.put(arch, ami.id()));
        java.util.Set<String> subnetIds = new java.util.TreeSet<>();
        subnets.subnets(nodeClass.subnetSelectorTerms()).forEach(z -> subnetIds.add(z.id()));
        // The reservations selected now (none, and no call, without terms), as the NodeClass status lists them.
        java.util.Set<String> reserved = new java.util.TreeSet<>();
        reservations.select(nodeClass.capacityReservationSelectorTerms()).forEach(r -> reserved.add(r.id()));
        // The placement group selected now: none without a selector, and none when the group is gone (its nodes drift).
        String placementGroup = nodeClass.placementGroup() == null ? ""
                : placementGroups.resolve(nodeClass.placementGroup()).map(PlacementGroupResolver.Group::id).orElse("");
        return Optional.of(new Selected(images, subnetIds,
                java.util.Set.copyOf(securityGroups.groupIds(nodeClass.securityGroupSelectorTerms())), reserved,
                placementGroup));
    }
}
