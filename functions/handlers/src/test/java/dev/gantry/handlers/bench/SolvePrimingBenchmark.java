package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the provisioner primer's representative solve buys: the first {@code Scheduler.solve} of a 1,000-pod batch
 * ({@link SolveChild}) in a fresh JVM on the provisioner's jar, with the deployed JVM flags, after the primer's
 * {@code beforeCheckpoint} (what the snapshot holds) against without it. Not part of the default run; after
 * {@code package}: {@code -Dtest=SolvePrimingBenchmark -Dsurefire.failIfNoSpecifiedTests=false}. Properties:
 * {@code bench.jvms} (JVMs per mode, default 7), {@code bench.pods} (default 1000), {@code bench.jvmArgs},
 * {@code gantry.dist}. Wall times on a shared machine carry other processes' load; the first solve's thread CPU
 * time is printed beside it.
 */
class SolvePrimingBenchmark {
    private static final String DEPLOYED_JVM_ARGS = "-XX:+UseSerialGC -XX:+TieredCompilation -XX:TieredStopAtLevel=1";
    private final int jvms = Integer.getInteger("bench.jvms", 7);
    private final int pods = Integer.getInteger("bench.pods", 1000);
    private final List<String> jvmArgs = List.of(System.getProperty("bench.jvmArgs", DEPLOYED_JVM_ARGS).trim().split("\\s+"));

    @Test
    void firstSolveAfterThePrimersSolveAgainstAColdScheduler() throws Exception {
        Map<String, List<long[]>> results = new TreeMap<>();
        for (int i = 0; i < jvms; i++) {
            for (String mode : i % 2 == 0 ? List.of("unprimed", "primed") : List.of("primed", "unprimed")) {
                results.computeIfAbsent(mode, k -> new ArrayList<>()).add(child(mode));
            }
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d fresh JVMs per row, %d pods, JVM args %s, %s%n%n", jvms, pods,
                jvmArgs, System.getProperty("java.vm.version")));
        s.append("| mode | priming ms (CPU) | first solve ms: median (min-max) | first solve CPU ms | second solve ms (CPU) | placed "
                + "| claims |\n|---|---|---|---|---|---|---|\n");
        results.forEach((mode, rows) -> s.append(String.format(Locale.ROOT, "| %s | %s (%s) | %s (%s-%s) | %s | %s (%s) | %d | %d |%n", mode,
                ms(median(rows, 0)), ms(median(rows, 1)), ms(median(rows, 2)), ms(min(rows, 2)), ms(max(rows, 2)), ms(median(rows, 3)),
                ms(median(rows, 4)), ms(median(rows, 5)), rows.getFirst()[6], rows.getFirst()[7])));
        System.out.println(s);
        Files.writeString(BenchPaths.dist().getParent().resolve("solve-priming-benchmark.md"), s.toString());
        assertThat(results.get("primed").getFirst()[6]).as("placed").isEqualTo(results.get("unprimed").getFirst()[6]);
    }

    private long[] child(String mode) throws Exception {
        Path testClasses = BenchPaths.testClasses();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", BenchPaths.dist().resolve("provisioner.jar") + File.pathSeparator + testClasses,
                SolveChild.class.getName(), mode, Integer.toString(pods)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        String line = out.lines().filter(l -> l.startsWith("BENCH SOLVE ")).findFirst().orElseThrow(() -> new AssertionError(out));
        return Arrays.stream(line.substring("BENCH SOLVE ".length()).split(" ")).mapToLong(Long::parseLong).toArray();
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
        return String.format(Locale.ROOT, "%.0f", nanos / 1e6);
    }
}
