package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/gantry} and {@code bin/jdk25} as a user with another Java first on PATH meets them, and Maven on an older
 * JDK: each says in plain words that a JDK 25 is needed (with JDK 17 first on PATH the jar failed with
 * UnsupportedClassVersionError, and Maven with "Unrecognized option: --sun-misc-unsafe-memory-access=allow").
 */
class LauncherTest {
    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    record Run(int code, String out, String err) {
    }

    private static Run run(Map<String, String> env, Path dir, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("MAVEN_OPTS"); // a user's plain mvn (.ci/run sets it, for JDK 25)
        pb.environment().putAll(env);
        Path out = Files.createTempFile("launcher", ".out");
        Path err = Files.createTempFile("launcher", ".err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + List.of(cmd));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** A fake {@code java} (and {@code javac}) that reports {@code version} and echoes its arguments. */
    private static Path fakeJdk(Path dir, String version) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("jdk-" + version).resolve("bin"));
        for (String tool : List.of("java", "javac")) {
            Path f = bin.resolve(tool);
            Files.writeString(f, """
                    #!/bin/sh
                    if [ "$1" = "-version" ]; then echo 'openjdk version "%s" 2025-09-16' >&2; exit 0; fi
                    echo "ran: $*"
                    """.formatted(version));
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return bin.getParent();
    }

    private static Map<String, String> onlyJava(Path jdk, String... more) {
        Map<String, String> env = new java.util.HashMap<>(Map.of("PATH", jdk.resolve("bin") + ":/usr/bin:/bin",
                "GANTRY_JDK_SEARCH", ""));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    @Test
    void withOnlyJdk17TheLauncherSaysAJdk25IsNeededAndWhatItFound(@TempDir Path dir) throws Exception {
        Path jdk17 = fakeJdk(dir, "17.0.15");
        Run r = run(onlyJava(jdk17), ROOT, "bin/gantry", "--version");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("gantry needs a JDK 25 or later, and none was found.")
                .contains(jdk17.resolve("bin/java") + ": openjdk version \"17.0.15\"")
                .contains("set JAVA_HOME to it").doesNotContain("UnsupportedClassVersionError");
    }

    @Test
    void theLauncherRunsTheJarWithAJdk25EvenWhenAnotherJavaComesFirst(@TempDir Path dir) throws Exception {
        Path jdk17 = fakeJdk(dir, "17.0.15");
        Path jdk25 = fakeJdk(dir, "25.0.1");
        Path jar = Files.writeString(dir.resolve("gantry.jar"), "not really a jar");
        Run r = run(onlyJava(jdk17, "GANTRY_JDK_SEARCH", jdk25.toString(), "GANTRY_JAR", jar.toString()), ROOT,
                "bin/gantry", "validate", "samples/");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("ran: -jar " + jar + " validate samples/\n");
        assertThat(run(onlyJava(jdk17, "GANTRY_JDK_SEARCH", jdk25.toString()), ROOT, "bin/jdk25").out().trim())
                .isEqualTo(jdk25.toString());
    }

    @Test
    void anUnbuiltJarIsOneLineSayingHowToBuildIt(@TempDir Path dir) throws Exception {
        Path jdk25 = fakeJdk(dir, "25.0.1");
        Run r = run(onlyJava(jdk25, "GANTRY_JAR", dir.resolve("missing.jar").toString()), ROOT, "bin/gantry", "--version");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("gantry: " + dir.resolve("missing.jar") + " is not built yet: run  JAVA_HOME=\""
                + jdk25 + "\" mvn -B -DskipTests package  in " + ROOT + "\n");
    }

    @Test
    void mavenOnJdk17SaysTheBuildNeedsJdk25() throws Exception {
        Path jdk17 = jdk17();
        Assumptions.assumeTrue(jdk17 != null, "no JDK 17 on this machine");
        Run r = run(Map.of("JAVA_HOME", jdk17.toString(), "PATH", jdk17.resolve("bin") + ":" + System.getenv("PATH")), ROOT,
                "mvn", "-B", "-o", "-N", "validate");
        assertThat(r.code()).isNotZero();
        assertThat(r.out() + r.err()).contains("Gantry builds with JDK 25; this Maven runs on Java 17")
                .contains("export JAVA_HOME=\"$(bin/jdk25)\"").doesNotContain("Unrecognized option");
    }

    private static Path jdk17() throws IOException {
        Path jvm = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvm)) {
            return null;
        }
        List<Path> found = new ArrayList<>();
        try (var s = Files.list(jvm)) {
            s.filter(d -> d.getFileName().toString().contains("17") && Files.isExecutable(d.resolve("bin/javac"))).forEach(found::add);
        }
        return found.isEmpty() ? null : found.getFirst();
    }
}
