package dev.gantry.testing;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The images the stub's EC2 refuses to launch, with EC2's error code: a deregistered image
 * ({@code InvalidAMIID.NotFound}: EC2 no longer knows it, though instances launched from it run on). CreateFleet
 * (type instant) reports the code among the fleet's errors, for each override of a template on that image, and
 * launches nothing from it.
 *
 * <p>Not modelled: {@code InvalidAMIID.Malformed} (an id that is not an AMI id: the tests' ids are not all real-shaped),
 * {@code InvalidAMIID.Unavailable} (an image in a failed or pending state), images not shared with the account, and
 * ids that were never registered (the stub launches any other id: tests name images freely).
 */
final class Ec2ImageRefusals {
    private final Set<String> deregistered = new HashSet<>();

    void deregister(String imageId) {
        deregistered.add(imageId);
    }

    /** EC2's error code for a launch from {@code imageId}, or empty when it launches. */
    Optional<String> refusal(String imageId) {
        return imageId != null && deregistered.contains(imageId) ? Optional.of("InvalidAMIID.NotFound") : Optional.empty();
    }
}
