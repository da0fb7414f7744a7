package dev.gantry.simulator.runtime;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the handlers write to standard output and error during an invocation, which Lambda sends to CloudWatch Logs:
 * here it is captured instead of reaching the terminal the simulation reports on. The simulation is single-threaded,
 * so the process-wide streams are swapped for the duration of one invocation only.
 */
public final class FunctionLogs {
    private FunctionLogs() {
    }

    /** What an invocation returned and wrote, line by line. */
    public record Captured<T>(T result, RuntimeException error, List<String> out, List<String> err) {
    }

    public static <T> Captured<T> capture(Supplier<T> invocation) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        T result = null;
        RuntimeException error = null;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            try {
                result = invocation.get();
            } catch (RuntimeException thrown) {
                error = thrown;
            }
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new Captured<>(result, error, lines(out), lines(err));
    }

    private static List<String> lines(ByteArrayOutputStream s) {
        String text = s.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : text.lines().toList();
    }
}
