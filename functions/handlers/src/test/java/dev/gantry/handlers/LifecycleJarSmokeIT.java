package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.dynamodb.DynamoTables;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Dynalite;
import dev.gantry.testing.ElasticMq;
import dev.gantry.testing.Events;
import dev.gantry.testing.RecordedRequest;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Each lifecycle function run from its own deployment jar ({@link JarSmokeLifecycle} in a fresh JVM with the flags the
 * stack sets), one after the other against one world: the provisioner launches for three pending pods, the
 * interruption function takes a spot interruption warning for the instance it launched, the termination function
 * continues that claim's flow, and the sweep runs. A class a function loads but its jar lacks fails here.
 */
class LifecycleJarSmokeIT {
    private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");
    /** What GantryFunction sets in JAVA_TOOL_OPTIONS, and Lambda's collector. */
    private static final List<String> DEPLOYED_JVM_ARGS = List.of("-XX:+UseSerialGC", "-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");
    private static final String TABLE = "jar-smoke";
    private static final String CONFIG = TestConfigs.TWO_TYPES;

    private static Path dist() {
        String dir = System.getProperty("gantry.dist");
        Assumptions.assumeTrue(dir != null, "runs under failsafe, after the jars are built");
        return Path.of(dir);
    }

    @Test
    void eachLifecycleFunctionPrimesAndHandlesOneInvocationFromItsOwnJar() throws Exception {
        MOCK_LOG.setLevel(Level.WARNING);
        Path dist = dist();
        Path config = Files.createTempFile("gantry-config", ".yaml");
        Files.writeString(config, CONFIG);
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> expectations = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        try (Dynalite dynalite = Dynalite.start(); ElasticMq mq = ElasticMq.start(); AwsStub aws = AwsStub.start();
             NamespacedKubernetesClient kube = server.createClient()) {
            DynamoTables.createTable(dynalite.dynamoDbClient(), TABLE);
            String provisioning = mq.sqsClient().createQueue(r -> r.queueName("provisioning.fifo")
                    .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
            String termination = mq.sqsClient().createQueue(r -> r.queueName("termination")).queueUrl();
            for (int i = 0; i < 3; i++) {
                pendingPod(kube, "web-" + i);
            }
            List<String> world = List.of(dynalite.endpoint().toString(), TABLE, aws.endpoint().toString(),
                    kube.getConfiguration().getMasterUrl(), mq.endpoint().toString(), provisioning, termination, config.toString());
            var store = new DynamoNodeClaimStore(dynalite.dynamoDbClient(), TABLE, JarSmokeLifecycle.CLUSTER);

            assertThat(run(dist.resolve("provisioner.jar"), "provisioner", world, "3")).contains("jar smoke ok provisioner failures=0");
            assertThat(aws.requests("CreateFleet")).hasSize(1);
            List<NodeClaim> claims = store.list(Instant.now());
            assertThat(claims).hasSize(1);
            NodeClaim claim = claims.getFirst();
            assertThat(claim.instanceId()).isNotNull();

            String warning = Events.load("interruption/spot-interruption-warning.json");
            String body = Serialization.jsonMapper().readTree(warning).get("Records").get(0).get("body").asText()
                    .replace("i-0abcd1234efgh5678", claim.instanceId());
            assertThat(run(dist.resolve("interruption.jar"), "interruption", world, body)).contains("jar smoke ok interruption failures=0");

            String next = "{\"claim\":\"" + claim.name() + "\",\"step\":1}";
            assertThat(run(dist.resolve("termination.jar"), "termination", world, next)).contains("jar smoke ok termination failures=0");
            assertThat(aws.requests().stream().map(RecordedRequest::action)).as("the flow reached EC2").contains("TerminateInstances");

            assertThat(run(dist.resolve("sweep.jar"), "sweep", world, "-")).contains("jar smoke ok sweep {");
        } finally {
            server.destroy();
            Files.deleteIfExists(config);
        }
    }

    private static void pendingPod(NamespacedKubernetesClient client, String name) {
        client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .withCreationTimestamp("2025-06-01T11:59:00Z").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("nginx")
                .withNewResources().addToRequests("cpu", new Quantity("500m")).addToRequests("memory", new Quantity("512Mi"))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").endCondition().endStatus().build()).create();
    }

    private static String run(Path jar, String function, List<String> world, String input) throws Exception {
        Path testClasses = Path.of(JarSmokeLifecycle.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(DEPLOYED_JVM_ARGS);
        cmd.addAll(List.of("-cp", jar + File.pathSeparator + testClasses, JarSmokeLifecycle.class.getName(), function));
        cmd.addAll(world);
        cmd.add(input);
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(function + " from " + jar.getFileName() + ":\n" + out).isZero();
        System.out.printf("%s from %s: %d ms%n", function, jar.getFileName(), (System.nanoTime() - t0) / 1_000_000);
        return out;
    }
}
