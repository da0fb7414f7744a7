package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.Events;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link JarSmoke} and {@link WebhookJarSmoke} in fresh JVMs on the shaded jars (and the lifecycle jars, which share its
 * contents): a class the function loads but the jar left out fails here, not in Lambda. Runs after {@code package}.
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
                            || n.startsWith("org/snakeyaml/") || n.startsWith("dev/gantry/core/scheduling/"));
        }
        Path body = Files.createTempFile("review", ".json");
        Files.writeString(body, new String(JarSmoke.class.getResourceAsStream("/snapstart/admission-review.json").readAllBytes(),
                StandardCharsets.UTF_8));
        String out = run(jar, WebhookJarSmoke.class.getName(), body.toString());
        assertThat(out).contains("webhook jar smoke ok");
    }

    private static String run(Path jar, String main, String arg) throws Exception {
        Path testClasses = Path.of(JarSmoke.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(javaBin, "-cp", jar + File.pathSeparator + testClasses, main, arg))
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
