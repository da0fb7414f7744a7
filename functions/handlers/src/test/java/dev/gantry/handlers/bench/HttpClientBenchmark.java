package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.AwsStub;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The SDK HTTP clients on a Lambda's first call: for url-connection (what the functions ship), Apache and the AWS CRT
 * client, a fresh JVM ({@link HttpClientChild}, deployed JVM flags) builds the client and an EC2 client on the
 * provisioner's jar and times its first {@code DescribeInstances} against the AWS stub, median of {@code bench.jvms}
 * (default 7) JVMs each; beside it, what each client's jars would add to a function jar. Not part of the default run:
 * {@code mvn -Phttp-client-bench ... -Dtest=HttpClientBenchmark -Dsurefire.failIfNoSpecifiedTests=false} after
 * {@code package} (the profile puts the Apache and CRT clients on the test class path). Loopback calls: the figures
 * are class loading, initialisation and (for CRT) native library loading, not network latency.
 */
class HttpClientBenchmark {
    private static final String DEPLOYED_JVM_ARGS = "-XX:+UseSerialGC -XX:+TieredCompilation -XX:TieredStopAtLevel=1";
    private final int jvms = Integer.getInteger("bench.jvms", 7);
    private final List<String> jvmArgs = List.of(System.getProperty("bench.jvmArgs", DEPLOYED_JVM_ARGS).trim().split("\\s+"));

    /** Each client and the jars it needs beyond the provisioner's (url-connection ships in it), by a class in each. */
    private static final Map<String, List<String>> CLIENTS = new LinkedHashMap<>();

    static {
        CLIENTS.put("url-connection", List.of());
        CLIENTS.put("apache", List.of("software.amazon.awssdk.http.apache.ApacheHttpClient", "org.apache.http.client.HttpClient",
                "org.apache.http.HttpRequest", "org.apache.commons.codec.Charsets", "org.apache.commons.logging.Log"));
        CLIENTS.put("crt", List.of("software.amazon.awssdk.http.crt.AwsCrtHttpClient", "software.amazon.awssdk.crt.CRT"));
    }

    @Test
    void firstCallLatencyOfEachSdkHttpClientInAFreshJvm() throws Exception {
        Assumptions.assumeTrue(present("software.amazon.awssdk.http.apache.ApacheHttpClient")
                && present("software.amazon.awssdk.http.crt.AwsCrtHttpClient"), "run with -Phttp-client-bench");
        Map<String, List<long[]>> results = new LinkedHashMap<>();
        Map<String, long[]> sizes = new LinkedHashMap<>();
        try (AwsStub aws = AwsStub.start()) {
            for (int i = 0; i < jvms; i++) {
                List<String> order = new ArrayList<>(CLIENTS.keySet());
                java.util.Collections.rotate(order, i);
                for (String client : order) {
                    results.computeIfAbsent(client, k -> new ArrayList<>()).add(child(client, aws));
                }
            }
        }
        for (var e : CLIENTS.entrySet()) {
            sizes.put(e.getKey(), size(jars(e.getValue())));
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d fresh JVMs per client, JVM args %s, %s%n%n", jvms, jvmArgs,
                System.getProperty("java.vm.version")));
        s.append("| client | build client ms | first DescribeInstances ms: median (min-max) | second ms | jar added: zipped / unzipped MB |\n"
                + "|---|---|---|---|---|\n");
        results.forEach((client, rows) -> s.append(String.format(Locale.ROOT, "| %s | %s | %s (%s-%s) | %s | %.1f / %.1f |%n", client,
                ms(median(rows, 0)), ms(median(rows, 1)), ms(min(rows, 1)), ms(max(rows, 1)), ms(median(rows, 2)),
                sizes.get(client)[0] / 1e6, sizes.get(client)[1] / 1e6)));
        System.out.println(s);
        Files.writeString(BenchPaths.dist().getParent().resolve("http-client-benchmark.md"), s.toString());
    }

    private long[] child(String client, AwsStub aws) throws Exception {
        List<String> cp = new ArrayList<>(List.of(BenchPaths.dist().resolve("provisioner.jar").toString(), BenchPaths.testClasses().toString()));
        jars(CLIENTS.get(client)).forEach(j -> cp.add(j.toString()));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, cp), HttpClientChild.class.getName(), client, aws.endpoint().toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(client + ":\n" + out).isZero();
        String line = out.lines().filter(l -> l.startsWith("BENCH HTTP ")).findFirst().orElseThrow(() -> new AssertionError(out));
        return Arrays.stream(line.substring("BENCH HTTP ".length()).split(" ")).mapToLong(Long::parseLong).toArray();
    }

    private static boolean present(String cls) {
        try {
            Class.forName(cls, false, HttpClientBenchmark.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static List<Path> jars(List<String> classes) throws Exception {
        List<Path> out = new ArrayList<>();
        for (String c : classes) {
            out.add(Path.of(Class.forName(c, false, HttpClientBenchmark.class.getClassLoader()).getProtectionDomain().getCodeSource()
                    .getLocation().toURI()));
        }
        return out;
    }

    /** Zipped and unzipped bytes of the jars' entries, as the shade plugin would copy them. */
    private static long[] size(List<Path> jars) throws IOException {
        long zipped = 0;
        long unzipped = 0;
        for (Path j : jars) {
            zipped += Files.size(j);
            try (ZipFile z = new ZipFile(j.toFile())) {
                unzipped += z.stream().mapToLong(ZipEntry::getSize).sum();
            }
        }
        return new long[] {zipped, unzipped};
    }

    private static long median(List<long[]> rows, int col) {
        long[] v = rows.stream().mapToLong(r -> r[col]).sorted().toArray();
        return v[v.length / 2];
    }

    private static long min(List<long[]> rows, int col) {
        return rows.stream().mapToLong(r -> r[col]).min().orElseThrow();
    }

    private static long max(List<long[]> rows, int col) {
        return rows.stream().mapToLong(r -> r[col]).max().orElseThrow();
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
