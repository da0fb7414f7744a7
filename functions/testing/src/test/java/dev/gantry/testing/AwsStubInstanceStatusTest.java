package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceStatusResponse;
import software.amazon.awssdk.services.ec2.model.Ec2Exception;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.InstanceStatus;
import software.amazon.awssdk.services.ec2.model.SummaryStatus;

/** The stub's DescribeInstanceStatus, read by the real SDK v2 Ec2Client: shapes, filters, pages, errors, throttling. */
class AwsStubInstanceStatusTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private AwsStub stub;
    private Ec2Client ec2;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        ec2 = Ec2Client.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD)).build();
    }

    @AfterEach
    void stop() {
        ec2.close();
        stub.close();
    }

    private List<String> launch(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(stub.ec2().launch("m5.large", "us-east-1a", "subnet-0000000000000000a", "ami-0a1b2c3d4e5f60001",
                    "on-demand", Map.of(), clock.instant().minusSeconds(600)).id());
        }
        return ids;
    }

    private static Filter f(String name, String... values) {
        return Filter.builder().name(name).values(values).build();
    }

    @Test
    void impairedChecksAndScheduledEventsReadAsEc2WritesThem() {
        List<String> ids = launch(3);
        Instant since = clock.instant().minusSeconds(300);
        stub.ec2().statuses().impairSystem(ids.get(0), since);
        stub.ec2().statuses().schedule(ids.get(1), "instance-retirement", clock.instant().plus(Duration.ofDays(2)));

        DescribeInstanceStatusResponse all = ec2.describeInstanceStatus(r -> r.instanceIds(ids));
        assertThat(all.instanceStatuses()).hasSize(3).allSatisfy(s -> assertThat(s.instanceState().nameAsString()).isEqualTo("running"));
        InstanceStatus broken = all.instanceStatuses().stream().filter(s -> s.instanceId().equals(ids.get(0))).findFirst().orElseThrow();
        assertThat(broken.systemStatus().status()).isEqualTo(SummaryStatus.IMPAIRED);
        assertThat(broken.systemStatus().details().getFirst().statusAsString()).isEqualTo("failed");
        assertThat(broken.systemStatus().details().getFirst().impairedSince()).isEqualTo(since);
        assertThat(broken.instanceStatus().status()).isEqualTo(SummaryStatus.OK);

        assertThat(ec2.describeInstanceStatus(r -> r.filters(f("system-status.status", "impaired"))).instanceStatuses())
                .extracting(InstanceStatus::instanceId).containsExactly(ids.get(0));
        var events = ec2.describeInstanceStatus(r -> r.filters(f("event.code", "instance-reboot", "instance-retirement")))
                .instanceStatuses();
        assertThat(events).extracting(InstanceStatus::instanceId).containsExactly(ids.get(1));
        assertThat(events.getFirst().events().getFirst().codeAsString()).isEqualTo("instance-retirement");
        assertThat(events.getFirst().events().getFirst().notBefore()).isEqualTo(clock.instant().plus(Duration.ofDays(2)));
        assertThat(ec2.describeInstanceStatus(r -> r.filters(f("instance-status.status", "impaired"))).instanceStatuses()).isEmpty();
    }

    @Test
    void pagesFollowTheTokenAndATokenFromAnotherRequestIsRefused() {
        launch(12);
        List<String> seen = new ArrayList<>();
        ec2.describeInstanceStatusPaginator(r -> r.maxResults(5).filters(f("instance-state-name", "running")))
                .forEach(p -> seen.addAll(p.instanceStatuses().stream().map(InstanceStatus::instanceId).toList()));
        assertThat(seen).hasSize(12).doesNotHaveDuplicates();
        assertThat(stub.requests("DescribeInstanceStatus")).hasSize(3);

        String token = ec2.describeInstanceStatus(r -> r.maxResults(5)).nextToken();
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> r.maxResults(5).nextToken(token)
                .filters(f("availability-zone", "us-east-1a"))))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidPaginationToken"));
    }

    @Test
    void badRequestsFailAsEc2FailsThem() {
        List<String> ids = launch(1);
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> r.instanceIds(ids).maxResults(5)))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterCombination"));
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> r.maxResults(1001)))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> r.instanceIds("i-0123456789abcdef0")))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidInstanceID.NotFound"));
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> r.instanceIds("i-nope")))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidInstanceID.Malformed"));
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> r.filters(f("tag:gantry.dev/cluster", "x"))))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
    }

    /** EC2 throttling guide: unfiltered and unpaginated DescribeInstanceStatus draws on a bucket of 50, refilled 10/s. */
    @Test
    void unfilteredCallsHaveFiftyTokensRefilledAtTenASecondAndFilteredOnesTheirOwnHundred() {
        launch(1);
        ec2.close();
        // No SDK retries here: a throttled call is retried with seconds of backoff, against a clock that stands still.
        ec2 = Ec2Client.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.retryStrategy(b -> b.maxAttempts(1))).build();
        for (int i = 0; i < 50; i++) {
            ec2.describeInstanceStatus(r -> { });
        }
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> { }))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("RequestLimitExceeded");
                    assertThat(e.statusCode()).isEqualTo(503);
                });
        // Filtered calls draw on the non-mutating bucket, still full.
        ec2.describeInstanceStatus(r -> r.filters(f("system-status.status", "impaired")));
        clock.advance(Duration.ofMillis(100)); // one token back
        ec2.describeInstanceStatus(r -> { });
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> { })).isInstanceOf(Ec2Exception.class);
        clock.advance(Duration.ofMillis(250)); // two and a half tokens: two calls
        ec2.describeInstanceStatus(r -> { });
        ec2.describeInstanceStatus(r -> { });
        assertThatThrownBy(() -> ec2.describeInstanceStatus(r -> { })).isInstanceOf(Ec2Exception.class);
    }
}
