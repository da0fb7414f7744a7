package dev.gantry.cli.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.work.WorkQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;

/**
 * Provisioning hints on the simulated FIFO queue in the wave-2 wire format
 * ({@code {"reason","namespace","name","uid","at"}}, group = cluster name, dedup id = the hint's 10-second bucket hash).
 * Both the webhook and the lifecycle services ({@link ProvisioningHints}) send through this.
 */
final class HintMessages implements ProvisioningHints {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final WorkQueue queue;
    private final String cluster;

    HintMessages(WorkQueue queue, String cluster) {
        this.queue = queue;
        this.cluster = cluster;
    }

    void send(ProvisioningHint hint) {
        queue.send(encode(hint), cluster, hint.deduplicationId(), Duration.ZERO);
    }

    @Override
    public void send(String reason, Pod pod, String nodeName, Instant at) {
        ProvisioningHint.Reason r = ProvisioningHint.Reason.parse(reason);
        ProvisioningHint hint = pod != null ? new ProvisioningHint(r, pod.namespace(), pod.name(), pod.uid(), at)
                : new ProvisioningHint(r, "", nodeName == null ? "cluster" : nodeName, "node/" + nodeName, at);
        send(hint);
    }

    static String encode(ProvisioningHint h) {
        ObjectNode o = JSON.createObjectNode();
        o.put("reason", h.reason().wire());
        o.put("namespace", h.namespace());
        o.put("name", h.name());
        o.put("uid", h.uid());
        o.put("at", h.at().toString());
        return o.toString();
    }

    /** @throws IllegalArgumentException when the body is not a hint */
    static ProvisioningHint decode(String body) {
        try {
            JsonNode o = JSON.readTree(body);
            return new ProvisioningHint(ProvisioningHint.Reason.parse(o.path("reason").asText()), o.path("namespace").asText(),
                    o.path("name").asText(), o.path("uid").asText(), Instant.parse(o.path("at").asText()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
