package dev.gantry.simulator.scenario;

import dev.gantry.core.model.KubeDuration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Typed access to a scenario file's YAML nodes, for the section readers: every problem is a
 * {@link ScenarioException} naming the file and the line of the node at fault (an unknown field, with the allowed
 * ones; a wrong type; a value out of range; a referenced file that does not exist).
 */
final class ScenarioNodes {
    private final String file;
    private final Path dir;

    /** @param path the scenario file: errors name it, and relative paths in it resolve against its directory */
    ScenarioNodes(Path path) {
        this.file = path.toString();
        Path parent = path.toAbsolutePath().getParent();
        this.dir = parent == null ? Path.of(".") : parent;
    }

    String file() {
        return file;
    }

    /**
     * A mapping's fields by key, refusing any key not in {@code allowed}; {@code where} prefixes the field in errors
     * ({@code "faults."}, or empty at the top).
     */
    Map<String, NodeTuple> map(Node n, Set<String> allowed, String where) {
        if (!(n instanceof MappingNode m)) {
            throw error(n, "expected a mapping" + (where.isEmpty() ? "" : " for " + where.substring(0, where.length() - 1)));
        }
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            String key = string(t.getKeyNode());
            if (!allowed.contains(key)) {
                throw error(t.getKeyNode(), "unknown field '" + where + key + "' (expected one of " + new TreeSet<>(allowed) + ")");
            }
            out.put(key, t);
        }
        return out;
    }

    Node require(Map<String, NodeTuple> m, String key, Node parent) {
        NodeTuple t = m.get(key);
        if (t == null) {
            throw error(parent, "required field '" + key + "' is missing");
        }
        return t.getValueNode();
    }

    List<Node> seq(Node n) {
        if (!(n instanceof SequenceNode s)) {
            throw error(n, "expected a list");
        }
        return s.getValue();
    }

    String string(Node n) {
        if (!(n instanceof ScalarNode s)) {
            throw error(n, "expected a value");
        }
        return s.getValue();
    }

    List<String> strings(Node n) {
        return seq(n).stream().map(this::string).toList();
    }

    long integer(Node n) {
        try {
            return Long.parseLong(string(n));
        } catch (NumberFormatException e) {
            throw error(n, "expected an integer, got '" + string(n) + "'");
        }
    }

    /** An integer counting from 1. */
    long positive(Node n) {
        long v = integer(n);
        if (v < 1) {
            throw error(n, "expected a positive integer (counting from 1), got " + v);
        }
        return v;
    }

    double number(Node n) {
        try {
            return Double.parseDouble(string(n));
        } catch (NumberFormatException e) {
            throw error(n, "expected a number, got '" + string(n) + "'");
        }
    }

    boolean bool(Node n) {
        String s = string(n);
        if (!s.equals("true") && !s.equals("false")) {
            throw error(n, "expected true or false, got '" + s + "'");
        }
        return s.equals("true");
    }

    /** A Kubernetes-style duration ({@code 90s}, {@code 10m}, {@code 2h}). */
    Duration duration(Node n) {
        try {
            return KubeDuration.parse(string(n));
        } catch (IllegalArgumentException e) {
            throw error(n, "'" + string(n) + "' is not a duration (like 90s, 10m, 2h)");
        }
    }

    /** A file the scenario names, resolved against its directory; it must exist. */
    Path existing(Node n) {
        Path p = dir.resolve(string(n)).normalize();
        if (!Files.isRegularFile(p)) {
            throw error(n, "no such file: " + string(n) + " (resolved to " + p + ")");
        }
        return p;
    }

    /** One file or a list of them ({@link #existing}). */
    List<Path> paths(Node n) {
        List<Node> items = n instanceof SequenceNode s ? s.getValue() : List.of(n);
        return items.stream().map(this::existing).toList();
    }

    String optString(Map<String, NodeTuple> m, String k) {
        return m.containsKey(k) ? string(m.get(k).getValueNode()) : null;
    }

    long optInt(Map<String, NodeTuple> m, String k, long def) {
        return m.containsKey(k) ? integer(m.get(k).getValueNode()) : def;
    }

    List<String> optStrings(Map<String, NodeTuple> m, String k) {
        return m.containsKey(k) ? strings(m.get(k).getValueNode()) : List.of();
    }

    Duration optDuration(Map<String, NodeTuple> m, String k) {
        return m.containsKey(k) ? duration(m.get(k).getValueNode()) : Duration.ZERO;
    }

    ScenarioException error(Node n, String message) {
        return new ScenarioException(file, line(n), message);
    }

    /** The node's line, counting from 1. */
    static int line(Node n) {
        return n.getStartMark().map(m -> m.getLine() + 1).orElse(1);
    }
}
