package dev.gantry.testing.iam;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The recorded calls of a test run, as JSON lines, for the contract test that evaluates them against the
 * synthesized policies (infra's {@code IamContractTest}). A module's surefire run sets the system property
 * {@value #FILE_PROPERTY} to its {@code ${project.build.directory}/iam-calls/surefire.jsonl} (failsafe, to
 * {@code failsafe.jsonl}: calls from the child JVMs of the jar smokes reach the parent's stub and are recorded
 * there); the first call recorded
 * in a JVM truncates the file, so a file never mixes two runs. Without the property nothing is written.
 */
public final class IamCallLog {
    public static final String FILE_PROPERTY = "gantry.iamCalls.file";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static boolean started;

    private IamCallLog() {
    }

    /** Appends the call to the file named by {@value #FILE_PROPERTY}, if set. */
    public static synchronized void append(IamCall call) {
        String file = System.getProperty(FILE_PROPERTY);
        if (file == null || file.isBlank()) {
            return;
        }
        try {
            Path path = Path.of(file);
            Files.createDirectories(path.toAbsolutePath().getParent());
            StandardOpenOption mode = started ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING;
            Files.writeString(path, toJson(call) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, mode);
            started = true;
        } catch (IOException e) {
            throw new UncheckedIOException("could not record the IAM call in " + file, e);
        }
    }

    public static String toJson(IamCall call) {
        ObjectNode root = JSON.createObjectNode().put("principal", call.principal()).put("call", call.call())
                .put("origin", call.origin());
        ArrayNode auths = root.putArray("authorizations");
        for (IamRequest r : call.authorizations()) {
            ObjectNode a = auths.addObject().put("action", r.action()).put("resource", r.resource());
            ObjectNode context = a.putObject("context");
            r.context().forEach((k, v) -> v.forEach(context.withArray(k)::add));
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static IamCall fromJson(String line) {
        try {
            JsonNode root = JSON.readTree(line);
            List<IamRequest> auths = new ArrayList<>();
            for (JsonNode a : root.path("authorizations")) {
                Map<String, List<String>> context = new LinkedHashMap<>();
                a.path("context").properties().forEach(e -> {
                    List<String> values = new ArrayList<>();
                    e.getValue().forEach(v -> values.add(v.asText()));
                    context.put(e.getKey(), values);
                });
                auths.add(new IamRequest(a.path("action").asText(), a.path("resource").asText(), context));
            }
            return new IamCall(root.path("principal").asText(), root.path("call").asText(), auths,
                    root.path("origin").asText(""));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a recorded IAM call: " + line, e);
        }
    }

    /** Every call recorded in {@code file}, in order. */
    public static List<IamCall> read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
                    .map(IamCallLog::fromJson).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
