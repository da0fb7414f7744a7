package dev.gantry.config.yaml;

import java.util.Map;

/**
 * One Kubernetes object document after its envelope ({@code apiVersion}, {@code kind}, {@code metadata}) was read;
 * readers take the spec from here. {@code namespace} is {@code default} when unset.
 */
public record Doc(YamlObject root, String apiVersion, String kind, String name, String namespace,
                  Map<String, String> labels, Map<String, String> annotations, Report report) {
    public Doc {
        labels = labels == null ? Map.of() : labels;
        annotations = annotations == null ? Map.of() : annotations;
    }

    /** {@code spec}, or null (with an error when {@code required}). */
    public YamlObject spec(boolean required) {
        if (required) {
            root.require("spec");
        }
        return root.object("spec");
    }

    /** A warning about the object as a whole (one line per conversion). */
    public void warn(String message) {
        report.warn(root.node(), "", message);
    }
}
