package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass.SelectorTerm;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;

/** The security groups a NodeClass selects (by id, group name or tags), cached for a minute. */
public final class SecurityGroupResolver {
    /** A selected group: its id and its name (what the EC2NodeClass status lists, as Karpenter's does). */
    public record Group(String id, String name) {
    }

    private final Ec2Client ec2;
    private final TtlCache<List<SelectorTerm>, List<Group>> cache;

    public SecurityGroupResolver(Ec2Client ec2, Clock clock) {
        this.ec2 = ec2;
        this.cache = new TtlCache<>(clock, Duration.ofMinutes(1));
    }

    /** The selected group ids, sorted. @throws dev.gantry.core.cloud.CloudException on failure */
    public List<String> groupIds(List<SelectorTerm> terms) {
        return groups(terms).stream().map(Group::id).toList();
    }

    /** The selected groups, sorted by id (the same lookup and cache as {@link #groupIds}). */
    public List<Group> groups(List<SelectorTerm> terms) {
        return cache.get(List.copyOf(terms), this::describe);
    }

    private List<Group> describe(List<SelectorTerm> terms) {
        TreeMap<String, Group> byId = new TreeMap<>();
        try {
            for (SelectorTerm term : terms) {
                var filters = SelectorFilters.of(term, "group-id", "group-name");
                for (SecurityGroup g : ec2.describeSecurityGroupsPaginator(r -> r.filters(filters)).securityGroups()) {
                    byId.put(g.groupId(), new Group(g.groupId(), g.groupName()));
                }
            }
        } catch (SdkException e) {
            throw Ec2Errors.toCloud("DescribeSecurityGroups", e);
        }
        return List.copyOf(byId.values());
    }
}
