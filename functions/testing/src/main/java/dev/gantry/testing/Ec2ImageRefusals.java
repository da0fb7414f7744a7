package dev.gantry.testing;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The launches the stub's EC2 refuses for their image, with EC2's error: a deregistered image
 * ({@code InvalidAMIID.NotFound}: EC2 no longer knows it, though instances launched from it run on), and a block device
 * mapping that gives the image's snapshot device a volume smaller than the snapshot ({@code InvalidBlockDeviceMapping},
 * "Volume of size 2GB is smaller than snapshot 'snap-…', expect size >= 4GB": EC2's words, as Karpenter's users quote
 * them for a Bottlerocket NVIDIA image under a 2Gi {@code /dev/xvda}, aws/karpenter-provider-aws#2400 and #5283).
 * CreateFleet (type instant) reports either among the fleet's errors, for each override of a template on that image,
 * and launches nothing from it. An override whose instance type's architecture is not the image's is refused the same
 * way ({@code InvalidParameterValue}, "The architecture 'x86_64' of the specified instance type does not match the
 * architecture 'arm64' of the specified AMI…", as EC2 words it).
 *
 * <p>Not modelled: {@code InvalidAMIID.Malformed} (an id that is not an AMI id: the tests' ids are not all real-shaped),
 * {@code InvalidAMIID.Unavailable} (an image in a failed or pending state), images not shared with the account, ids
 * that were never registered (the stub launches any other id: tests name images freely), and snapshots of devices
 * other than the one registered per image (an image's data-volume snapshot, a {@code snapshotId} in the mapping).
 */
final class Ec2ImageRefusals {
    /** An image's snapshot on one device. */
    record Snapshot(String deviceName, String snapshotId, int sizeGiB) {
    }

    private final Set<String> deregistered = new HashSet<>();
    private final Map<String, Snapshot> snapshots = new HashMap<>();

    void deregister(String imageId) {
        deregistered.add(imageId);
    }

    void snapshot(String imageId, Snapshot snapshot) {
        snapshots.put(imageId, snapshot);
    }

    /** EC2's error code for a launch from {@code imageId}, or empty when it launches. */
    Optional<String> refusal(String imageId) {
        return imageId != null && deregistered.contains(imageId) ? Optional.of("InvalidAMIID.NotFound") : Optional.empty();
    }

    /**
     * EC2's {@code InvalidBlockDeviceMapping} message for a launch from {@code imageId} whose template gives its
     * snapshot's device a smaller volume ({@code volumeSizes}: GiB by device name), or empty. A device the template
     * leaves out gets the snapshot's size, as on EC2.
     */
    Optional<String> volumeRefusal(String imageId, Map<String, Integer> volumeSizes) {
        Snapshot s = imageId == null ? null : snapshots.get(imageId);
        Integer size = s == null ? null : volumeSizes.get(s.deviceName());
        if (size == null || size >= s.sizeGiB()) {
            return Optional.empty();
        }
        return Optional.of("Volume of size " + size + "GB is smaller than snapshot '" + s.snapshotId() + "', expect size >= "
                + s.sizeGiB() + "GB");
    }

    /** EC2's words for launching a type of {@code typeArch} from an image of {@code imageArch}, or empty when they match. */
    static Optional<String> architectureRefusal(String typeArch, String imageArch) {
        if (typeArch == null || imageArch == null || typeArch.equals(imageArch)) {
            return Optional.empty();
        }
        return Optional.of("The architecture '" + typeArch + "' of the specified instance type does not match the "
                + "architecture '" + imageArch + "' of the specified AMI. Specify an instance type and an AMI that have "
                + "matching architectures, and try again. You can use 'describe-instance-types' or 'describe-images' to "
                + "discover the architecture of the instance type or AMI.");
    }
}
