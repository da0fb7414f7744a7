package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass.SelectorTerm;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;

/** The security group ids a NodeClass selects (by id, group name or tags), cached for a minute. */
public final class SecurityGroupResolver {
    private final Ec2Client ec2;
    private final TtlCache<List<SelectorTerm>, List<String>> cache;

    public SecurityGroupResolver(Ec2Client ec2, Clock clock) {
        this.ec2 = ec2;
        this.cache = new TtlCache<>(clock, Duration.ofMinutes(1));
    }

    /** The selected group ids, sorted. @throws dev.gantry.core.cloud.CloudException on failure */
    public List<String> groupIds(List<SelectorTerm> terms) {
        return cache.get(List.copyOf(terms), this::describe);
    }

    private List<String> describe(List<SelectorTerm> terms) {
        TreeSet<String> ids = new TreeSet<>();
        try {
            for (SelectorTerm term : terms) {
                var filters = SelectorFilters.of(term, "group-id", "group-name");
                for (SecurityGroup g : ec2.describeSecurityGroupsPaginator(r -> r.filters(filters)).securityGroups()) {
                    ids.add(g.groupId());
                }
            }
        } catch (SdkException e) {
            throw Ec2Errors.toCloud("DescribeSecurityGroups", e);
        }
        return List.copyOf(ids);
    }
}
