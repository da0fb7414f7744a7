package dev.gantry.config.workload;

import dev.gantry.config.yaml.YamlObject;

/** Reads a Node's {@code status.conditions}. */
final class NodeConditions {
    private NodeConditions() {
    }

    /**
     * Whether the {@code Ready} condition is {@code True}. A node without a status or without a Ready condition has not
     * reported in, so it is not ready (the kube adapter reads fabric8 nodes the same way).
     */
    static boolean ready(YamlObject status) {
        if (status == null) {
            return false;
        }
        for (YamlObject c : status.objects("conditions")) {
            if ("Ready".equals(c.string("type"))) {
                return "True".equals(c.string("status"));
            }
        }
        return false;
    }
}
