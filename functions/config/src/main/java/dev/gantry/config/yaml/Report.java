package dev.gantry.config.yaml;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.source.SourceLocation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Collects the diagnostics of one document and where each field read was written. The object label
 * ({@code Kind/name}) can be set once the name is known, and applies to diagnostics reported after that.
 */
public final class Report {
    private final String path;
    private String object;
    private final List<Diagnostic> errors = new ArrayList<>();
    private final List<Diagnostic> warnings = new ArrayList<>();
    private final Map<String, SourceLocation> fields = new LinkedHashMap<>();

    public Report(String path, String object) {
        this.path = path;
        this.object = object;
    }

    public String path() { return path; }
    public String object() { return object; }
    public void object(String label) { object = label; }
    public List<Diagnostic> errors() { return errors; }
    public List<Diagnostic> warnings() { return warnings; }
    public Map<String, SourceLocation> fields() { return fields; }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    public void error(Node at, String field, String message) {
        errors.add(diagnostic(at, field, message));
    }

    public void warn(Node at, String field, String message) {
        warnings.add(diagnostic(at, field, message));
    }

    void located(String field, Node at) {
        fields.putIfAbsent(field, location(at));
    }

    public SourceLocation location(Node at) {
        Mark m = at == null ? null : at.getStartMark().orElse(null);
        return m == null ? new SourceLocation(path, 1, 1) : new SourceLocation(path, m.getLine() + 1, m.getColumn() + 1);
    }

    private Diagnostic diagnostic(Node at, String field, String message) {
        SourceLocation l = location(at);
        return new Diagnostic(path, l.line(), l.column(), object, field, message);
    }
}
