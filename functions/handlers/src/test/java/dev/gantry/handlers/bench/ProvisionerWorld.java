package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.aws.dynamodb.DynamoTables;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Dynalite;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.RecordedRequest;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one provisioner child talks to, fresh per child so every first invocation does the same work: the fabric8
 * mock API server (CRUD) with {@code pods} pending pods, a new table in the shared dynalite, and an AWS stub (EC2,
 * SSM, Pricing, EKS). It checks that priming wrote nothing and that the timed invocation launched.
 */
final class ProvisionerWorld implements AutoCloseable {
    static final String CONFIG = dev.gantry.handlers.TestConfigs.TWO_TYPES;

    private final Dynalite dynalite;
    private final String table;
    private final KubernetesMockServer server;
    private final NamespacedKubernetesClient client;
    private final AwsStub aws;
    private final Path config;

    private ProvisionerWorld(Dynalite dynalite, String table, int pods) throws IOException {
        this.dynalite = dynalite;
        this.table = table;
        DynamoTables.createTable(dynalite.dynamoDbClient(), table);
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        client = server.createClient();
        for (int i = 0; i < pods; i++) {
            pendingPod("web-" + i);
        }
        aws = AwsStub.start(Ec2State.withDefaults(), Clock.systemUTC());
        config = Files.createTempFile("gantry-config", ".yaml");
        Files.writeString(config, CONFIG);
    }

    static ProvisionerWorld start(Dynalite dynalite, String table, int pods) throws IOException {
        return new ProvisionerWorld(dynalite, table, pods);
    }

    /** The child's arguments after the mode and the priming flag. */
    List<String> childArgs(int hints) {
        return List.of(dynalite.endpoint().toString(), table, aws.endpoint().toString(),
                client.getConfiguration().getMasterUrl(), config.toString(), Integer.toString(hints));
    }

    /** The AWS calls made so far, by action; the init and priming reads before {@code go}. */
    List<String> awsActions() {
        return aws.requests().stream().map(RecordedRequest::action).toList();
    }

    /** Priming (and init) only read: no EC2/SSM write, no table item, no Kubernetes event, node or binding. */
    void assertUntouched() {
        assertThat(awsActions()).allSatisfy(a -> assertThat(a).matches("Describe.*|AmazonSSM\\.GetParameter|"
                + "AWSPriceListService\\.GetProducts|GET /clusters/.*"));
        assertThat(items()).isZero();
        assertThat(client.v1().events().inAnyNamespace().list().getItems()).isEmpty();
        assertThat(client.nodes().list().getItems()).isEmpty();
        assertThat(client.pods().inAnyNamespace().list().getItems()).allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isNull());
    }

    /** The timed invocation really provisioned: one fleet request, and claims recorded. */
    void assertLaunched() {
        assertThat(aws.requests("CreateFleet")).hasSize(1);
        assertThat(items()).isPositive();
    }

    private int items() {
        return dynalite.dynamoDbClient().scan(r -> r.tableName(table)).count();
    }

    private void pendingPod(String name) {
        client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .withCreationTimestamp("2025-06-01T11:59:00Z").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("nginx")
                .withNewResources().addToRequests("cpu", new Quantity("500m")).addToRequests("memory", new Quantity("512Mi"))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").endCondition().endStatus().build()).create();
    }

    @Override
    public void close() throws IOException {
        client.close();
        server.destroy();
        aws.close();
        dynalite.dynamoDbClient().deleteTable(r -> r.tableName(table));
        Files.deleteIfExists(config);
    }
}
