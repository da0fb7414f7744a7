package dev.gantry.aws.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.testing.AwsStub;
import dev.gantry.testing.StubResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

class S3ConfigSourceTest {
    private static final String YAML = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata:
              name: default   # café: non-ASCII survives
            """;

    private final AwsStub stub = AwsStub.start();
    // Signed as attach, the only function that reads the deploy bundle (the IAM contract maps this object to it).
    private final S3Client s3 = S3ConfigSource.client(Region.US_EAST_1, stub.endpoint(),
            StaticCredentialsProvider.create(AwsBasicCredentials.create("attach", "secret")));

    @AfterEach
    void stop() {
        s3.close();
        stub.close();
    }

    @Test
    void readsTheObjectOnceAndKeepsItsText() {
        stub.onPath("GET", "/gantry-config/clusters/prod/gantry.yaml",
                request -> new StubResponse(200, "application/yaml", YAML));
        S3ConfigSource source = S3ConfigSource.of(s3, "s3://gantry-config/clusters/prod/gantry.yaml");

        assertThat(source.get()).isEqualTo(YAML);
        assertThat(source.get()).isEqualTo(YAML);
        assertThat(stub.requests("GET /gantry-config/clusters/prod/gantry.yaml")).hasSize(1);
    }

    @Test
    void surfacesAMissingObjectAsNoSuchKey() {
        stub.onPath("GET", "/gantry-config/", request -> new StubResponse(404, "application/xml",
                "<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>"));

        assertThatThrownBy(() -> S3ConfigSource.of(s3, "s3://gantry-config/missing.yaml").get())
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void splitsTheLocationIntoBucketAndKey() {
        S3ConfigSource source = S3ConfigSource.of(s3, "s3://bucket/a/b/c.yaml");

        assertThat(source.bucket()).isEqualTo("bucket");
        assertThat(source.key()).isEqualTo("a/b/c.yaml");
        assertThat(stub.requests()).as("nothing is read before get()").isEmpty();
    }

    @Test
    void rejectsALocationThatIsNotAnS3ObjectUrl() {
        for (String bad : new String[] {"https://bucket/key", "s3://bucket", "s3://bucket/", "s3:///key", "", null}) {
            assertThatThrownBy(() -> S3ConfigSource.of(s3, bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
