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

/** Real SDK clients pointed at an {@link AwsStub}, with SDK retries off so a failure reaches the adapter at once. */
public record StubClients(Ec2Client ec2, SsmClient ssm, PricingClient pricing) implements AutoCloseable {
    public static StubClients of(AwsStub stub) {
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret"));
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
