package dev.gantry.simulator.scenario;

import dev.gantry.core.model.KubeDuration;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.Latency;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * Reads a scenario's {@code latency:} section: {@code scale} (0: every call instant), and per call kind
 * ({@link CallKind#yamlName()}) a duration ({@code 20ms}, {@code 1s}) or a range {@code min..max}.
 */
final class LatencyReader {
    private final ScenarioNodes yaml;

    LatencyReader(ScenarioNodes yaml) {
        this.yaml = yaml;
    }

    Scenario.LatencySpec read(Node n) {
        Set<String> allowed = new HashSet<>();
        allowed.add("scale");
        Map<String, CallKind> kinds = new LinkedHashMap<>();
        for (CallKind k : CallKind.values()) {
            kinds.put(k.yamlName(), k);
        }
        allowed.addAll(kinds.keySet());
        Map<String, NodeTuple> m = yaml.map(n, allowed, "latency.");
        double scale = 1;
        Map<CallKind, Latency.Range> overrides = new LinkedHashMap<>();
        for (Map.Entry<String, NodeTuple> e : m.entrySet()) {
            Node v = e.getValue().getValueNode();
            if (e.getKey().equals("scale")) {
                scale = yaml.number(v);
                if (scale < 0) {
                    throw yaml.error(v, "scale must not be negative");
                }
                continue;
            }
            overrides.put(kinds.get(e.getKey()), range(v));
        }
        return new Scenario.LatencySpec(overrides, scale);
    }

    private Latency.Range range(Node v) {
        String text = yaml.string(v);
        String[] parts = text.split("\\.\\.", -1);
        if (parts.length > 2) {
            throw yaml.error(v, "'" + text + "' is not a latency (like 20ms, or 1s..2s)");
        }
        Duration min = duration(v, parts[0].trim());
        Duration max = parts.length == 2 ? duration(v, parts[1].trim()) : min;
        if (max.compareTo(min) < 0) {
            throw yaml.error(v, "the upper bound " + parts[1].trim() + " is below the lower bound " + parts[0].trim());
        }
        return new Latency.Range(min, max);
    }

    /** A Kubernetes-style duration, or milliseconds ({@code 20ms}). */
    private Duration duration(Node n, String text) {
        try {
            if (text.endsWith("ms") && text.length() > 2) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            }
            return KubeDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw yaml.error(n, "'" + text + "' is not a duration (like 20ms, 1s)");
        }
    }
}
