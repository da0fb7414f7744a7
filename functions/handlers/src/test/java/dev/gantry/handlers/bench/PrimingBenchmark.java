package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.Dynalite;
import dev.gantry.testing.ElasticMq;
import dev.gantry.testing.Events;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The SnapStart priming figures of issue #6: the first invocation in a fresh JVM after the handler's
 * {@code beforeCheckpoint} (what the snapshot holds) against a fresh JVM without it, for the webhook and the
 * provisioner, each on its deployment jar. Not part of the default run (surefire only picks up {@code *Test}); run it
 * after {@code package} with {@code -Dtest=PrimingBenchmark -Dsurefire.failIfNoSpecifiedTests=false}. Properties:
 * {@code bench.jvms} (JVMs per mode, default 5), {@code bench.jvmArgs} (default: Lambda's serial collector and the
 * deployed C1-only tiered compilation), {@code gantry.dist} (the jars; default the build directory's {@code dist}), {@code bench.verbose} (print
 * each child's timings). The table goes to stdout and to {@code priming-benchmark.md} in the build directory.
 *
 * <p>A fresh primed JVM approximates a restored snapshot: classes loaded, JIT profiles and compiled code, clients
 * built. It does not model the restore itself (page faults of a lazily loaded snapshot), so a real restored first
 * invocation is somewhat slower than the primed figure. Endpoints are on loopback, so the figures are JVM work (class
 * loading, interpretation, JIT), not AWS latency. A third mode, {@code primed+reads}, adds read-only calls the
 * production primers do not make, to measure what a wider primer would buy: for the webhook one SQS GetQueueAttributes;
 * for the provisioner the other reads a provisioning run makes (pods, DaemonSets, PDBs, volume attachments,
 * namespaces, instances, AMIs, subnets, security groups; not launch templates, whose EC2 classes the cut provisioner
 * jar does not carry, as Gantry never describes them). Priming must stay free of writes in every
 * mode.
 */
class PrimingBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Held so the level sticks (the log manager keeps loggers weakly). */
    private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");
    private final int jvms = Integer.getInteger("bench.jvms", 5);
    /** Lambda's collector plus the JAVA_TOOL_OPTIONS the CDK app sets on every function (GantryFunction). */
    private static final String DEPLOYED_JVM_ARGS = "-XX:+UseSerialGC -XX:+TieredCompilation -XX:TieredStopAtLevel=1";
    private final List<String> jvmArgs = List.of(System.getProperty("bench.jvmArgs", DEPLOYED_JVM_ARGS).trim().split("\\s+"));
    private final Map<String, List<ChildJvm.Timings>> results = new TreeMap<>();

    @Test
    void firstInvocationAfterPrimingAgainstNoPriming() throws Exception {
        MOCK_LOG.setLevel(Level.WARNING);
        webhook();
        provisioner();
        String report = report();
        System.out.println(report);
        Files.writeString(dist().getParent().resolve("priming-benchmark.md"), report);
    }

    private void webhook() throws Exception {
        JsonNode sample = JSON.readTree(Events.load("webhook/pod-create.json"));
        Path body = Files.createTempFile("pod-create", ".json");
        Files.writeString(body, sample.path("body").asText());
        try (ElasticMq mq = ElasticMq.start()) {
            for (int i = 0; i < jvms; i++) {
                for (String mode : order(i)) {
                    try (WebhookWorld world = WebhookWorld.start(mq, "bench-" + i + "-" + mode)) {
                        List<String> args = new ArrayList<>(List.of("webhook", mode));
                        args.addAll(world.childArgs(body.toString(), sample.path("rawPath").asText()));
                        try (ChildJvm child = ChildJvm.start(dist().resolve("webhook.jar"), jvmArgs, args)) {
                            world.assertUntouched();
                            ChildJvm.Timings t = child.go();
                            assertThat(t.firstStatus()).isEqualTo(200);
                            world.assertSent();
                            record("webhook", mode(mode), t);
                        }
                    }
                }
            }
        } finally {
            Files.deleteIfExists(body);
        }
    }

    private void provisioner() throws Exception {
        try (Dynalite dynalite = Dynalite.start()) {
            for (int i = 0; i < jvms; i++) {
                for (String mode : order(i)) {
                    boolean prime = !mode.equals("false");
                    try (ProvisionerWorld world = ProvisionerWorld.start(dynalite, "bench-" + i + "-" + mode, 3)) {
                        List<String> args = new ArrayList<>(List.of("provisioner", mode));
                        args.addAll(world.childArgs(3));
                        try (ChildJvm child = ChildJvm.start(dist().resolve("provisioner.jar"), jvmArgs, args)) {
                            if (prime && i == 0) {
                                System.out.println("provisioner " + mode + ": init + priming AWS reads: " + world.awsActions());
                            }
                            world.assertUntouched();
                            ChildJvm.Timings t = child.go();
                            assertThat(t.firstStatus()).as("batch item failures").isZero();
                            world.assertLaunched();
                            record("provisioner", mode(mode), t);
                        }
                    }
                }
            }
        }
    }

    /** The child's modes, reversed every other round so drift on a shared machine does not favour one. */
    private static List<String> order(int i) {
        return i % 2 == 0 ? List.of("false", "true", "extended") : List.of("extended", "true", "false");
    }

    private static String mode(String childMode) {
        return switch (childMode) {
            case "false" -> "unprimed";
            case "true" -> "primed";
            default -> "primed+reads";
        };
    }

    private void record(String function, String mode, ChildJvm.Timings t) {
        if (Boolean.getBoolean("bench.verbose")) {
            System.out.println("child " + function + " " + mode + " " + t);
        }
        results.computeIfAbsent(function + " " + mode, k -> new ArrayList<>()).add(t);
    }

    private String report() {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d fresh JVMs per row, JVM args %s, %s%n%n", jvms, jvmArgs,
                System.getProperty("java.vm.version")));
        s.append("| function | mode | init ms | beforeCheckpoint ms | afterRestore ms | first invocation ms: median (min-max) "
                + "| classes loaded by the first | second invocation ms: median |\n|---|---|---|---|---|---|---|---|\n");
        results.forEach((key, ts) -> {
            String[] k = key.split(" ");
            s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", k[0], k[1],
                    median(ts, ChildJvm.Timings::init), median(ts, ChildJvm.Timings::prime), median(ts, ChildJvm.Timings::restore),
                    median(ts, ChildJvm.Timings::first) + " (" + min(ts, ChildJvm.Timings::first) + "-" + max(ts, ChildJvm.Timings::first) + ")",
                    String.format(Locale.ROOT, "%.0f", middle(sorted(ts, ChildJvm.Timings::classesLoadedByFirst))),
                    median(ts, ChildJvm.Timings::second)));
        });
        return s.toString();
    }

    private static long[] sorted(List<ChildJvm.Timings> ts, java.util.function.ToLongFunction<ChildJvm.Timings> f) {
        long[] v = ts.stream().mapToLong(f).toArray();
        Arrays.sort(v);
        return v;
    }

    private static String median(List<ChildJvm.Timings> ts, java.util.function.ToLongFunction<ChildJvm.Timings> f) {
        return ms(middle(sorted(ts, f)));
    }

    private static double middle(long[] v) {
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
    }

    private static String min(List<ChildJvm.Timings> ts, java.util.function.ToLongFunction<ChildJvm.Timings> f) {
        return ms(sorted(ts, f)[0]);
    }

    private static String max(List<ChildJvm.Timings> ts, java.util.function.ToLongFunction<ChildJvm.Timings> f) {
        long[] v = sorted(ts, f);
        return ms(v[v.length - 1]);
    }

    private static String ms(double nanos) {
        return String.format(Locale.ROOT, nanos >= 1e7 ? "%.0f" : "%.1f", nanos / 1e6);
    }

    private static Path dist() {
        String dir = System.getProperty("gantry.dist");
        if (dir != null) {
            return Path.of(dir);
        }
        try {
            Path testClasses = Path.of(PrimingChild.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return testClasses.getParent().resolve("dist");
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
