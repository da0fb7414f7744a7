package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.Events;
import java.io.UncheckedIOException;

/** The events/webhook samples as the Lambda runtime hands them to the handler (the fields it reads). */
final class WebhookEvents {
    static final String TOKEN = "s3cr3t-hook-token-0123456789abcdef";
    private static final ObjectMapper JSON = new ObjectMapper();

    private WebhookEvents() {
    }

    static APIGatewayV2HTTPEvent load(String sample) {
        try {
            JsonNode e = JSON.readTree(Events.load("webhook/" + sample));
            return APIGatewayV2HTTPEvent.builder()
                    .withVersion(e.path("version").asText())
                    .withRawPath(e.path("rawPath").asText())
                    .withRawQueryString(e.path("rawQueryString").asText())
                    .withBody(e.path("body").isNull() ? null : e.path("body").asText())
                    .withIsBase64Encoded(e.path("isBase64Encoded").asBoolean())
                    .build();
        } catch (com.fasterxml.jackson.core.JacksonException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
