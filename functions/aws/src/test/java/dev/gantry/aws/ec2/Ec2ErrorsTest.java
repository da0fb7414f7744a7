package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.aws.ec2.Ec2Errors.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.ec2.model.Ec2Exception;

/** The one table of EC2 error codes and what Gantry does about each. */
class Ec2ErrorsTest {
    @ParameterizedTest
    @CsvSource({
            "InsufficientInstanceCapacity, OFFERING_UNAVAILABLE",
            "MaxSpotInstanceCountExceeded, OFFERING_UNAVAILABLE",
            "VcpuLimitExceeded, OFFERING_UNAVAILABLE",
            "UnfulfillableCapacity, OFFERING_UNAVAILABLE",
            "Unsupported, OFFERING_UNAVAILABLE",
            "InsufficientFreeAddressesInSubnet, SUBNET_FULL",
            "RequestLimitExceeded, RETRYABLE",
            "InvalidInstanceID.NotFound, NOT_FOUND",
            "InvalidLaunchTemplateName.AlreadyExistsException, ALREADY_EXISTS",
            "IdempotentParameterMismatch, TOKEN_REUSED",
            "InvalidAMIID.NotFound, IMAGE_REFUSED",
            "InvalidAMIID.Unavailable, IMAGE_REFUSED",
            "InvalidAMIID.Malformed, IMAGE_REFUSED",
            "UnauthorizedOperation, FATAL",
            "InvalidParameterValue, FATAL"})
    void sortsEachCode(String code, Kind kind) {
        assertThat(Ec2Errors.classify(code)).isEqualTo(kind);
    }

    @ParameterizedTest
    @CsvSource({"RequestLimitExceeded, 503, true", "InternalError, 500, true", "UnauthorizedOperation, 403, false",
            "InsufficientInstanceCapacity, 400, true"})
    void exceptionsBecomeCloudExceptionsThatSayWhetherToRetry(String code, int status, boolean retryable) {
        Ec2Exception e = (Ec2Exception) Ec2Exception.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("m").build()).build();

        var cloud = Ec2Errors.toCloud("CreateFleet", e);

        assertThat(cloud.code()).isEqualTo(code);
        assertThat(cloud.retryable()).isEqualTo(retryable);
        assertThat(cloud.getMessage()).contains("CreateFleet: m");
    }

    /**
     * Gantry's own: an image EC2 refuses (aws/karpenter-provider-aws v1.14.1 pkg/errors/errors.go ToReasonMessage names
     * InvalidAMIID.NotFound and InvalidAMIID.Malformed) is the port's ImageRefused, not retried, not a capacity failure.
     */
    @org.junit.jupiter.api.Test
    void aRefusedImageIsThePortsImageRefused() {
        Ec2Exception e = (Ec2Exception) Ec2Exception.builder().statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("InvalidAMIID.NotFound")
                        .errorMessage("The image id '[ami-0abc]' does not exist").build()).build();

        var cloud = Ec2Errors.toCloud("CreateFleet", e);

        assertThat(cloud).isInstanceOf(dev.gantry.core.cloud.ImageRefused.class);
        assertThat(cloud.retryable()).isFalse();
        assertThat(cloud.code()).isEqualTo("InvalidAMIID.NotFound");
    }
}
