package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudInstance;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Tag;

/** Turns EC2's view of an instance into the port's {@link CloudInstance}. */
final class Instances {
    private Instances() {}

    static CloudInstance toCloud(Instance i) {
        Map<String, String> tags = new TreeMap<>();
        for (Tag t : i.tags()) {
            tags.put(t.key(), t.value());
        }
        // Karpenter's capacityTypeFromInstance (aws pkg/providers/instance/types.go): spot, else reserved while the
        // instance is in a reservation it was launched to target (capacity-reservations-only), else on-demand.
        boolean reserved = i.capacityReservationId() != null && i.capacityReservationSpecification() != null
                && i.capacityReservationSpecification().capacityReservationPreference()
                == software.amazon.awssdk.services.ec2.model.CapacityReservationPreference.CAPACITY_RESERVATIONS_ONLY;
        String capacityType = "spot".equals(i.instanceLifecycleAsString()) ? "spot" : reserved ? "reserved" : "on-demand";
        // What dynamic drift compares with what the NodeClass selects now: image, subnet, security groups.
        return new CloudInstance(i.instanceId(), i.instanceTypeAsString(),
                i.placement() == null ? null : i.placement().availabilityZone(), capacityType,
                i.state() == null ? null : i.state().nameAsString(), i.launchTime(), i.privateDnsName(), tags,
                i.imageId(), i.subnetId(), i.securityGroups().stream().map(g -> g.groupId()).toList());
    }
}
