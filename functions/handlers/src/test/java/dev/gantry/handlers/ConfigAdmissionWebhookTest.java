package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.webhook.PathToken;
import dev.gantry.handlers.webhook.WebhookComposition;
import dev.gantry.handlers.webhook.WebhookToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The webhook's admission of configuration objects, on real AdmissionReview v1 requests as the Function URL delivers
 * them ({@code events/webhook/nodepool-*.json}: a kubectl apply of seed 002's NodePool, with managedFields and the
 * last-applied annotation): refused with Gantry's message when the reader rejects the object, allowed with a
 * config-changed hint otherwise, and allowed with a warning whenever Gantry cannot judge. The hint's SQS path is the
 * pods' ({@link PendingPodWebhookHandlerTest} runs it against ElasticMQ); here the queue records what is sent.
 */
class ConfigAdmissionWebhookTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:03Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> sent = new ArrayList<>();
    private final WorkQueue queue = (body, group, dedup, delay) -> sent.add(body);

    private PendingPodWebhookHandler handler(Set<String> gantryPools) {
        return new PendingPodWebhookHandler(new WebhookComposition.Parts("test-cluster", queue,
                WebhookToken.fixed(PathToken.of(WebhookEvents.TOKEN)), Duration.ofSeconds(1), gantryPools),
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private JsonNode response(APIGatewayV2HTTPEvent event, Set<String> pools) throws Exception {
        APIGatewayV2HTTPResponse reply = handler(pools).handleRequest(event, null);
        assertThat(reply.getStatusCode()).isEqualTo(200);
        return JSON.readTree(reply.getBody()).path("response");
    }

    private JsonNode response(String sample) throws Exception {
        return response(WebhookEvents.load(sample), Set.of());
    }

    /** The sample with its review's object changed by {@code edit}. */
    private static APIGatewayV2HTTPEvent edited(String sample, java.util.function.Consumer<ObjectNode> edit) throws Exception {
        APIGatewayV2HTTPEvent e = WebhookEvents.load(sample);
        ObjectNode review = (ObjectNode) JSON.readTree(e.getBody());
        edit.accept((ObjectNode) review.path("request"));
        e.setBody(review.toString());
        return e;
    }

    @Test
    void aBadNodePoolIsRefusedWithTheFieldPathWhatIsWrongAndADidYouMean() throws Exception {
        JsonNode r = response("nodepool-create-invalid.json");

        assertThat(r.path("uid").asText()).isEqualTo("0d6c2b1a-1111-4a2b-8c3d-000000000008");
        assertThat(r.path("allowed").asBoolean()).isFalse();
        assertThat(r.path("status").path("code").asInt()).isEqualTo(422);
        assertThat(r.path("status").path("message").asText()).isEqualTo("Gantry refused NodePool/web: "
                + "spec.template.spec.requirements[5].operator: 'in' is not an operator (In, NotIn, Exists, DoesNotExist, "
                + "Gt, Lt, Gte, Lte), did you mean \"In\"?; spec.disruption.consolidateAftr: unknown field "
                + "\"consolidateAftr\", did you mean \"consolidateAfter\"?");
        assertThat(sent).as("no hint for a refused write").isEmpty();
    }

    @Test
    void theSeedNodePoolIsAllowedAndSendsAConfigChangedHint() throws Exception {
        JsonNode r = response("nodepool-create.json");

        assertThat(r.path("allowed").asBoolean()).isTrue();
        assertThat(r.has("status")).isFalse();
        assertThat(sent).singleElement().asString().startsWith("{\"reason\":\"config-changed\",\"namespace\":\"\","
                + "\"name\":\"seed002-node-pool\",\"uid\":\"7a1e0c52-5b7d-4c0e-9f1a-2b3c4d5e6f70\"");
    }

    @Test
    void aNodeClassRefTheRequestDoesNotCarryIsNotAnError() throws Exception {
        // seed002-node-pool names EC2NodeClass seed002, which is not in the review: judged alone, it is admitted,
        // without a warning about it (the cluster may hold it, or get it next).
        JsonNode r = response("nodepool-create.json");
        assertThat(r.path("allowed").asBoolean()).isTrue();
        assertThat(r.path("warnings").toString()).doesNotContain("seed002\"", "not in the input");
    }

    @Test
    void aCapacityBufferWhosePodTemplateIsInTheClusterIsAllowed() throws Exception {
        APIGatewayV2HTTPEvent e = edited("nodepool-create.json", req -> {
            req.set("kind", JSON.createObjectNode().put("group", "autoscaling.x-k8s.io").put("version", "v1beta1")
                    .put("kind", "CapacityBuffer"));
            req.put("namespace", "default");
            ObjectNode buffer = JSON.createObjectNode().put("apiVersion", "autoscaling.x-k8s.io/v1beta1").put("kind", "CapacityBuffer");
            buffer.putObject("metadata").put("name", "batch-warm").put("namespace", "default");
            buffer.putObject("spec").put("replicas", 2).putObject("podTemplateRef").put("name", "batch-worker");
            req.set("object", buffer);
        });

        JsonNode r = response(e, Set.of());

        assertThat(r.path("allowed").asBoolean()).as(r.toString()).isTrue();
        assertThat(sent).singleElement().asString().contains("\"reason\":\"config-changed\"");
    }

    @Test
    void aReviewWithoutItsObjectIsAllowedWithAWarning() throws Exception {
        JsonNode r = response("nodepool-create-no-object.json");

        assertThat(r.path("allowed").asBoolean()).isTrue();
        assertThat(r.path("warnings").get(0).asText()).isEqualTo("Gantry could not check this NodePool: the review carries no object");
    }

    @Test
    void anObjectTheReaderCannotEvenParseIsAllowedWithAWarningNeverBlockingKubectl() throws Exception {
        APIGatewayV2HTTPEvent e = edited("nodepool-create.json", req -> ((ObjectNode) req.path("object")).put("spec", "not a map"));

        JsonNode r = response(e, Set.of());

        // A spec that is not a mapping is a reader error (refused), not a crash: the API server's schema would refuse it too.
        assertThat(r.path("allowed").asBoolean()).isFalse();
        assertThat(r.path("status").path("message").asText()).startsWith("Gantry refused NodePool/seed002-node-pool: spec");
    }

    @Test
    void aDryRunIsJudgedButSendsNoHint() throws Exception {
        APIGatewayV2HTTPEvent e = edited("nodepool-create.json", req -> req.put("dryRun", true));

        assertThat(response(e, Set.of()).path("allowed").asBoolean()).isTrue();
        assertThat(sent).isEmpty();
    }

    @Test
    void besideAnotherAutoscalerAPoolNotNamedAsGantrysIsNotJudged() throws Exception {
        JsonNode other = response(WebhookEvents.load("nodepool-create-invalid.json"), Set.of("gantry-batch"));
        JsonNode ours = response(WebhookEvents.load("nodepool-create-invalid.json"), Set.of("web"));

        assertThat(other.path("allowed").asBoolean()).isTrue();
        assertThat(other.has("warnings")).isFalse();
        assertThat(ours.path("allowed").asBoolean()).isFalse();
    }

    @Test
    void aStatusUpdateIsNotJudged() throws Exception {
        APIGatewayV2HTTPEvent e = edited("nodepool-create-invalid.json", req -> req.put("subResource", "status").put("operation", "UPDATE"));

        assertThat(response(e, Set.of()).path("allowed").asBoolean()).isTrue();
        assertThat(sent).isEmpty();
    }

    @Test
    void warningsAreCappedAtTheApiServersLimits() throws Exception {
        APIGatewayV2HTTPEvent e = edited("nodepool-create.json", req -> {
            ArrayNode reqs = (ArrayNode) req.path("object").path("spec").path("template").path("spec").path("requirements");
            for (int i = 0; i < 15; i++) {
                reqs.addObject().put("key", "karpenter.sh/capacity-typ" + i).put("operator", "Exists");
            }
        });

        JsonNode r = response(e, Set.of());

        assertThat(r.path("warnings").size()).isLessThanOrEqualTo(10);
        r.path("warnings").forEach(w -> assertThat(w.asText().length()).isLessThanOrEqualTo(256));
    }
}
