package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The deployment jars in {@code dist}: each under the size limits, and each holding every SDK service class its
 * function can load ({@link JarSmokeClosure}), so a shade filter that cut one too many fails here and not in Lambda.
 * Runs after {@code package}.
 */
class DistJarSmokeIT {
    /**
     * Lambda refuses a deployment package above 250 MB unzipped (function code plus layers). Failing at 200 MB keeps
     * a margin for a layer (an extension, a profiler agent) and for SDK growth between releases.
     */
    static final long MAX_UNZIPPED_BYTES = 200_000_000L;
    /** The webhook sits in the API server's admission path; its package is kept small so a cold start stays short. */
    static final long MAX_WEBHOOK_ZIPPED_BYTES = 10_000_000L;
    /** The SDK service modules whose classes a function may load; a module absent from a jar is not checked. */
    private static final List<String> SERVICES = List.of("ec2", "ssm", "s3", "dynamodb", "sqs", "eks", "sts", "pricing", "lambda",
            "secretsmanager");

    private static Path dist() {
        String dir = System.getProperty("gantry.dist");
        Assumptions.assumeTrue(dir != null, "runs under failsafe, after the jars are built");
        return Path.of(dir);
    }

    private static List<Path> jars() throws IOException {
        try (Stream<Path> s = Files.list(dist())) {
            List<Path> jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
            assertThat(jars).extracting(p -> p.getFileName().toString())
                    .contains("webhook.jar", "provisioner.jar", "interruption.jar", "termination.jar", "sweep.jar", "attach.jar");
            return jars;
        }
    }

    @Test
    void everyFunctionJarIsUnderTheUnzippedLimitAndTheWebhookUnderItsZippedOne() throws IOException {
        for (Path jar : jars()) {
            long unzipped;
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                unzipped = zip.stream().mapToLong(ZipEntry::getSize).sum();
            }
            long zipped = Files.size(jar);
            System.out.printf(Locale.ROOT, "%s: %.1f MB zipped, %.1f MB unzipped%n", jar.getFileName(), zipped / 1e6, unzipped / 1e6);
            assertThat(unzipped).as(jar.getFileName() + " unzipped bytes").isLessThanOrEqualTo(MAX_UNZIPPED_BYTES);
            if (jar.getFileName().toString().equals("webhook.jar")) {
                assertThat(zipped).as("webhook.jar zipped bytes").isLessThanOrEqualTo(MAX_WEBHOOK_ZIPPED_BYTES);
            }
        }
    }

    /**
     * fabric8 and the AWS SDK log through SLF4J: every jar carries its java.util.logging provider, so their records
     * become the functions' JSON log lines (JsonLogHandler). Without one, SLF4J drops them and prints its "no providers"
     * warning as a plain line at every cold start.
     */
    @Test
    void everyJarRoutesSlf4jToTheJsonLogLines() throws IOException {
        for (Path jar : jars()) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                ZipEntry provider = zip.getEntry("META-INF/services/org.slf4j.spi.SLF4JServiceProvider");
                assertThat(provider).as(jar.getFileName() + " SLF4J provider").isNotNull();
                String named = new String(zip.getInputStream(provider).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
                assertThat(named).as(jar.getFileName().toString()).isEqualTo("org.slf4j.jul.JULServiceProvider");
                assertThat(zip.getEntry("org/slf4j/jul/JULServiceProvider.class")).as(jar.getFileName().toString()).isNotNull();
            }
        }
    }

    @Test
    void everyJarHoldsEverySdkServiceClassItsFunctionCanLoad() throws IOException {
        for (Path jar : jars()) {
            try (ZipFile fn = new ZipFile(jar.toFile())) {
                Set<String> roots = JarSmokeClosure.classesIn(fn, "dev/gantry/");
                for (String service : SERVICES) {
                    String pkg = "software/amazon/awssdk/services/" + service + "/";
                    if (JarSmokeClosure.classesIn(fn, pkg).isEmpty()) {
                        continue;
                    }
                    try (ZipFile svc = serviceJar(pkg)) {
                        Set<String> all = JarSmokeClosure.classesIn(svc, pkg);
                        JarSmokeClosure closure = JarSmokeClosure.of(pkg, roots, all,
                                c -> c.startsWith(pkg) ? JarSmokeClosure.read(svc, c) : JarSmokeClosure.read(fn, c), false);
                        Set<String> need = new TreeSet<>(closure.reached());
                        all.stream().filter(c -> JarSmokeClosure.outerRequest(pkg, c)).forEach(need::add);
                        List<String> missing = need.stream().filter(c -> fn.getEntry(c + ".class") == null).map(closure::path).toList();
                        assertThat(missing).as(jar.getFileName() + " lacks " + service + " classes its function can load (each with "
                                + "the classes that reach it); for EC2 or SSM, regenerate the shade includes with JarSmokeClosure")
                                .isEmpty();
                    }
                }
            }
        }
    }

    /** The full service module on the test class path. */
    private static ZipFile serviceJar(String pkg) throws IOException {
        String probe = pkg + "endpoints/";
        URL url = DistJarSmokeIT.class.getClassLoader().getResource(probe);
        assertThat(url).as(probe + " on the test class path").isNotNull();
        return new ZipFile(((JarURLConnection) url.openConnection()).getJarFileURL().getPath());
    }
}
