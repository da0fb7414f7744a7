package dev.gantry.core.cloud;

/**
 * The cloud refused a launch because of its image: the AMI was deregistered, is not available or not shared with the
 * account, or its id is malformed (EC2's {@code InvalidAMIID.NotFound}, {@code InvalidAMIID.Unavailable},
 * {@code InvalidAMIID.Malformed}). Not retryable: the same launch fails the same way. Unlike
 * {@link InsufficientCapacity}, it is the image's fault, so it counts against an AMI rollout's canary.
 */
public final class ImageRefused extends CloudException {
    public ImageRefused(String code, String message) {
        super(code, message, false);
    }
}
