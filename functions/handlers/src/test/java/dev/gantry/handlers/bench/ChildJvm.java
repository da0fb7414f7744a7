package dev.gantry.handlers.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@link PrimingChild} process and its line protocol: wait for {@code BENCH READY}, let the caller inspect the
 * world, send {@code go}, wait for {@code BENCH FIRST}. Other output (the handler's own logs) is kept for errors.
 */
final class ChildJvm implements AutoCloseable {
    /**
     * What a child measured, in nanoseconds; {@code restore} is the afterRestore hook (0 when not primed). The pid and
     * the JVM uptime when the first invocation began line the run up with a {@code -Xlog:class+load} log.
     */
    record Timings(long init, long prime, long restore, long first, long second, int firstStatus, int secondStatus,
                   long classesLoadedByFirst, long pid, long uptimeMsAtFirst) {}

    private final Process process;
    private final BufferedReader out;
    private final List<String> log = new ArrayList<>();
    private long init;
    private long prime;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts {@code java <jvmArgs> -cp jar:testClasses PrimingChild args} and waits until it is ready. */
    static ChildJvm start(Path jar, List<String> jvmArgs, List<String> args) throws IOException {
        Path testClasses;
        try {
            testClasses = Path.of(PrimingChild.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", jar + File.pathSeparator + testClasses, PrimingChild.class.getName()));
        cmd.addAll(args);
        ChildJvm child = new ChildJvm(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        String[] ready = child.await("READY");
        child.init = Long.parseLong(ready[2]);
        child.prime = Long.parseLong(ready[3]);
        return child;
    }

    /** Lets the child make its timed invocations and returns what it measured. */
    Timings go() throws IOException {
        Writer in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        in.write("go\n");
        in.flush();
        String[] f = await("FIRST");
        return new Timings(init, prime, Long.parseLong(f[4]), Long.parseLong(f[2]), Long.parseLong(f[3]), Integer.parseInt(f[5]),
                Integer.parseInt(f[6]), Long.parseLong(f[7]), process.pid(), Long.parseLong(f[8]));
    }

    private String[] await(String what) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("BENCH " + what + " ")) {
                return line.split(" ");
            }
            log.add(line);
        }
        throw new IllegalStateException("child exited before " + what + ":\n" + String.join("\n", log));
    }

    @Override
    public void close() throws InterruptedException {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
