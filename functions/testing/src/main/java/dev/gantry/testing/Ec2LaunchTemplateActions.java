package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.LaunchTemplate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The stub's launch-template actions (CreateLaunchTemplate, DescribeLaunchTemplates, DeleteLaunchTemplate) and what
 * it keeps of a template's data for the fleets that use it: its security groups, tag specifications, volume sizes,
 * primary interface, reservation target and placement group.
 */
final class Ec2LaunchTemplateActions {
    private final Ec2State state;
    private final Clock clock;

    Ec2LaunchTemplateActions(Ec2State state, Clock clock) {
        this.state = state;
        this.clock = clock;
    }

    /** Adds the three responders to {@code r}, by EC2 action name. */
    void addTo(Map<String, Responder> r) {
        r.put("CreateLaunchTemplate", this::createLaunchTemplate);
        r.put("DescribeLaunchTemplates", this::describeLaunchTemplates);
        r.put("DeleteLaunchTemplate", this::deleteLaunchTemplate);
    }

    /** EC2's user data limit, on the decoded bytes ("User data is limited to 16384 bytes"). */
    static final int MAX_USER_DATA = 16_384;

    /**
     * CreateLaunchTemplate as EC2 checks it: a taken name is {@code InvalidLaunchTemplateName.AlreadyExistsException};
     * user data that is not base64, or over {@value #MAX_USER_DATA} bytes once decoded, is
     * {@code InvalidUserData.Malformed} (EC2's words for the second; Karpenter reads them to mark its EC2NodeClass).
     */
    private StubResponse createLaunchTemplate(RecordedRequest q) {
        String name = q.param("LaunchTemplateName");
        String userData = q.param("LaunchTemplateData.UserData");
        if (userData != null) {
            int bytes;
            try {
                bytes = java.util.Base64.getDecoder().decode(userData).length;
            } catch (IllegalArgumentException e) {
                return Ec2Responses.error("InvalidUserData.Malformed", "Invalid BASE64 encoding of user data.");
            }
            if (bytes > MAX_USER_DATA) {
                return Ec2Responses.error("InvalidUserData.Malformed", "User data is limited to " + MAX_USER_DATA + " bytes");
            }
        }
        if (state.launchTemplates().stream().anyMatch(t -> t.name().equals(name))) {
            return Ec2Responses.error("InvalidLaunchTemplateName.AlreadyExistsException",
                    "Launch template name already in use.");
        }
        LaunchTemplate template = new LaunchTemplate(state.newId("lt"), name, 1,
                q.param("LaunchTemplateData.ImageId"), clock.instant(), Ec2Actions.tags(q, "launch-template"),
                q.param("LaunchTemplateData.IamInstanceProfile.Name"), templateGroups(q), templateTagSpecs(q),
                templateVolumeSizes(q), q.members("LaunchTemplateData.NetworkInterface").stream().findFirst()
                        .<Map<String, String>>map(m -> m).orElse(Map.of()));
        state.putLaunchTemplate(template);
        String target = q.param("LaunchTemplateData.CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId");
        if (target != null) {
            state.reservations().targetedBy(template.id(), target);
        }
        state.placementGroups().placedBy(template.id(), q.param("LaunchTemplateData.Placement.GroupId"));
        return Ec2Responses.ok("CreateLaunchTemplate", x -> Ec2Responses.launchTemplate(x, "launchTemplate", template));
    }

    private StubResponse describeLaunchTemplates(RecordedRequest q) {
        List<LaunchTemplate> all = state.launchTemplates();
        List<String> missing = Ec2Actions.missing(q.values("LaunchTemplateName"), all.stream().map(LaunchTemplate::name).toList());
        if (!missing.isEmpty()) {
            return Ec2Responses.error("InvalidLaunchTemplateName.NotFoundException",
                    "At least one of the launch templates specified in the request does not exist.");
        }
        List<LaunchTemplate> found = Ec2Actions.select(all, q, "LaunchTemplateId", "launch-template-id").stream()
                .filter(t -> q.values("LaunchTemplateName").isEmpty() || q.values("LaunchTemplateName").contains(t.name()))
                .toList();
        return Ec2Responses.ok("DescribeLaunchTemplates", x -> {
            x.open("launchTemplates");
            found.forEach(t -> Ec2Responses.launchTemplate(x, "item", t));
            x.close("launchTemplates");
        });
    }

    private StubResponse deleteLaunchTemplate(RecordedRequest q) {
        var template = state.launchTemplates().stream().filter(t -> t.id().equals(q.param("LaunchTemplateId"))
                || t.name().equals(q.param("LaunchTemplateName"))).findFirst();
        if (template.isEmpty()) {
            return q.param("LaunchTemplateId") != null
                    ? Ec2Responses.error("InvalidLaunchTemplateId.NotFound", "The specified launch template does not exist.")
                    : Ec2Responses.error("InvalidLaunchTemplateName.NotFoundException",
                            "The specified launch template, with template name " + q.param("LaunchTemplateName")
                                    + ", does not exist.");
        }
        state.removeLaunchTemplate(template.get().id());
        return Ec2Responses.ok("DeleteLaunchTemplate", x -> Ec2Responses.launchTemplate(x, "launchTemplate", template.get()));
    }

    /** The template's block device mappings that give a volume size: GiB by device name. */
    static Map<String, Integer> templateVolumeSizes(RecordedRequest q) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (SortedMap<String, String> m : q.members("LaunchTemplateData.BlockDeviceMapping")) {
            String size = m.get("Ebs.VolumeSize");
            if (m.get("DeviceName") != null && size != null) {
                sizes.put(m.get("DeviceName"), Integer.parseInt(size));
            }
        }
        return sizes;
    }

    /** The security groups of a template's data, given directly or on its primary network interface. */
    static List<String> templateGroups(RecordedRequest q) {
        List<String> groups = new ArrayList<>(q.values("LaunchTemplateData.SecurityGroupId"));
        groups.addAll(q.values("LaunchTemplateData.NetworkInterface.1.SecurityGroupId"));
        return groups;
    }

    /** The template data's tag specifications: tags by resource type. */
    static Map<String, Map<String, String>> templateTagSpecs(RecordedRequest q) {
        Map<String, Map<String, String>> byType = new LinkedHashMap<>();
        String prefix = "LaunchTemplateData.TagSpecification.";
        for (int i = 1; q.param(prefix + i + ".ResourceType") != null; i++) {
            Map<String, String> tags = byType.computeIfAbsent(q.param(prefix + i + ".ResourceType"),
                    t -> new LinkedHashMap<>());
            q.members(prefix + i + ".Tag").forEach(t -> tags.put(t.get("Key"), t.get("Value")));
        }
        return byType;
    }
}
