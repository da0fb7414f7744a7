package dev.gantry.aws.localstack;

import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** The LocalStack container the suite's classes share the settings of (each class starts its own). */
final class LocalStackStack {
    private LocalStackStack() {}

    static LocalStackContainer container() {
        return new LocalStackContainer(DockerImageName.parse("localstack/localstack:4")).withServices("dynamodb", "sqs");
    }

    static Region region(LocalStackContainer localStack) {
        return Region.of(localStack.getRegion());
    }

    static AwsCredentialsProvider credentials(LocalStackContainer localStack) {
        return StaticCredentialsProvider.create(
                AwsBasicCredentials.create(localStack.getAccessKey(), localStack.getSecretKey()));
    }
}
