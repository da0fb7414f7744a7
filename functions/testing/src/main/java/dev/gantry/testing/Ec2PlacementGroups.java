package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.Filterable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * EC2 placement groups as the stub's account has them: DescribePlacementGroups by {@code GroupId.N} (an id EC2 does
 * not know is {@code InvalidPlacementGroup.Unknown} for the whole call), {@code GroupName.N} (likewise) and the
 * filters {@code group-name}, {@code state}, {@code strategy}; and the group a launch template places its instances
 * in ({@code Placement.GroupId}), which fails each override of a fleet when the group is unknown or not
 * {@code available}. Not modelled: the groups' capacity (a cluster group's single zone and its
 * {@code InsufficientInstanceCapacity}, a spread group's seven instances per zone, partitions) and which types a
 * strategy supports.
 */
public final class Ec2PlacementGroups {
    /** A placement group: {@code strategy} cluster, partition or spread; {@code state} available, pending, deleting… */
    public record PlacementGroup(String id, String name, String strategy, String state) implements Filterable {
        @Override public Map<String, String> tags() { return Map.of(); }

        @Override public List<String> attribute(String filterName) {
            return switch (filterName) {
                case "group-id" -> List.of(id);
                case "group-name" -> List.of(name);
                case "state" -> List.of(state);
                case "strategy" -> List.of(strategy);
                default -> List.of();
            };
        }
    }

    private final Map<String, PlacementGroup> byId = new TreeMap<>();
    private final Map<String, String> groupOfTemplate = new HashMap<>();

    public synchronized Ec2PlacementGroups add(PlacementGroup group) {
        byId.put(group.id(), group);
        return this;
    }

    synchronized StubResponse describe(RecordedRequest q) {
        List<PlacementGroup> all = List.copyOf(byId.values());
        for (String id : q.values("GroupId")) {
            if (!byId.containsKey(id)) {
                return Ec2Responses.error("InvalidPlacementGroup.Unknown", "The Placement Group '" + id + "' is unknown.");
            }
        }
        List<String> names = q.values("GroupName");
        for (String name : names) {
            if (all.stream().noneMatch(g -> g.name().equals(name))) {
                return Ec2Responses.error("InvalidPlacementGroup.Unknown", "The Placement Group '" + name + "' is unknown.");
            }
        }
        List<PlacementGroup> found = Ec2Actions.select(all, q, "GroupId", "group-id").stream()
                .filter(g -> names.isEmpty() || names.contains(g.name())).toList();
        return Ec2Responses.ok("DescribePlacementGroups", x -> {
            x.open("placementGroupSet");
            for (PlacementGroup g : found) {
                x.open("item").leaf("groupName", g.name()).leaf("groupId", g.id()).leaf("state", g.state())
                        .leaf("strategy", g.strategy()).leaf("groupArn", "arn:aws:ec2:us-east-1:" + Ec2State.ACCOUNT
                                + ":placement-group/" + g.name()).close("item");
            }
            x.close("placementGroupSet");
        });
    }

    /** CreateLaunchTemplate's {@code Placement.GroupId}, remembered for the fleets that use the template. */
    synchronized void placedBy(String templateId, String groupId) {
        if (groupId != null) {
            groupOfTemplate.put(templateId, groupId);
        }
    }

    /** The group a template places its instances in, if any. */
    public synchronized Optional<String> groupOf(String templateId) {
        return Optional.ofNullable(groupOfTemplate.get(templateId));
    }

    /** Why a launch from this template fails each override (its group unknown or not available), or empty. */
    synchronized Optional<String> refusal(String templateId) {
        String id = groupOfTemplate.get(templateId);
        if (id == null) {
            return Optional.empty();
        }
        PlacementGroup g = byId.get(id);
        return g != null && "available".equals(g.state()) ? Optional.empty()
                : Optional.of("The Placement Group '" + id + "' is unknown.");
    }
}
