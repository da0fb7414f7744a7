package dev.gantry.simulator.world.aws;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.LaunchRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One simulated EC2 instance. Mutable (its state moves), but only {@link SimulatedCloud} changes it; everyone else
 * sees {@link #view()}.
 *
 * @see SimulatedCloud
 */
public final class SimulatedInstance {
    final String id;
    final InstanceType type;
    final String zone;
    final String capacityType;
    final double pricePerHour;
    final Instant launchTime;
    final String dnsName;
    /** Its tags: set at launch, added to by CreateTags (adoption). */
    Map<String, String> tags;
    /** What it was launched with (null for instances the simulation seeds, such as an unmanaged one). */
    final LaunchRequest request;
    /** The node labels its launch template's user data hands the kubelet. */
    final Map<String, String> userDataLabels;
    String state = "pending";
    Instant endedAt;
    String endCause;

    SimulatedInstance(String id, InstanceType type, String zone, String capacityType, double pricePerHour, Instant launchTime,
                String dnsName, Map<String, String> tags, LaunchRequest request, Map<String, String> userDataLabels) {
        this.id = id;
        this.type = type;
        this.zone = zone;
        this.capacityType = capacityType;
        this.pricePerHour = pricePerHour;
        this.launchTime = launchTime;
        this.dnsName = dnsName;
        this.tags = Map.copyOf(tags);
        this.request = request;
        this.userDataLabels = Map.copyOf(userDataLabels);
    }

    /** The image, subnet and security group it was launched into (null image for a seeded instance). */
    String imageId;
    String subnetId;

    public CloudInstance view() {
        return new CloudInstance(id, type.name(), zone, capacityType, state, launchTime, dnsName, tags, imageId, subnetId,
                subnetId == null ? List.of() : List.of(SimulatedCloud.SECURITY_GROUP));
    }

    public String imageId() { return imageId; }

    public String id() { return id; }
    public InstanceType type() { return type; }
    public String zone() { return zone; }
    public String capacityType() { return capacityType; }
    public double pricePerHour() { return pricePerHour; }
    public String state() { return state; }
    public Instant launchTime() { return launchTime; }
    /** When it began to shut down or stop, or null while alive. */
    public Instant endedAt() { return endedAt; }
    /** Why it ended ({@code api}, {@code spot-reclaim}, {@code capacity-block-end}…), or null while alive. */
    public String endCause() { return endCause; }
    public String dnsName() { return dnsName; }
    public Map<String, String> tags() { return tags; }
    public LaunchRequest request() { return request; }
    public Map<String, String> userDataLabels() { return userDataLabels; }

    /** Pending or running: costing money and (once registered) able to run pods. */
    public boolean isAlive() {
        return state.equals("pending") || state.equals("running");
    }

    public String providerId() {
        return "aws:///" + zone + "/" + id;
    }
}
