package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Events;
import dev.gantry.testing.StubResponse;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import dev.gantry.handlers.attach.JarSmokeAttach;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link JarSmoke}, {@link WebhookJarSmoke} and {@link JarSmokeAttach} in fresh JVMs on the shaded jars (the
 * lifecycle functions each run from their own jar in {@link LifecycleJarSmokeIT}): a class the function loads but the
 * jar left out fails here, not in Lambda. Runs after {@code package}.
 */
class ProvisionerJarSmokeIT {
    /** Failsafe sets it after {@code package}; a surefire run (say {@code -Dtest=dev.gantry.handlers.**}) skips. */
    private static Path dist() {
        String dir = System.getProperty("gantry.dist");
        Assumptions.assumeTrue(dir != null, "runs under failsafe, after the jars are built");
        return Path.of(dir);
    }

    @Test
    void provisionerJarRunsTheClusterAdapterConfigCatalogueAndAProvisioningRun() throws Exception {
        Path jar = dist().resolve("provisioner.jar");
        assertThat(jar).exists();
        Path samples = Events.root().getParent().resolve("samples");
        String out = run(jar, JarSmoke.class.getName(), samples.toString());
        assertThat(out).contains("jar smoke ok: t4g.");
    }

    @Test
    void webhookJarAnswersAReviewWithNoEc2OrFabric8Inside() throws Exception {
        Path jar = dist().resolve("webhook.jar");
        try (var zip = new java.util.zip.ZipFile(jar.toFile())) {
            assertThat(zip.stream().map(java.util.zip.ZipEntry::getName))
                    .noneMatch(n -> n.startsWith("software/amazon/awssdk/services/ec2/") || n.startsWith("io/fabric8/")
                            || n.startsWith("dev/gantry/core/scheduling/") || n.startsWith("catalog/"));
        }
        Path body = Files.createTempFile("review", ".json");
        Files.writeString(body, new String(JarSmoke.class.getResourceAsStream("/snapstart/admission-review.json").readAllBytes(),
                StandardCharsets.UTF_8));
        Path invalid = Files.createTempFile("nodepool", ".json");
        Files.writeString(invalid, WebhookEvents.load("nodepool-create-invalid.json").getBody());
        String out = run(jar, WebhookJarSmoke.class.getName(), body.toString(), invalid.toString());
        assertThat(out).contains("webhook jar smoke ok");
    }

    @Test
    void attachJarAppliesAndDeletesManifestsReadsTheTokenAndInvokesTheFinalSweep() throws Exception {
        Path jar = dist().resolve("attach.jar");
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> expectations = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        try (AwsStub aws = AwsStub.start(); NamespacedKubernetesClient kube = server.createClient()) {
            aws.onTarget("secretsmanager.GetSecretValue", r -> StubResponse.awsJson("{\"Name\":\"gantry-token\",\"SecretString\":\"t0k\"}"));
            aws.onPath("POST", "/2015-03-31/functions/", r -> new StubResponse(200, "application/json", "{\"terminated\":0}"));
            String out = run(jar, JarSmokeAttach.class.getName(), kube.getConfiguration().getMasterUrl(), aws.endpoint().toString());
            assertThat(out).contains("attach jar smoke ok").contains("CRD nodepools.karpenter.sh: installed")
                    .contains("bundle skipped: NodePool/legacy (karpenter.sh/v1beta1)");
            assertThat(aws.requests().stream().map(r -> r.target().orElse(r.method() + " " + r.path())))
                    .contains("secretsmanager.GetSecretValue").anyMatch(a -> a.startsWith("POST /2015-03-31/functions/"));
        } finally {
            server.destroy();
        }
    }

    private static String run(Path jar, String main, String... arg) throws Exception {
        Path testClasses = Path.of(JarSmoke.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(javaBin, "-cp", jar + File.pathSeparator + testClasses, main));
        cmd.addAll(List.of(arg));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
