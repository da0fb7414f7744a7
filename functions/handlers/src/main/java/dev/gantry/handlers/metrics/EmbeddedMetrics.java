package dev.gantry.handlers.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CloudWatch embedded metric format: one JSON line on stdout per call, which Lambda's log pipeline turns into metrics
 * (namespace {@value #NAMESPACE}, dimension {@code ClusterName}, plus any extra dimensions given). No API calls.
 */
public final class EmbeddedMetrics {
    public static final String NAMESPACE = "Gantry";
    private final ObjectMapper json;
    private final String clusterName;
    private final PrintStream out;

    public EmbeddedMetrics(ObjectMapper json, String clusterName, PrintStream out) {
        this.json = json;
        this.clusterName = clusterName;
        this.out = out;
    }

    /** Emits the values (name to value, unit Count unless the name ends in {@code Seconds} or {@code Usd}). */
    public void emit(Instant at, Map<String, String> dimensions, Map<String, Double> values) {
        out.println(line(at, dimensions, values));
    }

    String line(Instant at, Map<String, String> dimensions, Map<String, Double> values) {
        Map<String, String> dims = new LinkedHashMap<>();
        dims.put("ClusterName", clusterName);
        dims.putAll(dimensions);
        ObjectNode root = json.createObjectNode();
        ObjectNode aws = root.putObject("_aws");
        aws.put("Timestamp", at.toEpochMilli());
        ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
        directive.put("Namespace", NAMESPACE);
        ArrayNode dimSet = directive.putArray("Dimensions").addArray();
        dims.keySet().forEach(dimSet::add);
        ArrayNode metrics = directive.putArray("Metrics");
        values.forEach((name, v) -> {
            metrics.addObject().put("Name", name).put("Unit", unit(name));
            root.put(name, v);
        });
        dims.forEach(root::put);
        return root.toString();
    }

    private static String unit(String name) {
        return name.endsWith("Seconds") ? "Seconds" : name.endsWith("Usd") ? "None" : "Count";
    }
}
