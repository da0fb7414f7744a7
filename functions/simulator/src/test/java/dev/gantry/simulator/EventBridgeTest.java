package dev.gantry.simulator;

import dev.gantry.simulator.world.aws.EventBridge;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The events the simulator puts on the interruption queue have the shape of the real samples in events/eventbridge. */
class EventBridgeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Simulation sim = SampleScenariosTest.run("quickstart").simulation();
    private final SimulatedInstance instance = sim.cloud.instances().stream().filter(i -> i.request() != null).findFirst().orElseThrow();
    private final EventBridge events = new EventBridge("ap-northeast-2");

    private static List<String> fields(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        n.path("detail").fieldNames().forEachRemaining(f -> out.add("detail." + f));
        return out;
    }

    @Test
    void spotWarningHasExactlyTheFieldsOfTheRealSample() throws Exception {
        JsonNode sample = JSON.readTree(Files.readString(Path.of("../../events/eventbridge/spot-interruption-warning.json")));
        JsonNode made = JSON.readTree(events.spotWarning(instance, Instant.parse("2025-06-01T00:10:00Z")));
        assertThat(fields(made)).containsExactlyInAnyOrderElementsOf(fields(sample));
        assertThat(made.get("detail-type").asText()).isEqualTo(sample.get("detail-type").asText());
        assertThat(made.get("resources").get(0).asText()).endsWith(":instance/" + instance.id()).contains(instance.zone());
    }

    @Test
    void aUsersRawEventGetsTheInstanceIdEverywhereAndReadsBackAsAnEnvelope() throws Exception {
        String raw = Files.readString(Path.of("../../events/eventbridge/health-scheduled-change.json"));
        String json = events.rewrite(raw, instance, Instant.parse("2025-06-01T00:10:00Z"));
        assertThat(json).doesNotContain("i-0abcd1234efgh5678").contains(instance.id());
        var envelope = EventBridge.envelope(json);
        assertThat(envelope.source()).isEqualTo("aws.health");
        assertThat(envelope.affectedEntities()).containsExactly(instance.id());
        assertThat(envelope.field("eventTypeCategory")).isEqualTo("scheduledChange");
    }
}
