package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every events/ sample parses and carries the fields its handler reads. */
class EventSamplesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INSTANCE = "i-0abcd1234efgh5678";

    private static JsonNode read(String path) throws IOException {
        return JSON.readTree(Events.load(path));
    }

    static Stream<String> allSamples() throws IOException {
        Path root = Events.root();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".json")).map(f -> root.relativize(f).toString()).sorted()
                    .toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("allSamples")
    void everySampleIsJsonWithAnObjectRoot(String path) throws IOException {
        assertThat(read(path).isObject()).isTrue();
    }

    @Test
    void thereAreSamplesForEveryHandler() throws IOException {
        assertThat(allSamples().toList()).hasSize(25)
                .contains("sweep/scheduled-event.json", "webhook/node-delete.json", "interruption/malformed-batch.json");
    }

    @ParameterizedTest
    @CsvSource({
        "spot-interruption-warning, aws.ec2, EC2 Spot Instance Interruption Warning, instance-action, terminate",
        "rebalance-recommendation, aws.ec2, EC2 Instance Rebalance Recommendation, instance-id, " + INSTANCE,
        "state-change-terminated, aws.ec2, EC2 Instance State-change Notification, state, terminated",
        "state-change-stopping, aws.ec2, EC2 Instance State-change Notification, state, stopping",
        "capacity-reservation-interruption, aws.ec2, EC2 Capacity Reservation Instance Interruption Warning, "
                + "instance-action, terminate",
    })
    void interruptionSamplesWrapTheEventBridgeEventInAnSqsRecord(String name, String source, String detailType,
                                                                  String detailField, String detailValue) throws Exception {
        JsonNode bare = read("eventbridge/" + name + ".json");
        JsonNode record = read("interruption/" + name + ".json").path("Records").get(0);
        String body = record.path("body").asText();

        assertThat(JSON.readTree(body)).isEqualTo(bare);
        assertThat(bare.path("source").asText()).isEqualTo(source);
        assertThat(bare.path("detail-type").asText()).isEqualTo(detailType);
        assertThat(bare.at("/detail/instance-id").asText()).isEqualTo(INSTANCE);
        assertThat(bare.path("detail").path(detailField).asText()).isEqualTo(detailValue);
        assertThat(record.path("eventSource").asText()).isEqualTo("aws:sqs");
        assertThat(record.path("eventSourceARN").asText()).startsWith("arn:aws:sqs:us-east-1:123456789012:");
        assertThat(record.path("md5OfBody").asText()).isEqualTo(md5(body));
        assertThat(record.path("messageId").asText()).isNotBlank();
        assertThat(record.path("receiptHandle").asText()).isNotBlank();
    }

    @Test
    void healthSampleIsAnEc2ScheduledChangeNamingTheInstance() throws IOException {
        JsonNode event = read("eventbridge/health-scheduled-change.json");

        assertThat(event.path("source").asText()).isEqualTo("aws.health");
        assertThat(event.path("detail-type").asText()).isEqualTo("AWS Health Event");
        assertThat(event.at("/detail/service").asText()).isEqualTo("EC2");
        assertThat(event.at("/detail/eventTypeCategory").asText()).isEqualTo("scheduledChange");
        assertThat(event.at("/detail/affectedEntities/0/entityValue").asText()).isEqualTo(INSTANCE);
    }

    @Test
    void malformedBatchHasOneGoodRecordAndOneNonJsonBody() throws IOException {
        JsonNode records = read("interruption/malformed-batch.json").path("Records");

        assertThat(records).hasSize(2);
        assertThat(JSON.readTree(records.get(0).path("body").asText()).path("source").asText()).isEqualTo("aws.ec2");
        assertThatThrownBy(() -> JSON.readTree(records.get(1).path("body").asText())).isInstanceOf(IOException.class);
        assertThat(records.get(0).path("messageId").asText()).isNotEqualTo(records.get(1).path("messageId").asText());
    }

    @Test
    void scheduledEventIsWhatAScheduleRuleDelivers() throws IOException {
        JsonNode event = read("sweep/scheduled-event.json");

        assertThat(event.path("source").asText()).isEqualTo("aws.events");
        assertThat(event.path("detail-type").asText()).isEqualTo("Scheduled Event");
        assertThat(event.path("resources").get(0).asText()).startsWith("arn:aws:events:us-east-1:123456789012:rule/");
    }

    @ParameterizedTest
    @CsvSource({
        "pod-create, 0d6c2b1a-1111-4a2b-8c3d-000000000001, Pod, CREATE, '', false",
        "pods-status-unschedulable, 0d6c2b1a-1111-4a2b-8c3d-000000000002, Pod, UPDATE, status, false",
        "node-create, 0d6c2b1a-1111-4a2b-8c3d-000000000003, Node, CREATE, '', false",
        "node-delete, 0d6c2b1a-1111-4a2b-8c3d-000000000004, Node, DELETE, '', false",
        "node-update-deletion-timestamp, 0d6c2b1a-1111-4a2b-8c3d-000000000005, Node, UPDATE, '', false",
        "dry-run, 0d6c2b1a-1111-4a2b-8c3d-000000000006, Pod, CREATE, '', true",
        "wrong-token, 0d6c2b1a-1111-4a2b-8c3d-000000000001, Pod, CREATE, '', false",
        "nodepool-create, 0d6c2b1a-1111-4a2b-8c3d-000000000007, NodePool, CREATE, '', false",
        "nodepool-create-invalid, 0d6c2b1a-1111-4a2b-8c3d-000000000008, NodePool, CREATE, '', false",
        "nodepool-create-no-object, 0d6c2b1a-1111-4a2b-8c3d-000000000009, NodePool, CREATE, '', false",
    })
    void webhookSamplesAreFunctionUrlEventsCarryingAnAdmissionReview(String name, String uid, String kind,
            String operation, String subResource, boolean dryRun) throws IOException {
        JsonNode event = read("webhook/" + name + ".json");
        JsonNode review = JSON.readTree(event.path("body").asText());
        JsonNode request = review.path("request");

        assertThat(event.path("version").asText()).isEqualTo("2.0");
        assertThat(event.path("rawPath").asText()).startsWith("/hook/");
        assertThat(event.at("/requestContext/http/method").asText()).isEqualTo("POST");
        assertThat(event.at("/headers/content-type").asText()).isEqualTo("application/json");
        assertThat(event.path("isBase64Encoded").asBoolean(true)).isFalse();
        assertThat(review.path("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
        assertThat(review.path("kind").asText()).isEqualTo("AdmissionReview");
        assertThat(request.path("uid").asText()).isEqualTo(uid);
        assertThat(request.at("/kind/kind").asText()).isEqualTo(kind);
        assertThat(request.path("operation").asText()).isEqualTo(operation);
        assertThat(request.path("subResource").asText("")).isEqualTo(subResource);
        assertThat(request.path("dryRun").asBoolean()).isEqualTo(dryRun);
        assertThat(request.has("userInfo") && request.has("options")).isTrue();
    }

    @Test
    void webhookSamplesCarryTheStateTheirOperationImplies() throws IOException {
        JsonNode unschedulable = request("pods-status-unschedulable");
        assertThat(unschedulable.at("/object/status/conditions/0/type").asText()).isEqualTo("PodScheduled");
        assertThat(unschedulable.at("/object/status/conditions/0/status").asText()).isEqualTo("False");
        assertThat(unschedulable.at("/object/status/conditions/0/reason").asText()).isEqualTo("Unschedulable");

        JsonNode delete = request("node-delete");
        assertThat(delete.path("object").isNull()).isTrue();
        assertThat(delete.at("/oldObject/spec/providerID").asText()).isEqualTo("aws:///us-east-1a/" + INSTANCE);

        JsonNode deleting = request("node-update-deletion-timestamp");
        assertThat(deleting.at("/object/metadata/deletionTimestamp").asText()).isNotBlank();
        assertThat(deleting.at("/oldObject/metadata/deletionTimestamp").isMissingNode()).isTrue();

        JsonNode pool = request("nodepool-create");
        assertThat(pool.at("/kind/group").asText()).isEqualTo("karpenter.sh");
        assertThat(pool.at("/object/metadata/managedFields/0/manager").asText()).isEqualTo("kubectl-client-side-apply");
        assertThat(request("nodepool-create-invalid").at("/object/spec/template/spec/requirements/5/operator").asText())
                .isEqualTo("in");
        assertThat(request("nodepool-create-no-object").has("object")).isFalse();

        assertThat(read("webhook/wrong-token.json").path("rawPath").asText())
                .isNotEqualTo(read("webhook/pod-create.json").path("rawPath").asText());
        assertThatThrownBy(() -> JSON.readTree(read("webhook/malformed.json").path("body").asText()))
                .isInstanceOf(IOException.class);
    }

    private static JsonNode request(String name) throws IOException {
        return JSON.readTree(read("webhook/" + name + ".json").path("body").asText()).path("request");
    }

    private static String md5(String text) throws Exception {
        byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
        return String.format("%032x", new BigInteger(1, digest));
    }
}
