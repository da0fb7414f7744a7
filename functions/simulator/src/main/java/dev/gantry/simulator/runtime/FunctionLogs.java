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

    /**
     * The lines of an invocation's standard error worth the timeline: the warnings and errors of the functions' JSON
     * log records ({@code JsonLogHandler}) as {@code LEVEL logger: message}, and every line that is not such a record
     * (a stack trace printed by hand, a library writing to the stream). The INFO and finer records stay in the logs, as
     * in CloudWatch Logs: on the timeline, one per sweep would crowd out the decisions.
     */
    public static List<String> problems(List<String> err) {
        List<String> out = new java.util.ArrayList<>();
        for (String line : err) {
            com.fasterxml.jackson.databind.JsonNode record = record(line);
            if (record == null) {
                out.add(line);
                continue;
            }
            String level = record.path("level").asText();
            if (dev.gantry.handlers.logging.JsonLogHandler.warningOrWorse(level)) {
                String trace = record.path("stackTrace").asText("");
                out.add(level + " " + record.path("logger").asText() + ": " + record.path("message").asText()
                        + (trace.isEmpty() ? "" : " (" + trace.lines().findFirst().orElse("") + ")"));
            }
        }
        return out;
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The line as a JSON log record (an object with a {@code level}), else null. */
    private static com.fasterxml.jackson.databind.JsonNode record(String line) {
        if (!line.startsWith("{")) {
            return null;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode n = JSON.readTree(line);
            return n != null && n.isObject() && n.hasNonNull("level") ? n : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static List<String> lines(ByteArrayOutputStream s) {
        String text = s.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : text.lines().toList();
    }
}
