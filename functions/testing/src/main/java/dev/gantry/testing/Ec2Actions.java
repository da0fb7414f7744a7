package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.Filterable;
import dev.gantry.testing.Ec2Resources.Instance;
import dev.gantry.testing.Ec2Responses.Fleet;
import dev.gantry.testing.Ec2Responses.FleetError;
import dev.gantry.testing.Ec2Responses.FleetInstance;
import dev.gantry.testing.Ec2Responses.FleetOverride;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.UUID;
import java.util.regex.Pattern;

/** The stub's default EC2 answers: each reads the query parameters, acts on the {@link Ec2State} and replies. */
final class Ec2Actions {
    /** The system tag EC2 puts on an instance launched from a launch template: the template's id. */
    static final String LAUNCHED_FROM = "aws:ec2launchtemplate:id";
    /** The largest TotalTargetCapacity the stub accepts for a fleet of type instant (EC2's instant-fleet maximum). */
    static final int MAX_INSTANT_FLEET_CAPACITY = 1000;
    /** EC2's idempotency token: "a unique, case-sensitive string of up to 64 ASCII characters". */
    static final int MAX_CLIENT_TOKEN = 64;
    /** EC2's most user tags on one resource. */
    static final int MAX_TAGS = 50;
    private final Ec2State state;
    private final Clock clock;

    Ec2Actions(Ec2State state, Clock clock) {
        this.state = state;
        this.clock = clock;
    }

    /** The responders by EC2 action name. */
    Map<String, Responder> responders() {
        Map<String, Responder> r = new LinkedHashMap<>();
        r.put("CreateFleet", this::createFleet);
        r.put("DescribeInstances", this::describeInstances);
        r.put("TerminateInstances", this::terminateInstances);
        new Ec2LaunchTemplateActions(state, clock).addTo(r);
        r.put("DescribeSubnets", q -> Ec2Responses.subnets(select(state.subnets(), q, "SubnetId", "subnet-id")));
        r.put("DescribeSecurityGroups", q -> Ec2Responses.securityGroups(
                select(state.securityGroups(), q, "GroupId", "group-id")));
        // As EC2: a deprecated image is left out unless IncludeDeprecated is true or the caller owns it.
        r.put("DescribeImages", q -> Ec2Responses.images(select(state.images(), q, "ImageId", "image-id").stream()
                .filter(i -> "true".equals(q.param("IncludeDeprecated")) || Ec2State.ACCOUNT.equals(i.ownerId())
                        || !i.deprecated(clock.instant())).toList()));
        r.put("DescribeInstanceTypes", state.instanceTypeShapes()::answer);
        r.put("DescribeInstanceTypeOfferings", this::describeOfferings);
        r.put("DescribeSpotPriceHistory", this::describeSpotPrices);
        r.put("CreateTags", this::createTags);
        r.put("DescribeCapacityReservations", state.reservations()::describe);
        r.put("DescribePlacementGroups", state.placementGroups()::describe);
        r.put("DescribeInstanceStatus", new Ec2InstanceStatusAction(state, clock)::answer);
        return r;
    }

    /**
     * CreateFleet of type instant, as strict as EC2: TotalTargetCapacity is required, at least 1 and at most
     * {@link #MAX_INSTANT_FLEET_CAPACITY}; the instances are taken override by override (as many from each as it has
     * capacity for, see {@link Ec2State#limitCapacity}), and the answer lists one {@code fleetInstanceSet} item per
     * override used, with all its {@code instanceIds}, and one {@code errorSet} item per override that failed; a fleet
     * that gets fewer instances than asked for is not an error. A ClientToken seen before returns the first answer when
     * every other parameter is the same (templates, overrides with their subnets, tags, count), and
     * {@code IdempotentParameterMismatch} when any differs; a ClientToken longer than {@value #MAX_CLIENT_TOKEN}
     * characters is refused with {@code InvalidParameterValue}. A template whose instance profile the account does
     * not have ({@link Ec2State#addInstanceProfile}) fails every override with {@code InvalidParameterValue}, and so
     * does a type that cannot take the template's primary interface ({@link Ec2InterfaceRefusals}).
     */
    private StubResponse createFleet(RecordedRequest q) {
        String token = q.param("ClientToken");
        if (token != null && token.length() > MAX_CLIENT_TOKEN) {
            return Ec2Responses.error("InvalidParameterValue", "Value (" + token + ") for parameter clientToken is "
                    + "invalid. The client token must be at most " + MAX_CLIENT_TOKEN + " ASCII characters.");
        }
        java.util.SortedMap<String, String> parameters = new java.util.TreeMap<>(q.params());
        parameters.remove("ClientToken");
        var previous = state.fleetFor(token);
        if (previous.isPresent()) {
            if (!previous.get().parameters().equals(parameters)) {
                return Ec2Responses.error("IdempotentParameterMismatch", "The client token you have provided is "
                        + "associated with a resource that is already deleted or has different parameters: " + token);
            }
            return Ec2Responses.createFleet(previous.get().fleet());
        }
        String capacity = q.param("TargetCapacitySpecification.TotalTargetCapacity");
        int wanted;
        try {
            wanted = capacity == null ? 0 : Integer.parseInt(capacity);
        } catch (NumberFormatException e) {
            wanted = 0;
        }
        if (capacity == null) {
            return Ec2Responses.error("MissingParameter",
                    "The request must contain the parameter TargetCapacitySpecification.TotalTargetCapacity");
        }
        if (wanted < 1 || wanted > MAX_INSTANT_FLEET_CAPACITY) {
            return Ec2Responses.error("InvalidParameterValue", "TotalTargetCapacity " + capacity
                    + " is not valid for a fleet of type instant: it must be between 1 and " + MAX_INSTANT_FLEET_CAPACITY);
        }
        String lifecycle = "spot".equals(q.param("TargetCapacitySpecification.DefaultTargetCapacityType"))
                ? "spot" : "on-demand";
        Map<String, String> tags = tags(q, "instance");
        List<FleetInstance> launched = new ArrayList<>();
        List<FleetError> errors = new ArrayList<>();
        int count = 0;
        for (int c = 1; !q.paramsWithPrefix("LaunchTemplateConfigs." + c + ".").isEmpty(); c++) {
            String config = "LaunchTemplateConfigs." + c + ".";
            String ltId = q.param(config + "LaunchTemplateSpecification.LaunchTemplateId");
            String ltName = q.param(config + "LaunchTemplateSpecification.LaunchTemplateName");
            String version = q.params().getOrDefault(config + "LaunchTemplateSpecification.Version", "$Default");
            var template = state.launchTemplates().stream()
                    .filter(t -> t.id().equals(ltId) || t.name().equals(ltName)).findFirst();
            if (template.isEmpty()) {
                // EC2 rejects the whole request, as it does for a template deleted under a cached name.
                return ltId != null
                        ? Ec2Responses.error("InvalidLaunchTemplateId.NotFound", "The specified launch template, with "
                                + "template ID " + ltId + ", does not exist.")
                        : Ec2Responses.error("InvalidLaunchTemplateName.NotFoundException", "The specified launch "
                                + "template, with template name " + ltName + ", does not exist.");
            }
            String imageId = template.get().imageId();
            // An instance profile IAM does not know fails each override at launch (CreateLaunchTemplate took it).
            String profile = template.get().instanceProfile();
            String unknownProfile = profile != null && state.instanceProfileRole(profile).isEmpty()
                    ? "Value (" + profile + ") for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance "
                    + "Profile name" : null;
            // EC2 tags every instance launched from a template with the template it came from.
            Map<String, String> instanceTags = new LinkedHashMap<>(tags);
            instanceTags.put(LAUNCHED_FROM, template.get().id());
            instanceTags.put("aws:ec2launchtemplate:version", String.valueOf(template.get().version()));
            for (SortedMap<String, String> o : q.members(config + "Overrides")) {
                if (count >= wanted) {
                    break;
                }
                String subnetId = o.get("SubnetId");
                String zone = o.getOrDefault("AvailabilityZone",
                        subnetId == null ? null : state.subnet(subnetId).map(s -> s.zone()).orElse(null));
                FleetOverride override = new FleetOverride(ltId, ltName, version, o.get("InstanceType"), subnetId, zone);
                if (unknownProfile != null) {
                    errors.add(new FleetError(override, lifecycle, "InvalidParameterValue", unknownProfile));
                    continue;
                }
                var badGroup = state.placementGroups().refusal(template.get().id());
                if (badGroup.isPresent()) {
                    errors.add(new FleetError(override, lifecycle, "InvalidPlacementGroup.Unknown", badGroup.get()));
                    continue;
                }
                var refused = state.imageRefusal(o.getOrDefault("ImageId", imageId));
                if (refused.isPresent()) {
                    errors.add(new FleetError(override, lifecycle, refused.get(), "The image id '[" + o.getOrDefault("ImageId", imageId)
                            + "]' does not exist (stub: " + refused.get() + ")."));
                    continue;
                }
                var mismatched = state.architectureRefusal(o.get("InstanceType"), o.getOrDefault("ImageId", imageId));
                if (mismatched.isPresent()) {
                    errors.add(new FleetError(override, lifecycle, "InvalidParameterValue", mismatched.get()));
                    continue;
                }
                var badInterface = Ec2InterfaceRefusals.refusal(state.instanceType(o.get("InstanceType")),
                        template.get().primaryInterface());
                if (badInterface.isPresent()) {
                    errors.add(new FleetError(override, lifecycle, "InvalidParameterValue", badInterface.get()));
                    continue;
                }
                var tooSmall = state.volumeRefusal(o.getOrDefault("ImageId", imageId), template.get().volumeSizes());
                if (tooSmall.isPresent()) {
                    errors.add(new FleetError(override, lifecycle, "InvalidBlockDeviceMapping", tooSmall.get()));
                    continue;
                }
                var failure = state.launchFailure(o.get("InstanceType"), zone);
                int room = state.capacityLeft(o.get("InstanceType"), zone);
                String reservation = state.reservations().targetOf(template.get().id());
                if (reservation != null && failure.isEmpty() && room > 0) {
                    // Launched into the reservation the template targets: a slot per instance, none left is EC2's
                    // ReservationCapacityExceeded for the override.
                    Ec2Reservations.Reservation r = state.reservations().get(reservation);
                    room = r == null || !"active".equals(r.state()) ? 0 : Math.min(room, r.available());
                    if (room == 0) {
                        failure = java.util.Optional.of("ReservationCapacityExceeded");
                    }
                }
                if (failure.isPresent() || room == 0) {
                    String code = failure.orElse("InsufficientInstanceCapacity");
                    errors.add(new FleetError(override, lifecycle, code, code + ": there is no capacity for "
                            + o.get("InstanceType") + " in " + zone + " (stub)."));
                    continue;
                }
                List<String> ids = new ArrayList<>();
                while (count < wanted && ids.size() < room) {
                    String id = state.launch(o.get("InstanceType"), zone, subnetId, o.getOrDefault("ImageId", imageId),
                            lifecycle, instanceTags, clock.instant()).id();
                    if (reservation != null) {
                        state.reservations().take(reservation);
                        state.reservations().holds(id, reservation);
                    }
                    ids.add(id);
                    count++;
                }
                launched.add(new FleetInstance(override, lifecycle, ids));
                if (count < wanted) {
                    // The pool ran dry part-way: EC2 reports it among the errors of a fleet it fulfils in part.
                    errors.add(new FleetError(override, lifecycle, "InsufficientInstanceCapacity", "There is no more "
                            + "capacity for " + o.get("InstanceType") + " in " + zone + " (stub)."));
                }
            }
        }
        Fleet fleet = new Fleet("fleet-" + UUID.randomUUID(), launched, errors);
        state.rememberFleet(token, new Ec2State.RememberedFleet(parameters, fleet));
        return Ec2Responses.createFleet(fleet);
    }

    /** Only what EC2 lists already: an instance within the describe lag is unknown to it, by id and by filter. */
    private StubResponse describeInstances(RecordedRequest q) {
        List<Instance> listed = state.describable(clock.instant());
        List<String> missing = missing(q.values("InstanceId"), listed.stream().map(Instance::id).toList());
        if (!missing.isEmpty()) {
            return Ec2Responses.error("InvalidInstanceID.NotFound",
                    "The instance IDs '" + String.join(", ", missing) + "' do not exist");
        }
        return Ec2Responses.describeInstances(select(listed, q, "InstanceId", "instance-id"),
                state.reservations()::reservationOf);
    }

    private StubResponse terminateInstances(RecordedRequest q) {
        List<String> ids = q.values("InstanceId");
        List<String> missing = missing(ids, state.instances().stream().map(Instance::id).toList());
        if (!missing.isEmpty()) {
            return Ec2Responses.error("InvalidInstanceID.NotFound",
                    "The instance IDs '" + String.join(", ", missing) + "' do not exist");
        }
        return Ec2Responses.terminateInstances(state.terminate(ids));
    }

    /**
     * CreateTags on instances, as EC2 applies it: every named instance must exist (else
     * {@code InvalidInstanceID.NotFound} and nothing is tagged), a key may not start with {@code aws:}
     * ({@code InvalidParameterValue}), at most {@value #MAX_TAGS} tags per resource ({@code TagLimitExceeded});
     * a key already present takes the new value. Other resource types are answered and left unchanged.
     */
    private StubResponse createTags(RecordedRequest q) {
        Map<String, String> tags = new LinkedHashMap<>();
        q.members("Tag").forEach(t -> tags.put(t.get("Key"), t.getOrDefault("Value", "")));
        if (tags.keySet().stream().anyMatch(k -> k.toLowerCase(java.util.Locale.ROOT).startsWith("aws:"))) {
            return Ec2Responses.error("InvalidParameterValue", "Tag keys starting with 'aws:' are reserved for internal use");
        }
        List<String> instanceIds = q.values("ResourceId").stream().filter(id -> id.startsWith("i-")).toList();
        List<String> missing = missing(instanceIds, state.instances().stream().map(Instance::id).toList());
        if (!missing.isEmpty()) {
            return Ec2Responses.error("InvalidInstanceID.NotFound",
                    "The instance IDs '" + String.join(", ", missing) + "' do not exist");
        }
        for (String id : instanceIds) {
            Map<String, String> merged = new LinkedHashMap<>(state.instance(id).orElseThrow().tags());
            merged.putAll(tags);
            if (merged.size() > MAX_TAGS) {
                return Ec2Responses.error("TagLimitExceeded", "The maximum number of Tags for a resource has been reached.");
            }
        }
        instanceIds.forEach(id -> state.tag(id, tags));
        return Ec2Responses.ok("CreateTags", x -> x.leaf("return", true));
    }

    private StubResponse describeOfferings(RecordedRequest q) {
        List<Map.Entry<String, String>> rows = new ArrayList<>();
        Map<String, List<String>> filters = q.filters();
        state.offerings().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> e.getValue().forEach(zone -> {
            if (matches(filters.get("instance-type"), e.getKey()) && matches(filters.get("location"), zone)) {
                rows.add(Map.entry(e.getKey(), zone));
            }
        }));
        return Ec2Responses.instanceTypeOfferings(rows);
    }

    private StubResponse describeSpotPrices(RecordedRequest q) {
        List<String> types = q.values("InstanceType");
        Map<String, List<String>> filters = q.filters();
        List<String[]> rows = new ArrayList<>();
        state.offerings().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> e.getValue().forEach(zone -> {
            boolean wanted = (types.isEmpty() || types.contains(e.getKey()))
                    && matches(filters.get("availability-zone"), zone)
                    && (q.param("AvailabilityZone") == null || q.param("AvailabilityZone").equals(zone));
            state.spotPrice(e.getKey(), zone).filter(p -> wanted).ifPresent(p -> rows.add(new String[]{e.getKey(), zone, p}));
        }));
        return Ec2Responses.spotPriceHistory(rows, clock.instant());
    }

    /** The tags of the {@code TagSpecification} for {@code resourceType}. */
    static Map<String, String> tags(RecordedRequest q, String resourceType) {
        Map<String, String> tags = new LinkedHashMap<>();
        for (int i = 1; q.param("TagSpecification." + i + ".ResourceType") != null; i++) {
            if (resourceType.equals(q.param("TagSpecification." + i + ".ResourceType"))) {
                q.members("TagSpecification." + i + ".Tag").forEach(t -> tags.put(t.get("Key"), t.get("Value")));
            }
        }
        return tags;
    }

    /** Resources named by the id list ({@code InstanceId.N}), if any, that pass every {@code Filter.N}. */
    static <T extends Filterable> List<T> select(List<T> all, RecordedRequest q, String idList, String idFilter) {
        List<String> ids = q.values(idList);
        Map<String, List<String>> filters = q.filters();
        return all.stream()
                .filter(r -> ids.isEmpty() || r.filterValues(idFilter).stream().anyMatch(ids::contains))
                .filter(r -> filters.entrySet().stream().allMatch(f ->
                        r.filterValues(f.getKey()).stream().anyMatch(v -> matches(f.getValue(), v))))
                .toList();
    }

    /** EC2 filter values are alternatives and may use the wildcards {@code *} and {@code ?}. */
    private static boolean matches(List<String> patterns, String value) {
        if (patterns == null) {
            return true;
        }
        return patterns.stream().anyMatch(p -> Pattern.compile(
                ("\\Q" + p + "\\E").replace("*", "\\E.*\\Q").replace("?", "\\E.\\Q")).matcher(value).matches());
    }

    static List<String> missing(List<String> asked, List<String> known) {
        return asked.stream().filter(id -> !known.contains(id)).toList();
    }
}
