package dev.gantry.config.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.disruption.execution.ConsolidationRequest;
import dev.gantry.core.termination.TerminationRequest;

/**
 * The termination queue's bodies: a termination slice, {@code {"claim":"<nodeclaim name>","step":<int>}}, or a
 * consolidation step, {@code {"consolidation":"<command id>","claim":"<leader>","step":<int>}}. Thread-safe.
 */
public final class TerminationCodec {
    private final ObjectMapper json;

    public TerminationCodec(ObjectMapper json) {
        this.json = json;
    }

    public String encode(TerminationRequest r) {
        return json.createObjectNode().put("claim", r.claim()).put("step", r.step()).toString();
    }

    public String encode(ConsolidationRequest r) {
        return json.createObjectNode().put("consolidation", r.command()).put("claim", r.claim()).put("step", r.step()).toString();
    }

    /** Whether the body is a consolidation step (it has a {@code consolidation} field); a body that is not JSON is not. */
    public boolean isConsolidation(String body) {
        try {
            JsonNode o = json.readTree(body);
            return o != null && o.has("consolidation");
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            return false;
        }
    }

    /** @throws MalformedMessage when the body is not a consolidation step with a valid command id and claim name */
    public ConsolidationRequest decodeConsolidation(String body) {
        try {
            JsonNode o = json.readTree(body);
            if (o == null || !o.path("consolidation").isTextual() || !o.path("claim").isTextual()
                    || !o.path("step").isIntegralNumber() || !o.path("step").canConvertToInt()) {
                throw new MalformedMessage("a consolidation message needs a string 'consolidation' and 'claim' and an integer 'step'", null);
            }
            return new ConsolidationRequest(o.get("claim").asText(), o.get("consolidation").asText(), o.get("step").asInt());
        } catch (MalformedMessage e) {
            throw e;
        } catch (com.fasterxml.jackson.core.JacksonException | IllegalArgumentException e) {
            throw new MalformedMessage("not a consolidation message: " + e.getClass().getSimpleName(), e);
        }
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
