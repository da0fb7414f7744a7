package dev.gantry.config.workload;

import dev.gantry.config.yaml.YamlObject;
import java.util.List;

/**
 * Checks containers' requests, limits and host ports as the API server would; the values themselves are read by the
 * kube-objects mapper. Returns the host ports' count only for the caller's own checks.
 */
final class ContainerChecks {
    private ContainerChecks() {
    }

    static void check(YamlObject spec, String field) {
        List<YamlObject> containers = spec.objects(field);
        for (YamlObject c : containers) {
            YamlObject res = c.object("resources");
            if (res != null) {
                res.quantityMap("requests");
                res.quantityMap("limits");
            }
            for (YamlObject p : c.objects("ports")) {
                Integer hostPort = p.integer("hostPort");
                if (hostPort != null && (hostPort < 1 || hostPort > 65535)) {
                    p.error("hostPort", "must be between 1 and 65535, got " + hostPort);
                }
            }
            c.string("restartPolicy");
        }
    }
}
