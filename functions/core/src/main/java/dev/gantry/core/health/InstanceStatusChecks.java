package dev.gantry.core.health;

import java.util.List;

/**
 * EC2's status checks, read the cheap way (Karpenter's {@code instancestatus} provider, aws
 * {@code pkg/providers/instancestatus/instancestatus.go}, v1.12+): three server-side filtered, paginated
 * DescribeInstanceStatus listings (instance status impaired; system status impaired; a scheduled event of the codes in
 * {@link #EVENT_CODES}), merged by instance. A healthy fleet of 1,000 costs three requests, each answered empty.
 *
 * <p>Contract: every instance of the account and region with a failed check or such an event, this cluster's or not
 * (DescribeInstanceStatus filters by neither tag nor cluster: the caller keeps its own); each instance once. Errors: a
 * {@link dev.gantry.core.cloud.CloudException}, retryable when throttled ({@code RequestLimitExceeded}) or on a 5xx,
 * not when denied ({@code UnauthorizedOperation}). The implementation paces its requests under EC2's token bucket for
 * the action and stops paging (failing retryable) rather than drain it.
 */
public interface InstanceStatusChecks {
    /** The event codes that vacate a node (Karpenter's filter). */
    List<String> EVENT_CODES = List.of("instance-reboot", "system-reboot", "system-maintenance", "instance-retirement",
            "instance-stop");

    List<InstanceHealth> unhealthy();
}
