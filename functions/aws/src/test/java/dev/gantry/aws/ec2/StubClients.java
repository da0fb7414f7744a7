package dev.gantry.aws.ec2;

import dev.gantry.testing.AwsStub;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Real SDK clients pointed at an {@link AwsStub}, with SDK retries off so a failure reaches the adapter at once. They
 * sign as a Gantry function (the access key id is its short name), so the stub's IAM recording attributes each call
 * to that function's role and the infra contract test checks it against that role's synthesized policies.
 */
public record StubClients(Ec2Client ec2, SsmClient ssm, PricingClient pricing) implements AutoCloseable {
    /** Clients of the provisioner, the function that launches. */
    public static StubClients of(AwsStub stub) {
        return of(stub, "provisioner");
    }

    /**
     * Clients of the function {@code principal} ({@code provisioner}, {@code sweep}, {@code termination}...), of the
     * test cluster; {@code function@cluster} ({@code provisioner@my-cluster}) for a deployment for another cluster.
     */
    public static StubClients of(AwsStub stub, String principal) {
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create(principal, "secret"));
        return new StubClients(
                Ec2Client.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                        .httpClient(UrlConnectionHttpClient.create())
                        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build(),
                SsmClient.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                        .httpClient(UrlConnectionHttpClient.create())
                        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build(),
                PricingClient.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                        .httpClient(UrlConnectionHttpClient.create())
                        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build());
    }

    @Override
    public void close() {
        ec2.close();
        ssm.close();
        pricing.close();
    }
}
