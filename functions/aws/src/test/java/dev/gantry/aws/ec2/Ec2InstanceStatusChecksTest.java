package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.health.InstanceHealth;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Resources.Instance;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.MutableClock;
import dev.gantry.testing.StubResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sweep's status-check reader against the AWS stub, signed as the sweep (the IAM contract test evaluates these
 * calls against the sweep's role): Karpenter's three filtered listings (aws pkg/providers/instancestatus), paginated,
 * cheap at 1,000 nodes.
 */
class Ec2InstanceStatusChecksTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private AwsStub stub;
    private StubClients sweepClients;
    private Ec2InstanceStatusChecks checks;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        sweepClients = StubClients.of(stub, "sweep");
        checks = new Ec2InstanceStatusChecks(sweepClients.ec2());
    }

    @AfterEach
    void stop() {
        sweepClients.close();
        stub.close();
    }

    private String add(int n) {
        String id = String.format("i-0%016x", n);
        stub.ec2().addInstance(new Instance(id, "m5.large", "us-east-1a", "subnet-0000000000000000a", "ami-1", "on-demand",
                "running", clock.instant().minus(Duration.ofHours(1)), "10.0.0." + (n % 250), Map.of("gantry.dev/cluster", Ec2State.CLUSTER)));
        return id;
    }

    /**
     * aws {@code pkg/providers/instancestatus/instancestatus.go} {@code List} ({@code instanceStatusFilters}: three
     * server-side filtered listings); filtered calls draw on EC2's non-mutating bucket (100, 20/s), not the 50/10
     * unfiltered one (docs.aws.amazon.com ec2-api-throttling).
     */
    @Test
    void aThousandHealthyNodesCostThreeFilteredRequests() {
        for (int i = 1; i <= 1000; i++) {
            add(i);
        }
        assertThat(checks.unhealthy()).isEmpty();
        assertThat(stub.requests("DescribeInstanceStatus")).hasSize(3).allSatisfy(r -> {
            assertThat(r.filters()).hasSize(1);
            assertThat(r.param("MaxResults")).isEqualTo("1000");
        });
        assertThat(stub.requests("DescribeInstanceStatus")).extracting(r -> r.filters().keySet().iterator().next())
                .containsExactly("instance-status.status", "system-status.status", "event.code");
    }

    /** aws {@code instancestatus.go} {@code List}: statuses from the three listings are merged by instance id ({@code seen}). */
    @Test
    void failedChecksAndScheduledEventsAreMergedByInstance() {
        String system = add(1);
        String both = add(2);
        add(3);
        Instant since = clock.instant().minusSeconds(300);
        stub.ec2().statuses().impairSystem(system, since);
        stub.ec2().statuses().impairInstance(both, since);
        stub.ec2().statuses().schedule(both, "system-reboot", clock.instant().plus(Duration.ofDays(3)));

        List<InstanceHealth> sick = checks.unhealthy();

        assertThat(sick).extracting(InstanceHealth::instanceId).containsExactlyInAnyOrder(system, both);
        InstanceHealth s = sick.stream().filter(h -> h.instanceId().equals(system)).findFirst().orElseThrow();
        assertThat(s.failed()).containsExactly(new InstanceHealth.FailedCheck("system", "reachability", since));
        InstanceHealth b = sick.stream().filter(h -> h.instanceId().equals(both)).findFirst().orElseThrow();
        assertThat(b.failed()).extracting(InstanceHealth.FailedCheck::scope).containsExactly("instance");
        assertThat(b.events()).extracting(InstanceHealth.ScheduledEvent::code).containsExactly("system-reboot");
    }

    /**
     * aws {@code instancestatus.go} {@code List}: every page of each listing ({@code NewDescribeInstanceStatusPaginator});
     * the 15-request budget per sweep is Gantry's own (Karpenter pages without a cap).
     */
    @Test
    void manySickInstancesArePagedThroughAndAWholeRegionSickStopsAtTheBudget() {
        for (int i = 1; i <= 1500; i++) {
            stub.ec2().statuses().impairSystem(add(i), clock.instant().minusSeconds(600));
        }
        assertThat(checks.unhealthy()).hasSize(1500);
        assertThat(stub.requests("DescribeInstanceStatus")).hasSize(4); // two pages of system-status, one each else

        stub.clearRequests();
        stub.on("DescribeInstanceStatus", q -> StubResponse.xml("<DescribeInstanceStatusResponse xmlns=\""
                + "http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>r</requestId><instanceStatusSet/>"
                + "<nextToken>again</nextToken></DescribeInstanceStatusResponse>"));
        assertThatThrownBy(checks::unhealthy).isInstanceOfSatisfying(CloudException.class, e -> {
            assertThat(e.retryable()).isTrue();
            assertThat(e.code()).isEqualTo("RequestBudgetExceeded");
        });
        assertThat(stub.requests("DescribeInstanceStatus")).hasSize(Ec2InstanceStatusChecks.MAX_REQUESTS);
    }

    /**
     * aws {@code pkg/controllers/interruption/instancestatus_controller.go} {@code Reconcile}: an
     * UnauthorizedOperation is logged and not retried; other errors are returned (retried).
     */
    @Test
    void aThrottledListingFailsRetryableAndADeniedOneNot() {
        stub.on("DescribeInstanceStatus", q -> new StubResponse(503, "text/xml", "<Response><Errors><Error><Code>"
                + "RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors></Response>"));
        assertThatThrownBy(checks::unhealthy).isInstanceOfSatisfying(CloudException.class,
                e -> assertThat(e.retryable()).isTrue());
        stub.on("DescribeInstanceStatus", q -> new StubResponse(403, "text/xml", "<Response><Errors><Error><Code>"
                + "UnauthorizedOperation</Code><Message>You are not authorized to perform this operation.</Message></Error>"
                + "</Errors></Response>"));
        assertThatThrownBy(checks::unhealthy).isInstanceOfSatisfying(CloudException.class, e -> {
            assertThat(e.retryable()).isFalse();
            assertThat(e.code()).isEqualTo("UnauthorizedOperation");
        });
    }
}
