package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Every EC2 error code Gantry reacts to, sorted in one place. Fleet errors (in CreateFleet's {@code errorSet}) and
 * exceptions (a whole call failing) both pass through here, so "what do we do about X" has one answer.
 */
public final class Ec2Errors {
    /** What the launcher does about an error. */
    public enum Kind {
        /** The offering (type, zone, capacity type) has no capacity now: mark it unavailable for 3 minutes. */
        OFFERING_UNAVAILABLE,
        /** The subnet ran out of addresses: skip it for 3 minutes. */
        SUBNET_FULL,
        /** Throttled or a server fault: the same call may succeed later (retried through SQS after the SDK). */
        RETRYABLE,
        /** The resource is already gone (terminate, describe): not an error for idempotent calls. */
        NOT_FOUND,
        /** Created concurrently by someone else (launch templates): treat as success. */
        ALREADY_EXISTS,
        /** A ClientToken was reused with different parameters: the claim's instance was launched earlier. */
        TOKEN_REUSED,
        /**
         * The launch's image was refused: deregistered or not shared ({@code InvalidAMIID.NotFound}), not available
         * ({@code InvalidAMIID.Unavailable}), or a malformed id ({@code InvalidAMIID.Malformed}); Karpenter v1.14.1 names
         * NotFound and Malformed ({@code ToReasonMessage}, pkg/errors/errors.go). Not retryable; the image's fault.
         */
        IMAGE_REFUSED,
        /** Anything else: a configuration or permission problem a retry will not fix. */
        FATAL
    }

    // Karpenter's list of "unfulfillable capacity" fleet errors (pkg/errors), with ReservationCapacityExceeded: a
    // reservation with no slot left, whose (type, zone, reserved) offering is marked unavailable like any other.
    private static final Set<String> CAPACITY = Set.of("InsufficientInstanceCapacity", "MaxSpotInstanceCountExceeded",
            "VcpuLimitExceeded", "UnfulfillableCapacity", "Unsupported", "SpotMaxPriceTooLow", "ReservationCapacityExceeded");
    private static final Set<String> RETRYABLE = Set.of("RequestLimitExceeded", "Throttling", "ThrottlingException",
            "InternalError", "InternalFailure", "ServiceUnavailable", "Unavailable");
    private static final Set<String> NOT_FOUND = Set.of("InvalidInstanceID.NotFound", "InvalidInstanceID.Malformed",
            "InvalidLaunchTemplateName.NotFoundException", "InvalidLaunchTemplateId.NotFound", "ParameterNotFound",
            "InvalidCapacityReservationId.NotFound");
    private static final Set<String> ALREADY_EXISTS = Set.of("InvalidLaunchTemplateName.AlreadyExistsException");
    private static final Set<String> IMAGE = Set.of("InvalidAMIID.NotFound", "InvalidAMIID.Unavailable", "InvalidAMIID.Malformed");

    private Ec2Errors() {}

    public static Kind classify(String code) {
        if (code == null) {
            return Kind.FATAL;
        }
        if (CAPACITY.contains(code)) {
            return Kind.OFFERING_UNAVAILABLE;
        }
        if ("InsufficientFreeAddressesInSubnet".equals(code)) {
            return Kind.SUBNET_FULL;
        }
        if (RETRYABLE.contains(code)) {
            return Kind.RETRYABLE;
        }
        if (NOT_FOUND.contains(code)) {
            return Kind.NOT_FOUND;
        }
        if ("IdempotentParameterMismatch".equals(code)) {
            return Kind.TOKEN_REUSED;
        }
        if (IMAGE.contains(code)) {
            return Kind.IMAGE_REFUSED;
        }
        return ALREADY_EXISTS.contains(code) ? Kind.ALREADY_EXISTS : Kind.FATAL;
    }

    /** The error code of an SDK exception: the service's code, or a synthetic one for client-side failures. */
    public static String code(SdkException e) {
        if (e instanceof AwsServiceException ase && ase.awsErrorDetails() != null
                && ase.awsErrorDetails().errorCode() != null) {
            return ase.awsErrorDetails().errorCode();
        }
        if (e instanceof AwsServiceException ase && ase.statusCode() >= 500) {
            return "InternalError";
        }
        return e instanceof SdkClientException ? "ClientError" : "Unknown";
    }

    public static Kind classify(SdkException e) {
        if (e instanceof SdkClientException) {
            return Kind.RETRYABLE; // connection reset, timeout: the SDK already retried
        }
        if (e instanceof AwsServiceException ase && (ase.isThrottlingException() || ase.statusCode() >= 500)) {
            return Kind.RETRYABLE;
        }
        return classify(code(e));
    }

    /** The port's exception for a failed call; {@code what} names the call for the message. */
    public static CloudException toCloud(String what, SdkException e) {
        String code = code(e);
        String message = e instanceof AwsServiceException ase && ase.awsErrorDetails() != null
                ? ase.awsErrorDetails().errorMessage() : e.getMessage();
        if (classify(e) == Kind.IMAGE_REFUSED) {
            return new dev.gantry.core.cloud.ImageRefused(code, what + ": " + message);
        }
        boolean retryable = switch (classify(e)) {
            case RETRYABLE, OFFERING_UNAVAILABLE, SUBNET_FULL -> true;
            default -> false;
        };
        return new CloudException(code, what + ": " + message, retryable);
    }
}
