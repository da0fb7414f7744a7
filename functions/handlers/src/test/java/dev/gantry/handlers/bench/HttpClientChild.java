package dev.gantry.handlers.bench;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;

/**
 * One fresh JVM of {@link HttpClientBenchmark}, on the provisioner's jar plus one SDK HTTP client's jars: builds the
 * HTTP client and an {@code Ec2Client} on it against the parent's AWS stub, then times the first and the second
 * {@code DescribeInstances}. Prints {@code BENCH HTTP <buildNs> <firstNs> <secondNs> <reservations>}. The client is
 * made by name, so this class compiles without the Apache and CRT clients on the class path.
 * Arguments: {@code <url-connection|apache|crt> <awsEndpoint>}.
 */
public final class HttpClientChild {
    private HttpClientChild() {
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        SdkHttpClient http = (SdkHttpClient) Class.forName(switch (args[0]) {
            case "url-connection" -> "software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient";
            case "apache" -> "software.amazon.awssdk.http.apache.ApacheHttpClient";
            case "crt" -> "software.amazon.awssdk.http.crt.AwsCrtHttpClient";
            default -> throw new IllegalArgumentException(args[0]);
        }).getMethod("create").invoke(null);
        Ec2Client ec2 = Ec2Client.builder().endpointOverride(URI.create(args[1])).region(Region.US_EAST_1).httpClient(http)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        long t1 = System.nanoTime();
        int reservations = ec2.describeInstances().reservations().size();
        long t2 = System.nanoTime();
        ec2.describeInstances();
        long t3 = System.nanoTime();
        System.out.println("BENCH HTTP " + (t1 - t0) + " " + (t2 - t1) + " " + (t3 - t2) + " " + reservations);
        ec2.close();
        http.close();
    }
}
