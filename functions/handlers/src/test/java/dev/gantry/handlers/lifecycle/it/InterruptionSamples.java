package dev.gantry.handlers.lifecycle.it;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.Events;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The events/interruption samples as the interruption Lambda receives them, with the sample's placeholder instance id
 * (not valid hex, so EC2 would reject it) swapped for an instance the test put in the EC2 stub.
 */
final class InterruptionSamples {
    /** The instance every interruption sample names (events/README.md). */
    static final String SAMPLE_INSTANCE = "i-0abcd1234efgh5678";
    static final List<String> ALL = List.of("spot-interruption-warning", "capacity-reservation-interruption",
            "rebalance-recommendation", "state-change-stopping", "state-change-terminated", "health-scheduled-change");
    private static final ObjectMapper JSON = new ObjectMapper();

    private InterruptionSamples() {
    }

    static SQSEvent load(String name, String instanceId) {
        try {
            JsonNode root = JSON.readTree(Events.load("interruption/" + name + ".json"));
            List<SQSEvent.SQSMessage> records = new ArrayList<>();
            for (JsonNode r : root.get("Records")) {
                SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
                m.setMessageId(r.get("messageId").asText());
                m.setReceiptHandle(r.get("receiptHandle").asText());
                m.setEventSourceArn(r.get("eventSourceARN").asText());
                m.setBody(r.get("body").asText().replace(SAMPLE_INSTANCE, instanceId));
                records.add(m);
            }
            SQSEvent e = new SQSEvent();
            e.setRecords(records);
            return e;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new UncheckedIOException("bad sample " + name, e);
        }
    }
}
