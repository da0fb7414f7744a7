package dev.gantry.config.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.termination.TerminationRequest;

/** The termination queue's body: {@code {"claim":"<nodeclaim name>","step":<int>}}. Thread-safe. */
public final class TerminationCodec {
    private final ObjectMapper json;

    public TerminationCodec(ObjectMapper json) {
        this.json = json;
    }

    public String encode(TerminationRequest r) {
        return json.createObjectNode().put("claim", r.claim()).put("step", r.step()).toString();
    }

    /** @throws MalformedMessage when the body is not such an object or the claim is not a nodeclaim name */
    public TerminationRequest decode(String body) {
        try {
            JsonNode o = json.readTree(body);
            if (o == null || !o.path("claim").isTextual() || !o.path("step").canConvertToInt() || !o.path("step").isIntegralNumber()) {
                throw new MalformedMessage("a termination message needs a string 'claim' and an integer 'step'", null);
            }
            return new TerminationRequest(o.get("claim").asText(), o.get("step").asInt());
        } catch (MalformedMessage e) {
            throw e;
        } catch (com.fasterxml.jackson.core.JacksonException | IllegalArgumentException e) {
            throw new MalformedMessage("not a termination message: " + e.getClass().getSimpleName(), e);
        }
    }
}
