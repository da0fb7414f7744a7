package dev.gantry.core.cloud;

import java.time.Instant;
import java.util.Map;

/**
 * An instance as the cloud reports it.
 *
 * @param state pending, running, stopping, stopped, shutting-down or terminated
 * @param tags  its tags, including Gantry's cluster, nodepool and nodeclaim tags
 * @param imageId          the AMI it runs, or null when not reported
 * @param subnetId         the subnet of its primary interface, or null when not reported
 * @param securityGroupIds the security groups of its interfaces (empty when not reported): with the image and subnet,
 *                         what dynamic drift compares with what its NodeClass selects now
 */
public record CloudInstance(String instanceId, String instanceType, String zone, String capacityType, String state,
                            Instant launchTime, String privateDnsName, Map<String, String> tags, String imageId,
                            String subnetId, java.util.List<String> securityGroupIds) {
    public static final String TAG_CLUSTER = "gantry.dev/cluster";
    public static final String TAG_NODEPOOL = "gantry.dev/nodepool";
    public static final String TAG_NODECLAIM = "gantry.dev/nodeclaim";
    /**
     * The launch token (the CreateFleet ClientToken) on every instance a launch of several produced: such instances
     * carry no {@link #TAG_NODECLAIM}, since one CreateFleet tags all its instances alike; the claims that share the
     * token say which instance is whose.
     */
    public static final String TAG_LAUNCH = "gantry.dev/launch";

    public CloudInstance {
        tags = Map.copyOf(tags == null ? Map.of() : tags);
        securityGroupIds = java.util.List.copyOf(securityGroupIds == null ? java.util.List.of() : securityGroupIds);
    }

    /** An instance whose image, subnet and security groups are not reported. */
    public CloudInstance(String instanceId, String instanceType, String zone, String capacityType, String state,
                         Instant launchTime, String privateDnsName, Map<String, String> tags) {
        this(instanceId, instanceType, zone, capacityType, state, launchTime, privateDnsName, tags, null, null, null);
    }

    public boolean isGone() {
        return "terminated".equals(state) || "shutting-down".equals(state);
    }

    /** The Kubernetes provider id the node will carry: {@code aws:///<zone>/<instance-id>}. */
    public String providerId() {
        return "aws:///" + zone + "/" + instanceId;
    }
}
