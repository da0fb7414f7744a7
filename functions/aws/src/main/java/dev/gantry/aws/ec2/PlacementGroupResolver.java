package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass.PlacementGroupSelector;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.PlacementGroup;

/**
 * The placement group an EC2NodeClass's {@code placementGroupSelector} names, as Karpenter v1.14 resolves it (aws
 * {@code pkg/providers/placementgroup}): DescribePlacementGroups by name or id, {@code available} groups only, cached
 * for a minute (a group not found too). A name EC2 does not list, or an id it does not know
 * ({@code InvalidPlacementGroup.Unknown}), is no group.
 */
public final class PlacementGroupResolver {
    /** A group: its {@code pg-…} id, name and strategy ({@code cluster}, {@code partition} or {@code spread}). */
    public record Group(String id, String name, String strategy) {
    }

    private final Ec2Client ec2;
    private final TtlCache<PlacementGroupSelector, Optional<Group>> cache;

    public PlacementGroupResolver(Ec2Client ec2, Clock clock) {
        this.ec2 = ec2;
        this.cache = new TtlCache<>(clock, Duration.ofMinutes(1));
    }

    /** The selected group, empty when none is listed. @throws dev.gantry.core.cloud.CloudException on failure */
    public Optional<Group> resolve(PlacementGroupSelector selector) {
        return cache.get(selector, this::describe);
    }

    private Optional<Group> describe(PlacementGroupSelector selector) {
        Filter available = Filter.builder().name("state").values("available").build();
        List<PlacementGroup> found;
        try {
            found = selector.id() != null
                    ? ec2.describePlacementGroups(r -> r.groupIds(selector.id()).filters(available)).placementGroups()
                    : ec2.describePlacementGroups(r -> r.filters(available,
                            Filter.builder().name("group-name").values(selector.name()).build())).placementGroups();
        } catch (SdkException e) {
            if (Ec2Errors.code(e).startsWith("InvalidPlacementGroup")) {
                return Optional.empty();
            }
            throw Ec2Errors.toCloud("DescribePlacementGroups", e);
        }
        return found.stream().findFirst().map(g -> new Group(g.groupId(), g.groupName(), g.strategyAsString()));
    }
}
