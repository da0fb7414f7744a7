package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.handlers.webhook.PathToken;
import dev.gantry.core.provisioning.WebhookDecision;
import dev.gantry.handlers.webhook.WebhookComposition;
import dev.gantry.handlers.webhook.WebhookToken;
import dev.gantry.testing.MutableClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import dev.gantry.testing.ElasticMq;
import dev.gantry.testing.IamCallRecorder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

class PendingPodWebhookHandlerTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:03Z");
    private static final AtomicInteger QUEUES = new AtomicInteger();
    private static ElasticMq mq;
    /** The webhook function's own client: signed as "webhook" and recorded for infra's IamContractTest. */
    private static SqsClient webhookSqs;
    private String queueUrl;
    private PendingPodWebhookHandler handler;

    @BeforeAll
    static void start() {
        mq = ElasticMq.start();
        webhookSqs = SqsClient.builder().endpointOverride(mq.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("webhook", "secret")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(new IamCallRecorder())).build();
    }

    @AfterAll
    static void stop() {
        webhookSqs.close();
        mq.close();
    }

    @BeforeEach
    void queue() {
        queueUrl = mq.sqsClient().createQueue(r -> r.queueName("hints-" + QUEUES.incrementAndGet() + ".fifo")
                .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
        handler = handler(queueUrl);
    }

    private static PendingPodWebhookHandler handler(String url) {
        return new PendingPodWebhookHandler(new WebhookComposition.Parts("test-cluster",
                new SqsWorkQueue(webhookSqs, url), PathToken.of(WebhookEvents.TOKEN)), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private List<Message> messages() {
        return mq.sqsClient().receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(0)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
    }

    private static String allowed(String uid) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\"" + uid
                + "\",\"allowed\":true}}";
    }

    private static String hint(String reason, String ns, String name, String uid) {
        return "{\"reason\":\"" + reason + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"uid\":\"" + uid
                + "\",\"at\":\"2025-06-01T12:00:03Z\"}";
    }

    @Test
    void podCreateIsAllowedAndSendsOnePodCreatedHintToTheClusterGroup() {
        APIGatewayV2HTTPResponse reply = handler.handleRequest(WebhookEvents.load("pod-create.json"), null);

        assertThat(reply.getStatusCode()).isEqualTo(200);
        assertThat(reply.getBody()).isEqualTo(allowed("0d6c2b1a-1111-4a2b-8c3d-000000000001"));
        assertThat(messages()).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo(hint("pod-created", "default", "web-6d5f7c8b9-x7k2p", "5f0c1b7e-3a2d-4c8e-9b1f-0a2b3c4d5e6f"));
            assertThat(m.attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, "test-cluster");
            assertThat(m.attributes().get(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID)).isEqualTo(
                    WebhookDecision.deduplicationId(new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "", "x",
                            "any", NOW), Duration.ofSeconds(1)));
        });
    }

    @Test
    void podsStatusUnschedulableSendsAPodUnschedulableHint() {
        APIGatewayV2HTTPResponse reply = handler.handleRequest(WebhookEvents.load("pods-status-unschedulable.json"), null);

        assertThat(reply.getBody()).isEqualTo(allowed("0d6c2b1a-1111-4a2b-8c3d-000000000002"));
        assertThat(messages()).extracting(Message::body).containsExactly(
                hint("pod-unschedulable", "default", "web-6d5f7c8b9-x7k2p", "5f0c1b7e-3a2d-4c8e-9b1f-0a2b3c4d5e6f"));
    }

    @Test
    void nodeDeleteSendsANodeDeletedHintNamedAfterTheNode() {
        APIGatewayV2HTTPResponse reply = handler.handleRequest(WebhookEvents.load("node-delete.json"), null);

        assertThat(reply.getBody()).isEqualTo(allowed("0d6c2b1a-1111-4a2b-8c3d-000000000004"));
        assertThat(messages()).extracting(Message::body).containsExactly(
                hint("node-deleted", "", "ip-10-0-0-4.ec2.internal", "9a8b7c6d-5e4f-4321-8765-43210fedcba9"));
    }

    @Test
    void nodeCreateSendsANodeCreatedHint() {
        handler.handleRequest(WebhookEvents.load("node-create.json"), null);

        assertThat(messages()).singleElement().extracting(Message::body).asString().startsWith("{\"reason\":\"node-created\"");
    }

    @Test
    void dryRunIsAllowedAndSendsNothing() {
        APIGatewayV2HTTPResponse reply = handler.handleRequest(WebhookEvents.load("dry-run.json"), null);

        assertThat(reply.getStatusCode()).isEqualTo(200);
        assertThat(reply.getBody()).isEqualTo(allowed("0d6c2b1a-1111-4a2b-8c3d-000000000006"));
        assertThat(messages()).isEmpty();
    }

    @Test
    void nodeUpdateIsAllowedAndSendsNothing() {
        APIGatewayV2HTTPResponse reply = handler.handleRequest(WebhookEvents.load("node-update-deletion-timestamp.json"), null);

        assertThat(reply.getBody()).isEqualTo(allowed("0d6c2b1a-1111-4a2b-8c3d-000000000005"));
        assertThat(messages()).isEmpty();
    }

    @Test
    void malformedBodyIsABadRequestAndSendsNothing() {
        APIGatewayV2HTTPResponse reply = handler.handleRequest(WebhookEvents.load("malformed.json"), null);

        assertThat(reply.getStatusCode()).isEqualTo(400);
        assertThat(reply.getBody()).doesNotContain("AdmissionReview\\\"");
        assertThat(messages()).isEmpty();
    }

    @Test
    void wrongTokenIsForbiddenAndSendsNothing() {
        APIGatewayV2HTTPResponse reply = handler.handleRequest(WebhookEvents.load("wrong-token.json"), null);

        assertThat(reply.getStatusCode()).isEqualTo(403);
        assertThat(messages()).isEmpty();
    }

    @Test
    void pathWithTheTokenAsAPrefixOnlyIsForbidden() {
        APIGatewayV2HTTPEvent e = WebhookEvents.load("pod-create.json");
        e.setRawPath("/hook/" + WebhookEvents.TOKEN + "x");
        assertThat(handler.handleRequest(e, null).getStatusCode()).isEqualTo(403);
        e.setRawPath("/" + WebhookEvents.TOKEN);
        assertThat(handler.handleRequest(e, null).getStatusCode()).isEqualTo(403);
        assertThat(messages()).isEmpty();
    }

    @Test
    void bodyOverOneMebibyteIsRefusedAndSendsNothing() {
        APIGatewayV2HTTPEvent e = WebhookEvents.load("pod-create.json");
        e.setBody(e.getBody() + " ".repeat(PendingPodWebhookHandler.MAX_BODY_BYTES));

        assertThat(handler.handleRequest(e, null).getStatusCode()).isEqualTo(413);
        assertThat(messages()).isEmpty();
    }

    @Test
    void base64EncodedBodyIsDecoded() {
        APIGatewayV2HTTPEvent e = WebhookEvents.load("pod-create.json");
        e.setBody(Base64.getEncoder().encodeToString(e.getBody().getBytes(StandardCharsets.UTF_8)));
        e.setIsBase64Encoded(true);

        assertThat(handler.handleRequest(e, null).getStatusCode()).isEqualTo(200);
        assertThat(messages()).hasSize(1);
    }

    @Test
    void regressionAFloodOfDistinctPodsFromATokenHolderIsOneMessagePerReasonPerBucket() {
        MutableClock clock = new MutableClock(NOW);
        PendingPodWebhookHandler h = new PendingPodWebhookHandler(new WebhookComposition.Parts("test-cluster",
                new SqsWorkQueue(mq.sqsClient(), queueUrl), WebhookToken.fixed(PathToken.of(WebhookEvents.TOKEN)),
                Duration.ofSeconds(1)), clock);
        APIGatewayV2HTTPEvent template = WebhookEvents.load("pod-create.json");
        for (int i = 0; i < 50; i++) {
            APIGatewayV2HTTPEvent e = WebhookEvents.load("pod-create.json");
            e.setBody(template.getBody().replace("5f0c1b7e-3a2d-4c8e-9b1f-0a2b3c4d5e6f", "uid-" + i)
                    .replace("web-6d5f7c8b9-x7k2p", "flood-" + i));
            assertThat(h.handleRequest(e, null).getBody()).contains("\"allowed\":true");
        }
        h.handleRequest(WebhookEvents.load("node-delete.json"), null);
        clock.advance(Duration.ofSeconds(1));
        h.handleRequest(WebhookEvents.load("pod-create.json"), null);

        assertThat(messages()).extracting(m -> m.body().replaceAll(".*\"reason\":\"([a-z-]+)\".*", "$1"))
                .containsExactly("pod-created", "node-deleted", "pod-created");
    }

    /**
     * Gantry's own (a cost rule): an environment does not send again a hint the FIFO queue would drop as a duplicate
     * (SQS bills the send all the same), but a send that failed is tried again by the next request.
     */
    @Test
    void aHintThisEnvironmentAlreadySentInTheBucketIsNotSentAgainButAFailedOneIs() {
        MutableClock clock = new MutableClock(NOW);
        List<String> sends = new java.util.ArrayList<>();
        AtomicInteger failures = new AtomicInteger(1);
        PendingPodWebhookHandler h = new PendingPodWebhookHandler(new WebhookComposition.Parts("test-cluster",
                (body, group, id, delay) -> {
                    sends.add(id);
                    if (failures.getAndDecrement() > 0) {
                        throw new IllegalStateException("SQS unavailable");
                    }
                }, WebhookToken.fixed(PathToken.of(WebhookEvents.TOKEN)), Duration.ofSeconds(1)), clock);
        for (int i = 0; i < 5; i++) {
            assertThat(h.handleRequest(WebhookEvents.load("pod-create.json"), null).getBody()).contains("\"allowed\":true");
        }
        assertThat(sends).hasSize(2); // the failed send, then one that succeeded; three requests sent nothing
        assertThat(sends.get(1)).isEqualTo(sends.get(0));
        clock.advance(Duration.ofSeconds(1));
        h.handleRequest(WebhookEvents.load("pod-create.json"), null);
        assertThat(sends).hasSize(3);
    }

    @Test
    void aRotatedTokenIsAcceptedAtOnceAndTheOldOneRefusedAfterFiveMinutes() {
        MutableClock clock = new MutableClock(NOW);
        AtomicReference<String> secret = new AtomicReference<>(WebhookEvents.TOKEN);
        PendingPodWebhookHandler h = new PendingPodWebhookHandler(new WebhookComposition.Parts("test-cluster",
                new SqsWorkQueue(mq.sqsClient(), queueUrl), WebhookToken.reading(secret::get, clock),
                Duration.ofSeconds(1)), clock);
        secret.set("r0tated-token-0123456789abcdef0123");
        APIGatewayV2HTTPEvent rotated = WebhookEvents.load("pod-create.json");
        rotated.setRawPath("/hook/r0tated-token-0123456789abcdef0123");

        assertThat(h.handleRequest(rotated, null).getStatusCode()).isEqualTo(200);
        clock.advance(Duration.ofMinutes(5));
        assertThat(h.handleRequest(WebhookEvents.load("pod-create.json"), null).getStatusCode()).isEqualTo(403);
    }

    @Test
    void theSameEventTwiceInOneBucketIsOneMessage() {
        handler.handleRequest(WebhookEvents.load("pod-create.json"), null);
        handler.handleRequest(WebhookEvents.load("pod-create.json"), null);

        assertThat(messages()).hasSize(1);
    }

    @Test
    void queueFailureStillAllowsTheRequest() {
        PendingPodWebhookHandler broken = handler(queueUrl.replace(".fifo", "-missing.fifo"));

        APIGatewayV2HTTPResponse reply = broken.handleRequest(WebhookEvents.load("pod-create.json"), null);

        assertThat(reply.getStatusCode()).isEqualTo(200);
        assertThat(reply.getBody()).isEqualTo(allowed("0d6c2b1a-1111-4a2b-8c3d-000000000001"));
    }

    @Test
    void nullEventIsForbiddenNotAnException() {
        assertThat(handler.handleRequest(null, null).getStatusCode()).isEqualTo(403);
    }

    @Test
    void beforeCheckpointPrimesWithoutSendingAnything() {
        handler.beforeCheckpoint(null);
        handler.afterRestore(null);

        assertThat(messages()).isEmpty();
    }
}
