package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Resources.LaunchTemplate;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;

/** The sweep's launch template clean-up against the AWS stub: what goes, what stays, and how launches recover. */
class LaunchTemplateCollectorTest {
    private static final List<String> OD = List.of("on-demand");
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    private AwsStub stub;
    private StubClients provisionerClients;
    private StubClients sweepClients;
    private Ec2CloudProvider provisioner;
    /** The same adapter as the sweep function holds it: its own role's credentials. */
    private Ec2CloudProvider sweep;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        provisionerClients = StubClients.of(stub);
        sweepClients = StubClients.of(stub, "sweep");
        provisioner = new Ec2CloudProvider(provisionerClients.ec2(), provisionerClients.ssm(), LaunchFixtures.config(clock));
        sweep = new Ec2CloudProvider(sweepClients.ec2(), sweepClients.ssm(), LaunchFixtures.config(clock));
    }

    @AfterEach
    void stop() {
        provisionerClients.close();
        sweepClients.close();
        stub.close();
    }

    private String launch(String pool, String claim) {
        NodeClass nc = LaunchFixtures.al2023();
        return provisioner.launch(LaunchFixtures.request(claim, LaunchFixtures.pool(pool, Map.of(), List.of(), List.of()),
                nc, LaunchFixtures.types(nc, "c5.large"), OD, Ec2State.ZONES)).instance().instanceId();
    }

    private String templateOf(String pool) {
        return stub.ec2().launchTemplates().stream().filter(t -> pool.equals(t.tags().get("gantry.dev/nodepool")))
                .map(LaunchTemplate::id).findFirst().orElse(null);
    }

    @Test
    void deletesOnlyOurTemplatesThatAreADayOldAndThatNoLiveInstanceCameFrom() {
        launch("general", "general-gc001");
        String idle = launch("batch", "batch-gc001");
        sweep.terminate(List.of(idle));
        // Another cluster's Gantry provisioner, tagging its template as its policy requires.
        try (StubClients other = StubClients.of(stub, "provisioner@other-cluster")) {
            other.ec2().createLaunchTemplate(r -> r.launchTemplateName("someone-else")
                    .launchTemplateData(d -> d.imageId("ami-0a1b2c3d4e5f60001"))
                    .tagSpecifications(s -> s.resourceType(ResourceType.LAUNCH_TEMPLATE)
                            .tags(Tag.builder().key("gantry.dev/cluster").value("other-cluster").build(),
                                    Tag.builder().key("gantry.dev/nodepool").value("general").build())));
        }
        clock.advance(Duration.ofDays(1));
        launch("young", "young-gc001");
        String youngInstance = stub.ec2().instances().getLast().id();
        sweep.terminate(List.of(youngInstance));
        String batchTemplate = templateOf("batch");

        assertThat(sweep.collectLaunchTemplates()).isEqualTo(1);

        assertThat(stub.ec2().launchTemplates()).extracting(LaunchTemplate::id).doesNotContain(batchTemplate)
                .contains(templateOf("general"), templateOf("young")).hasSize(3);
        assertThat(stub.lastRequest("DescribeLaunchTemplates").filters())
                .containsEntry("tag:gantry.dev/cluster", List.of(Ec2State.CLUSTER));
    }

    @Test
    void runsAtMostOnceAnHour() {
        sweep.collectLaunchTemplates();
        clock.advance(Duration.ofMinutes(59));
        sweep.collectLaunchTemplates();
        assertThat(stub.requests("DescribeLaunchTemplates")).hasSize(1);
        clock.advance(Duration.ofMinutes(1));
        sweep.collectLaunchTemplates();
        assertThat(stub.requests("DescribeLaunchTemplates")).hasSize(2);
    }

    /**
     * The launch sends its recorded template name; EC2 no longer knows it, so the adapter creates it again (the request
     * still describes it, to the byte) and sends the same call once more, within the one launch. (It used to fail
     * retryably and recreate the template on the batch's retry.)
     */
    @Test
    void aLaunchWhoseCachedTemplateWasCollectedRecreatesItAndLaunchesWithinTheSameCall() {
        sweep.terminate(List.of(launch("general", "general-rc001")));
        clock.advance(Duration.ofDays(1).plusMinutes(1));
        // Re-ensured (the name is cached again), launched from, then idle: the collector deletes it under the cache.
        sweep.terminate(List.of(launch("general", "general-rc002")));
        assertThat(sweep.collectLaunchTemplates()).isEqualTo(1);
        assertThat(stub.ec2().launchTemplates()).isEmpty();
        stub.clearRequests();

        String instance = launch("general", "general-rc003");

        assertThat(stub.requests("CreateFleet")).hasSize(2).allSatisfy(r ->
                assertThat(r.param("ClientToken")).isEqualTo("general-rc003"));
        assertThat(stub.requests("CreateLaunchTemplate")).hasSize(1);

        assertThat(stub.ec2().launchTemplates()).singleElement().satisfies(t ->
                assertThat(stub.ec2().instance(instance).orElseThrow().tags()).containsEntry("aws:ec2launchtemplate:id", t.id()));
    }

    @Test
    void theDecisionKeepsTemplatesInUseYoungOrOfUnknownAge() {
        Instant now = Instant.parse("2025-06-02T00:00:00Z");
        var old = new LaunchTemplateCollector.Template("lt-1", "a", now.minus(Duration.ofDays(1)));
        var used = new LaunchTemplateCollector.Template("lt-2", "b", now.minus(Duration.ofDays(3)));
        var young = new LaunchTemplateCollector.Template("lt-3", "c", now.minus(Duration.ofHours(23)));
        var unknown = new LaunchTemplateCollector.Template("lt-4", "d", null);
        assertThat(LaunchTemplateCollector.unused(List.of(old, used, young, unknown), Set.of("lt-2"), now))
                .containsExactly(old);
    }
}
