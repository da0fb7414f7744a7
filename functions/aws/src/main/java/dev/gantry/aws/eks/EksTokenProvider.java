package dev.gantry.aws.eks;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.regions.Region;

/**
 * Bearer tokens for an EKS cluster's API server, made the way {@code aws eks get-token} makes them: an STS
 * {@code GetCallerIdentity} GET request, presigned (SigV4 in the query string) with the header
 * {@code x-k8s-aws-id: <cluster>} signed in, then {@code "k8s-aws-v1." + base64url(url)} without padding. The API
 * server's authenticator replays the URL against STS to learn who we are; no call to STS happens here.
 *
 * <p>EKS accepts a token for 15 minutes from its signing time, whatever {@code X-Amz-Expires} says (60 s is what the
 * CLI uses, and what we send). {@link #get()} caches the token and makes a new one once {@link #REFRESH_AFTER} has
 * passed, so a token handed out is always at least a minute from expiry. Time comes from the injected clock, which
 * also stamps the signature. Thread-safe.
 */
public final class EksTokenProvider implements Supplier<String> {
    /** Re-sign this long after signing: a minute before EKS's 15-minute limit. */
    public static final Duration REFRESH_AFTER = Duration.ofMinutes(14);
    static final String PREFIX = "k8s-aws-v1.";
    static final String CLUSTER_HEADER = "x-k8s-aws-id";
    private static final Duration URL_EXPIRY = Duration.ofSeconds(60);

    private final String clusterName;
    private final Region region;
    private final AwsCredentialsProvider credentials;
    private final Clock clock;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    private String token;
    private Instant signedAt;

    /**
     * @param credentials the identity the cluster maps to a Kubernetes user (the Lambda's role, through an EKS access
     *                    entry); resolved on each signing, so rotated credentials are picked up
     */
    public EksTokenProvider(String clusterName, Region region, AwsCredentialsProvider credentials, Clock clock) {
        this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
        this.region = Objects.requireNonNull(region, "region");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A token valid for at least one more minute. */
    @Override
    public synchronized String get() {
        Instant now = clock.instant();
        if (token == null || !now.isBefore(signedAt.plus(REFRESH_AFTER))) {
            token = PREFIX + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(presignedUrl().getBytes(StandardCharsets.UTF_8));
            signedAt = now;
        }
        return token;
    }

    private String presignedUrl() {
        SdkHttpRequest request = SdkHttpRequest.builder()
                .method(SdkHttpMethod.GET)
                // The regional endpoint: the global one only works while us-east-1 does.
                .uri(URI.create("https://sts." + region.id() + ".amazonaws.com/"))
                .appendRawQueryParameter("Action", "GetCallerIdentity")
                .appendRawQueryParameter("Version", "2011-06-15")
                .putHeader(CLUSTER_HEADER, clusterName)
                .build();
        return signer.sign(r -> r.identity(credentials.resolveCredentials())
                        .request(request)
                        .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "sts")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region.id())
                        .putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                        .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, URL_EXPIRY)
                        .putProperty(HttpSigner.SIGNING_CLOCK, clock))
                .request().getUri().toString();
    }
}
