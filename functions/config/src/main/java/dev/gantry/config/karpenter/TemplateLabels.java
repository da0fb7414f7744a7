package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads a NodePool template's (or Provisioner's) {@code labels}, enforcing label syntax and Karpenter's restrictions. */
final class TemplateLabels {
    /** Karpenter's CRD caps template labels at 100. */
    private static final int MAX_LABELS = 100;

    private TemplateLabels() {
    }

    static Map<String, String> read(YamlObject parent) {
        Map<String, String> labels = parent.stringMap("labels");
        if (labels == null) {
            return null;
        }
        YamlObject at = parent.object("labels");
        if (labels.size() > MAX_LABELS) {
            parent.error("labels", "at most " + MAX_LABELS + " labels are allowed, got " + labels.size());
        }
        Map<String, String> out = new LinkedHashMap<>();
        labels.forEach((k, v) -> {
            String problem = LabelRules.keySyntaxProblem(k);
            if (problem == null) {
                problem = LabelRules.restrictedProblem(k);
            }
            if (problem == null && v != null) {
                problem = LabelRules.valueProblem(v);
            }
            if (problem != null) {
                at.errorAtKey(k, problem);
            } else if (v != null) {
                out.put(k, v);
            }
        });
        return out;
    }
}
