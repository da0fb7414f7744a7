package dev.gantry.aws.s3;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The Gantry configuration text (one multi-document YAML of NodePools and NodeClasses) from the S3 object named by
 * {@code GANTRY_CONFIG}, {@code s3://bucket/key}. The object is read once, on the first {@link #get()}, and the text
 * kept: a handler reads it while initialising (so SnapStart captures it), and a new configuration arrives with a new
 * function version. Parsing is the caller's job ({@code ConfigLoader.loadString}).
 */
public final class S3ConfigSource implements Supplier<String> {
    private final S3Client s3;
    private final String bucket;
    private final String key;
    private volatile String text;

    private S3ConfigSource(S3Client s3, String bucket, String key) {
        this.s3 = s3;
        this.bucket = bucket;
        this.key = key;
    }

    /**
     * A source for {@code location}, which must be {@code s3://<bucket>/<key>}.
     *
     * @throws IllegalArgumentException naming what is wrong with {@code location}
     */
    public static S3ConfigSource of(S3Client s3, String location) {
        Objects.requireNonNull(s3, "s3");
        if (location == null || !location.startsWith("s3://")) {
            throw new IllegalArgumentException("GANTRY_CONFIG must be s3://bucket/key, not '" + location + "'");
        }
        String path = location.substring("s3://".length());
        int slash = path.indexOf('/');
        if (slash <= 0 || slash == path.length() - 1) {
            throw new IllegalArgumentException("GANTRY_CONFIG must name a bucket and a key: '" + location + "'");
        }
        return new S3ConfigSource(s3, path.substring(0, slash), path.substring(slash + 1));
    }

    /** A production client: URL-connection HTTP with {@code CallTimeouts.DEFAULT.control()}, the given region, the default credentials chain. */
    public static S3Client client(Region region) {
        dev.gantry.config.deployment.CallTimeouts.Budget b = dev.gantry.config.deployment.CallTimeouts.DEFAULT.control();
        return S3Client.builder().region(region).httpClient(dev.gantry.aws.client.ClientTimeouts.http(b))
                .overrideConfiguration(dev.gantry.aws.client.ClientTimeouts.override(b)).build();
    }

    /** A client for a stub or LocalStack at {@code endpoint}: path-style addressing, explicit credentials. */
    public static S3Client client(Region region, URI endpoint, AwsCredentialsProvider credentials) {
        return S3Client.builder().region(region).endpointOverride(endpoint).forcePathStyle(true)
                .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create()).build();
    }

    public String bucket() {
        return bucket;
    }

    public String key() {
        return key;
    }

    /**
     * The object's text, UTF-8, fetched on the first call.
     *
     * @throws software.amazon.awssdk.services.s3.model.NoSuchKeyException if the object does not exist
     */
    @Override
    public String get() {
        String cached = text;
        if (cached == null) {
            synchronized (this) {
                if (text == null) {
                    text = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asString(StandardCharsets.UTF_8);
                }
                cached = text;
            }
        }
        return cached;
    }
}
