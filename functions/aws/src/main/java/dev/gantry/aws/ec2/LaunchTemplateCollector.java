package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudInstance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.LaunchTemplate;

/**
 * Deletes this cluster's launch templates that nothing uses any more. Templates are named by a hash of their whole
 * content ({@link LaunchTemplateSpec}), so every new AMI release or NodeClass change adds one and the old ones would
 * pile up against the regional quota. A template goes when it is older than {@link #MIN_AGE} and no live instance of
 * the cluster was launched from it (EC2 tags each instance with {@value #LAUNCHED_FROM}). A template still current
 * but idle for a day goes too: the next launch recreates it, and a provisioner that cached its name recovers through
 * {@link LaunchTemplates#forget} when CreateFleet reports it missing. Runs at most once per {@link #EVERY}.
 */
public final class LaunchTemplateCollector {
    static final Duration MIN_AGE = Duration.ofDays(1);
    static final Duration EVERY = Duration.ofHours(1);
    static final String LAUNCHED_FROM = "aws:ec2launchtemplate:id";

    private final Ec2Client ec2;
    private final String cluster;
    private final Clock clock;
    private Instant lastRun;

    LaunchTemplateCollector(Ec2Client ec2, String cluster, Clock clock) {
        this.ec2 = ec2;
        this.cluster = cluster;
        this.clock = clock;
    }

    /** A template as the decision needs it. */
    record Template(String id, String name, Instant created) {
    }

    /** The decision: the templates to delete, given the ids live instances were launched from. */
    static List<Template> unused(List<Template> templates, Set<String> inUse, Instant now) {
        return templates.stream().filter(t -> !inUse.contains(t.id()))
                .filter(t -> t.created() != null && !t.created().plus(MIN_AGE).isAfter(now)).toList();
    }

    /**
     * Lists the cluster's templates, decides, deletes; skipped (returns 0) within {@link #EVERY} of the last run.
     *
     * @param liveInstances the cluster's instances that are not terminated, read only when the step runs
     * @return how many templates were deleted
     * @throws dev.gantry.core.cloud.CloudException when EC2 fails (the next sweep tries again)
     */
    public synchronized int collect(Supplier<List<CloudInstance>> liveInstances) {
        Instant now = clock.instant();
        if (lastRun != null && now.isBefore(lastRun.plus(EVERY))) {
            return 0;
        }
        List<Template> templates = new ArrayList<>();
        try {
            for (LaunchTemplate t : ec2.describeLaunchTemplatesPaginator(r -> r.filters(
                    SelectorFilters.filter("tag:" + CloudInstance.TAG_CLUSTER, cluster))).launchTemplates()) {
                templates.add(new Template(t.launchTemplateId(), t.launchTemplateName(), t.createTime()));
            }
        } catch (SdkException e) {
            throw Ec2Errors.toCloud("DescribeLaunchTemplates", e);
        }
        Set<String> inUse = liveInstances.get().stream().map(i -> i.tags().get(LAUNCHED_FROM))
                .filter(java.util.Objects::nonNull).collect(Collectors.toSet());
        int deleted = 0;
        for (Template t : unused(templates, inUse, now)) {
            try {
                ec2.deleteLaunchTemplate(r -> r.launchTemplateId(t.id()));
                deleted++;
            } catch (SdkException e) {
                if (Ec2Errors.classify(e) != Ec2Errors.Kind.NOT_FOUND) {
                    throw Ec2Errors.toCloud("DeleteLaunchTemplate", e);
                }
            }
        }
        lastRun = now;
        return deleted;
    }
}
