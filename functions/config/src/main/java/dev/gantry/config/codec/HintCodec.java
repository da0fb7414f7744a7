package dev.gantry.config.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.core.provisioning.ProvisioningHint;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The provisioning FIFO queue's body: {@code {"reason":"pod-created","namespace":"default","name":"web-1",
 * "uid":"…","at":"2025-06-01T12:00:00Z"}}. Thread-safe.
 */
public final class HintCodec {
    private final ObjectMapper json;

    public HintCodec(ObjectMapper json) {
        this.json = json;
    }

    public String encode(ProvisioningHint h) {
        ObjectNode o = json.createObjectNode();
        o.put("reason", h.reason().wire());
        o.put("namespace", h.namespace());
        o.put("name", h.name());
        o.put("uid", h.uid());
        o.put("at", h.at().toString());
        return o.toString();
    }

    /** @throws MalformedMessage when the body is not JSON, lacks a field, or has an unknown reason or bad time */
    public ProvisioningHint decode(String body) {
        try {
            JsonNode o = json.readTree(body);
            if (o == null || !o.isObject()) {
                throw new MalformedMessage("a hint must be a JSON object", null);
            }
            return new ProvisioningHint(ProvisioningHint.Reason.parse(text(o, "reason")), o.path("namespace").asText(""),
                    text(o, "name"), text(o, "uid"), Instant.parse(text(o, "at")));
        } catch (MalformedMessage e) {
            throw e;
        } catch (com.fasterxml.jackson.core.JacksonException | IllegalArgumentException | DateTimeParseException e) {
            throw new MalformedMessage("not a provisioning hint: " + e.getClass().getSimpleName(), e);
        }
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual()) {
            throw new MalformedMessage("a hint needs a string '" + field + "'", null);
        }
        return v.asText();
    }
}
