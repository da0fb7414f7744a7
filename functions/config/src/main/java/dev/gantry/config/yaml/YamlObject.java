package dev.gantry.config.yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * A YAML mapping read as one Kubernetes object or sub-object, with every problem reported at its line and column
 * under its field path. Getters never throw: a missing or ill-typed field reports (where it is an error) and
 * returns null, so readers can carry on and report every problem in one pass.
 */
public final class YamlObject {
    private final Node node;
    private final String path;
    private final Report report;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    /** Allowed names that an unknown field was taken for, so their absence is not reported a second time. */
    private final java.util.Set<String> misspelt = new java.util.HashSet<>();

    private YamlObject(MappingNode node, String path, Report report) {
        this.node = node;
        this.path = path;
        this.report = report;
        for (NodeTuple t : node.getValue()) {
            String key = t.getKeyNode() instanceof ScalarNode s ? s.getValue() : String.valueOf(t.getKeyNode());
            if (entries.putIfAbsent(key, t) != null) {
                report.error(t.getKeyNode(), child(key), "duplicate field \"" + key + "\"");
            }
            report.located(child(key), t.getValueNode());
        }
    }

    /** The mapping at {@code node}, or null (with a type error) when it is something else. */
    public static YamlObject of(Node node, String path, Report report) {
        if (node instanceof MappingNode m) {
            return new YamlObject(m, path, report);
        }
        if (!isNull(node)) {
            report.error(node, path, "expected a mapping, got " + Scalars.describe(node));
        }
        return null;
    }

    public String path() { return path; }
    public Report report() { return report; }
    public Node node() { return node; }
    public Set<String> keys() { return entries.keySet(); }

    /** The field path of a child key. */
    public String child(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Reports every field not in {@code allowed}, suggesting the nearest allowed name for a near miss. */
    public YamlObject allow(Set<String> allowed) {
        for (var e : entries.entrySet()) {
            if (!allowed.contains(e.getKey())) {
                String near = Suggest.closest(e.getKey(), allowed);
                if (near != null) {
                    misspelt.add(near);
                }
                report.error(e.getValue().getKeyNode(), child(e.getKey()), "unknown field \"" + e.getKey() + "\""
                        + (near == null ? "" : ", did you mean \"" + near + "\"?"));
            }
        }
        return this;
    }

    public YamlObject allow(String... allowed) {
        return allow(Set.of(allowed));
    }

    /** Whether the field is written with a non-null value. */
    public boolean has(String key) {
        NodeTuple t = entries.get(key);
        return t != null && !isNull(t.getValueNode());
    }

    /** The value node of a field, or null when absent or null. */
    public Node value(String key) {
        NodeTuple t = entries.get(key);
        return t == null || isNull(t.getValueNode()) ? null : t.getValueNode();
    }

    /** The key node of a field (for problems with the field's presence), else this mapping. */
    public Node at(String key) {
        NodeTuple t = entries.get(key);
        return t == null ? node : t.getValueNode();
    }

    public void error(String key, String message) {
        report.error(at(key), child(key), message);
    }

    /** An error about a field's name (a restricted label key, say), reported at the key. */
    public void errorAtKey(String key, String message) {
        NodeTuple t = entries.get(key);
        report.error(t == null ? node : t.getKeyNode(), child(key), message);
    }

    public void warn(String key, String message) {
        report.warn(at(key), child(key), message);
    }

    /** An error about this object as a whole (a missing field, a rule across fields). */
    public void errorHere(String field, String message) {
        report.error(node, field == null ? path : child(field), message);
    }

    /** Reports a missing required field; returns whether it is present. */
    public boolean require(String key) {
        if (has(key)) {
            return true;
        }
        if (misspelt.contains(key)) {
            return false;
        }
        report.error(node, child(key), "required field is missing");
        return false;
    }

    public String string(String key) {
        Node v = value(key);
        return v == null ? null : Scalars.string(v, child(key), report);
    }

    public Integer integer(String key) {
        Node v = value(key);
        return v == null ? null : Scalars.integer(v, child(key), report);
    }

    public Boolean bool(String key) {
        Node v = value(key);
        return v == null ? null : Scalars.bool(v, child(key), report);
    }

    public YamlObject object(String key) {
        Node v = value(key);
        return v == null ? null : of(v, child(key), report);
    }

    /** The items of a list field, or an empty list (with a type error when it is not a list). */
    public List<Node> items(String key) {
        Node v = value(key);
        if (v == null) {
            return List.of();
        }
        if (v instanceof SequenceNode s) {
            return s.getValue();
        }
        report.error(v, child(key), "expected a list, got " + Scalars.describe(v));
        return List.of();
    }

    /** A list of mappings; items that are not mappings are reported and skipped. */
    public List<YamlObject> objects(String key) {
        List<YamlObject> out = new ArrayList<>();
        List<Node> items = items(key);
        for (int i = 0; i < items.size(); i++) {
            report.located(child(key) + "[" + i + "]", items.get(i));
            YamlObject o = of(items.get(i), child(key) + "[" + i + "]", report);
            if (o != null) {
                out.add(o);
            }
        }
        return out;
    }

    public List<String> strings(String key) {
        List<String> out = new ArrayList<>();
        List<Node> items = items(key);
        for (int i = 0; i < items.size(); i++) {
            String s = Scalars.string(items.get(i), child(key) + "[" + i + "]", report);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * A list of values the API server types as strings ({@link Scalars#strictString}); null when any item is not a
     * string (each reported), so callers do not also judge the shortened list.
     */
    public List<String> strictStrings(String key) {
        List<String> out = new ArrayList<>();
        List<Node> items = items(key);
        boolean all = true;
        for (int i = 0; i < items.size(); i++) {
            String s = Scalars.strictString(items.get(i), child(key) + "[" + i + "]", report, true);
            if (s == null) {
                all = false;
            } else {
                out.add(s);
            }
        }
        return all ? out : null;
    }

    /** A field the API server types as a string; null when absent or not a string (reported). */
    public String strictString(String key) {
        Node v = value(key);
        return v == null ? null : Scalars.strictString(v, child(key), report, false);
    }

    /** A string-to-string map ({@code labels}, {@code tags}); null when absent. */
    public Map<String, String> stringMap(String key) {
        YamlObject o = object(key);
        if (o == null) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String k : o.keys()) {
            Node v = o.entries.get(k).getValueNode();
            out.put(k, isNull(v) ? "" : Scalars.string(v, o.child(k), report));
        }
        return out;
    }

    public dev.gantry.core.model.Quantity quantity(String key) {
        Node v = value(key);
        return v == null ? null : Scalars.quantity(v, child(key), report);
    }

    /** A duration field; null when absent or wrong (reported), empty for {@code Never}. */
    public java.util.Optional<java.time.Duration> duration(String key, boolean neverAllowed) {
        Node v = value(key);
        return v == null ? null : Scalars.duration(v, child(key), report, neverAllowed);
    }

    /** A resource-name-to-quantity map ({@code limits}, {@code requests}, {@code kubeReserved}); null when absent. */
    public Map<String, dev.gantry.core.model.Quantity> quantityMap(String key) {
        YamlObject o = object(key);
        if (o == null) {
            return null;
        }
        Map<String, dev.gantry.core.model.Quantity> out = new LinkedHashMap<>();
        for (String k : o.keys()) {
            dev.gantry.core.model.Quantity q = o.quantity(k);
            if (q != null) {
                out.put(k, q);
            }
        }
        return out;
    }

    static boolean isNull(Node n) {
        return n == null || (n instanceof ScalarNode s && s.getTag().equals(Tag.NULL));
    }
}
