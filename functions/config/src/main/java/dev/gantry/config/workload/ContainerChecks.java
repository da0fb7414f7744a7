package dev.gantry.config.workload;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.Container;
import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads containers' requests, limits and host ports; everything else about a container is not scheduling's business. */
final class ContainerReader {
    private ContainerReader() {
    }

    static List<Container> read(YamlObject spec, String field, boolean init) {
        List<Container> out = new ArrayList<>();
        for (YamlObject c : spec.objects(field)) {
            YamlObject res = c.object("resources");
            Map<String, Quantity> requests = res == null ? null : res.quantityMap("requests");
            Map<String, Quantity> limits = res == null ? null : res.quantityMap("limits");
            List<HostPort> ports = new ArrayList<>();
            for (YamlObject p : c.objects("ports")) {
                Integer hostPort = p.integer("hostPort");
                if (hostPort != null && (hostPort < 1 || hostPort > 65535)) {
                    p.error("hostPort", "must be between 1 and 65535, got " + hostPort);
                } else if (hostPort != null) {
                    ports.add(new HostPort(hostPort, p.string("protocol"), p.string("hostIP")));
                }
            }
            boolean sidecar = init && "Always".equals(c.string("restartPolicy"));
            out.add(new Container(c.string("name"), requests, limits, sidecar, ports));
        }
        return out;
    }
}
