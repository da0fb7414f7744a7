package dev.gantry.simulator.scenario;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.source.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * Reads the GitOps events of a scenario: an inline NodePool or EC2NodeClass under {@code apply:} (what
 * {@code kubectl apply} or Argo CD writes), and {@code delete: {kind: NodePool, name: x}}. An inline object is read
 * where it is written, through the config reader {@code gantry validate} uses, so a mistake in it is reported at its
 * own line and column in the scenario file, before the run starts.
 */
final class ConfigEvents {
    /** The kinds an event may apply or delete. */
    static final List<String> KINDS = List.of("NodePool", "EC2NodeClass", "NodeOverlay");

    private final ScenarioNodes yaml;

    ConfigEvents(ScenarioNodes yaml) {
        this.yaml = yaml;
    }

    /** {@code apply:} with a mapping: one NodePool or EC2NodeClass, read and checked now. */
    @SuppressWarnings("unchecked")
    Scenario.Action apply(Node v) {
        if (!(v instanceof MappingNode m)) {
            throw yaml.error(v, "apply takes a manifest file, or one NodePool or EC2NodeClass written inline");
        }
        String kind = field(m, "kind");
        if (!KINDS.contains(kind)) {
            throw yaml.error(v, "an inline apply takes a NodePool, EC2NodeClass or NodeOverlay" + (kind == null ? "" : ", not " + kind)
                    + " (apply workloads from a file)");
        }
        String text = inPlace(v);
        LoadResult r = ConfigLoader.loadString(yaml.file(), text, LoadOptions.DEFAULT);
        if (!r.ok()) {
            Diagnostic d = r.errors().getFirst();
            throw new ScenarioException(yaml.file(), d.line(), d.toString().substring(d.toString().indexOf(": ") + 2));
        }
        Map<String, Object> object = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
        String name = (String) ((Map<String, Object>) object.get("metadata")).get("name");
        return new Scenario.ApplyConfig(kind, name, object);
    }

    /** {@code delete:} with {@code kind} and {@code name}. */
    Scenario.Action delete(Node v, Map<String, NodeTuple> d) {
        String kind = yaml.string(yaml.require(d, "kind", v));
        if (!KINDS.contains(kind)) {
            throw yaml.error(d.get("kind").getValueNode(), "delete takes a deployment, or a kind of " + KINDS + ", not " + kind);
        }
        return new Scenario.DeleteConfig(kind, yaml.string(yaml.require(d, "name", v)));
    }

    private String field(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) {
            if (key.equals(yaml.string(t.getKeyNode()))) {
                return yaml.string(t.getValueNode());
            }
        }
        return null;
    }

    /**
     * The node's text, at its own line and column: blank lines and spaces before it, so every line and column the
     * reader reports is the scenario file's.
     */
    private String inPlace(Node v) {
        Mark start = v.getStartMark().orElseThrow();
        Mark end = v.getEndMark().orElseThrow();
        String file;
        try {
            file = Files.readString(Path.of(yaml.file()));
        } catch (IOException e) {
            throw yaml.error(v, "cannot read the scenario again: " + e.getMessage());
        }
        int from = file.offsetByCodePoints(0, start.getIndex());
        int to = file.offsetByCodePoints(0, end.getIndex());
        return "\n".repeat(start.getLine()) + " ".repeat(start.getColumn()) + file.substring(from, to);
    }

    static boolean isConfigDelete(Set<String> keys) {
        return keys.contains("kind") || keys.contains("name");
    }
}
