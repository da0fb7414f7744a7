package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.KarpenterTags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * Describe and terminate Gantry's instances, always scoped by the cluster tag; list this cluster's Karpenter's
 * instances (for adoption) and tag one.
 */
final class Ec2Instances {
    private static final List<String> LIVE_STATES = List.of("pending", "running", "stopping", "stopped", "shutting-down");

    private final Ec2Client ec2;
    private final String cluster;

    Ec2Instances(Ec2Client ec2, String cluster) {
        this.ec2 = ec2;
        this.cluster = cluster;
    }

    List<CloudInstance> list() {
        return query(List.of(clusterFilter(), SelectorFilters.filter("instance-state-name", LIVE_STATES.toArray(String[]::new))));
    }

    /**
     * The live instances this cluster's Karpenter launched: {@code kubernetes.io/cluster/<cluster>=owned} with a
     * {@code karpenter.sh/nodepool} tag, the pair Karpenter's own IAM policy scopes its writes on (and Gantry's
     * adoption grant too), so every instance listed is one adoption may retag.
     */
    List<CloudInstance> karpenters() {
        return query(List.of(SelectorFilters.filter("tag:" + KarpenterTags.clusterKey(cluster), KarpenterTags.OWNED),
                SelectorFilters.filter("tag-key", KarpenterTags.NODEPOOL),
                SelectorFilters.filter("instance-state-name", LIVE_STATES.toArray(String[]::new))));
    }

    /** CreateTags on one instance; an unknown id or a denied call is not retryable. */
    void tag(String instanceId, Map<String, String> tags) {
        try {
            ec2.createTags(r -> r.resources(instanceId).tags(new TreeMap<>(tags).entrySet().stream()
                    .map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build()).toList()));
        } catch (SdkException e) {
            throw Ec2Errors.toCloud("CreateTags", e);
        }
    }

    Optional<CloudInstance> byClaim(String claim) {
        return query(List.of(clusterFilter(), SelectorFilters.filter("tag:" + CloudInstance.TAG_NODECLAIM, claim),
                SelectorFilters.filter("instance-state-name", LIVE_STATES.toArray(String[]::new)))).stream().findFirst();
    }

    /** The live instances a launch of several produced, by its launch token. */
    List<CloudInstance> byLaunch(String token) {
        return query(List.of(clusterFilter(), SelectorFilters.filter("tag:" + CloudInstance.TAG_LAUNCH, token),
                SelectorFilters.filter("instance-state-name", LIVE_STATES.toArray(String[]::new))));
    }

    Optional<CloudInstance> describe(String instanceId) {
        try {
            return ec2.describeInstances(r -> r.instanceIds(instanceId)).reservations().stream()
                    .flatMap(r -> r.instances().stream()).findFirst().map(Instances::toCloud);
        } catch (SdkException e) {
            if (Ec2Errors.classify(e) == Ec2Errors.Kind.NOT_FOUND) {
                return Optional.empty();
            }
            throw Ec2Errors.toCloud("DescribeInstances", e);
        }
    }

    /** Idempotent: unknown ids are skipped (one bad id fails EC2's whole call, so the rest are retried one by one). */
    void terminate(List<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            ec2.terminateInstances(r -> r.instanceIds(ids));
        } catch (SdkException e) {
            if (Ec2Errors.classify(e) != Ec2Errors.Kind.NOT_FOUND) {
                throw Ec2Errors.toCloud("TerminateInstances", e);
            }
            if (ids.size() > 1) {
                ids.forEach(id -> terminate(List.of(id)));
            }
        }
    }

    private List<CloudInstance> query(List<Filter> filters) {
        List<CloudInstance> out = new ArrayList<>();
        try {
            for (Reservation r : ec2.describeInstancesPaginator(b -> b.filters(filters)).reservations()) {
                for (Instance i : r.instances()) {
                    out.add(Instances.toCloud(i));
                }
            }
        } catch (SdkException e) {
            throw Ec2Errors.toCloud("DescribeInstances", e);
        }
        return out;
    }

    private Filter clusterFilter() {
        return SelectorFilters.filter("tag:" + CloudInstance.TAG_CLUSTER, cluster);
    }
}
