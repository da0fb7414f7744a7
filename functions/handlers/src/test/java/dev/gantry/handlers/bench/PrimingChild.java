package dev.gantry.handlers.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * One fresh JVM of {@link PrimingBenchmark}, run on a function's deployment jar (plus the test classes, for this
 * class only). It builds the handler as its Lambda init would (clients and the init-time reads: the webhook's token from
 * Secrets Manager; the provisioner's cluster description, configuration and catalogue), optionally runs the
 * handler's SnapStart {@code beforeCheckpoint} (what the snapshot would hold), prints {@code BENCH READY}, and waits
 * for {@code go} on stdin so the parent can check that priming changed nothing. Then it times the first and the
 * second invocation and prints {@code BENCH FIRST} (with the classes the first one loaded, and the JVM uptime in ms when it
 * started, to line up with a {@code -Xlog:class+load::uptime} log). Beyond that init, nothing before the timed call warms the handler's
 * paths unless priming does: the events are built with plain strings, as the Lambda runtime's own serializer (a
 * separate, shaded Jackson) would hand them over.
 *
 * <p>Arguments: {@code webhook <prime|extended> <sqsEndpoint> <queueUrl> <bodyFile> <rawPath> <awsEndpoint>} or
 * {@code provisioner <prime|extended> <dynamoEndpoint> <table> <awsEndpoint> <kubeUrl> <configFile> <hints>}.
 */
public final class PrimingChild {
    static final String CLUSTER = "test-cluster";
    static final StaticCredentialsProvider CREDS = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

    private PrimingChild() {
    }

    public static void main(String[] args) throws Exception {
        boolean prime = !args[1].equals("false"); // true, or "extended"
        long t0 = System.nanoTime();
        Handler h = args[0].equals("webhook") ? WebhookChild.build(args) : ProvisionerChild.build(args);
        long t1 = System.nanoTime();
        if (prime) {
            h.primer().run();
        }
        long t2 = System.nanoTime();
        say("READY " + (t1 - t0) + " " + (t2 - t1));
        String go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (!"go".equals(go)) {
            throw new IllegalStateException("expected go, got " + go);
        }
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        long t3 = System.nanoTime();
        if (prime) {
            h.restore().run(); // SnapStart runs afterRestore during the restore, before the first invocation
        }
        long restored = System.nanoTime() - t3;
        long loaded = classes.getTotalLoadedClassCount();
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        long t4 = System.nanoTime();
        int first = h.invoke().getAsInt();
        long t5 = System.nanoTime();
        long loadedByFirst = classes.getTotalLoadedClassCount() - loaded;
        int second = h.invoke().getAsInt();
        long t6 = System.nanoTime();
        say("FIRST " + (t5 - t4) + " " + (t6 - t5) + " " + restored + " " + first + " " + second + " " + loadedByFirst
                + " " + uptime);
    }

    private static void say(String line) {
        System.out.println("BENCH " + line);
        System.out.flush();
    }

    /** The three things the benchmark does to a handler; {@code invoke} returns a status to check. */
    record Handler(Runnable primer, Runnable restore, IntSupplier invoke) {}
}
