package dev.gantry.config.codec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.interruption.EventEnvelope;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Lifts the fields interruption handling reads out of an EventBridge event's JSON. Thread-safe. */
public final class EventBridgeCodec {
    private final ObjectMapper json;

    public EventBridgeCodec(ObjectMapper json) {
        this.json = json;
    }

    /** @throws MalformedMessage when the body is not an EventBridge event (no source, detail-type or time) */
    public EventEnvelope read(String body) {
        try {
            JsonNode o = json.readTree(body);
            if (o == null || !o.isObject() || !o.path("source").isTextual() || !o.path("detail-type").isTextual()
                    || !o.path("time").isTextual()) {
                throw new MalformedMessage("an EventBridge event needs source, detail-type and time", null);
            }
            Map<String, String> detail = new LinkedHashMap<>();
            o.path("detail").properties().forEach(e -> {
                if (e.getValue().isValueNode()) {
                    detail.put(e.getKey(), e.getValue().asText());
                }
            });
            List<String> resources = new ArrayList<>();
            o.path("resources").forEach(r -> resources.add(r.asText()));
            List<String> entities = new ArrayList<>();
            o.path("detail").path("affectedEntities").forEach(e -> entities.add(e.path("entityValue").asText()));
            return new EventEnvelope(o.path("id").asText(null), o.get("source").asText(), o.get("detail-type").asText(),
                    Instant.parse(o.get("time").asText()), detail, resources, entities);
        } catch (MalformedMessage e) {
            throw e;
        } catch (JacksonException | DateTimeParseException e) {
            throw new MalformedMessage("not an EventBridge event: " + e.getClass().getSimpleName(), e);
        }
    }
}
