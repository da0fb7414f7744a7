package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.MalformedMessage;
import dev.gantry.core.provisioning.AdmissionRequest;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.provisioning.WebhookDecision;
import dev.gantry.core.work.WorkQueue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.handlers.webhook.AdmissionReviews;
import dev.gantry.handlers.webhook.ConfigAdmission;
import dev.gantry.handlers.webhook.SentHints;
import dev.gantry.handlers.webhook.WebhookComposition;
import dev.gantry.handlers.webhook.WebhookToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.crac.Core;
import org.crac.Resource;

/**
 * The Kubernetes validating webhook behind a Lambda Function URL (payload 2.0). It always allows pods and nodes, and
 * refuses a NodePool, EC2NodeClass or CapacityBuffer that Gantry's reader rejects ({@link ConfigAdmission}); it
 * answers fast, and its only effect is one provisioning hint on the FIFO queue (group = cluster), de-duplicated per reason
 * and time bucket only ({@link WebhookDecision#deduplicationId}): nothing a caller sends widens the key, so a flood
 * from a token holder puts at most one message per reason per bucket on the queue. It reads no queue depth: the
 * bucketed deduplication already bounds what it adds, and the sweep's backstop covers any hint that is lost. A wrong
 * token, a malformed or an oversized body gets a 4xx and sends nothing; a failing queue is logged and the request is
 * still allowed, so Gantry can never block the API server. Never throws.
 */
public final class PendingPodWebhookHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>, Resource {
    /** Larger bodies are refused (real AdmissionReviews for pods and nodes are a few KiB). */
    public static final int MAX_BODY_BYTES = 1 << 20;
    private static final Map<String, String> JSON = Map.of("Content-Type", "application/json");

    private final String clusterName;
    private final WorkQueue queue;
    private final WebhookToken token;
    private final Duration hintBucket;
    private final Clock clock;
    private final AdmissionReviews reviews;
    private final HintCodec hints;
    private final ConfigAdmission config;
    private final SentHints sent = new SentHints();

    /** The Lambda entry point: reads the token from Secrets Manager here, and again after a rotation. */
    public PendingPodWebhookHandler() {
        this(WebhookComposition.build(settings(Environment.system())), Clock.systemUTC());
        Core.getGlobalContext().register(this);
    }

    /** The webhook's settings from its environment variables. */
    static WebhookComposition.Settings settings(Environment env) {
        String region = env.require(Environment.REGION);
        String arn = env.require(Environment.WEBHOOK_SECRET_ARN);
        return new WebhookComposition.Settings(region, env.require(Environment.CLUSTER_NAME),
                env.require(Environment.PROVISIONING_QUEUE_URL), arn,
                Duration.ofSeconds(Long.parseLong(env.require(Environment.HINT_BUCKET_SECONDS))), env.nodePools());
    }

    public PendingPodWebhookHandler(WebhookComposition.Parts parts, Clock clock) {
        ObjectMapper json = new ObjectMapper();
        this.clusterName = parts.clusterName();
        this.queue = parts.queue();
        this.token = parts.token();
        this.hintBucket = parts.hintBucket();
        this.clock = clock;
        this.reviews = new AdmissionReviews(json);
        this.hints = new HintCodec(json);
        this.config = new ConfigAdmission(parts.gantryPools());
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try {
            return handle(event);
        } catch (RuntimeException unexpected) {
            System.err.println("webhook: unexpected " + unexpected.getClass().getName());
            return reply(500, "{\"message\":\"internal error\"}");
        }
    }

    private APIGatewayV2HTTPResponse handle(APIGatewayV2HTTPEvent event) {
        if (event == null || !token.admits(event.getRawPath())) {
            return reply(403, "{\"message\":\"forbidden\"}");
        }
        Optional<String> body = body(event);
        if (body.isEmpty()) {
            return reply(413, "{\"message\":\"request too large or missing\"}");
        }
        JsonNode review;
        try {
            review = reviews.read(body.get());
        } catch (MalformedMessage e) {
            return reply(400, "{\"message\":\"not an AdmissionReview\"}");
        }
        AdmissionRequest request = reviews.request(review);
        List<String> warnings = List.of();
        if (ConfigAdmission.isConfig(review.get("request"))) {
            ConfigAdmission.Verdict verdict = config.review(review.get("request"));
            if (!verdict.allowed()) {
                return reply(200, reviews.deny(request.uid(), verdict.message(), verdict.warnings()));
            }
            warnings = verdict.warnings();
        }
        WebhookDecision.decide(request, clock.instant()).ifPresent(this::send);
        return reply(200, reviews.allow(request.uid(), warnings));
    }

    private void send(ProvisioningHint hint) {
        String id = WebhookDecision.deduplicationId(hint, hintBucket);
        if (sent.alreadySent(id)) {
            return; // the FIFO queue would drop it, and bill the send (SentHints)
        }
        try {
            queue.send(hints.encode(hint), clusterName, id, Duration.ZERO);
            sent.sent(id);
        } catch (RuntimeException e) {
            // The reply must still allow: a missed hint costs latency (the sweep's backstop catches it), never a pod.
            System.err.println("webhook: hint for " + hint.reason().wire() + " " + hint.namespace() + "/" + hint.name()
                    + " not sent: " + e.getClass().getSimpleName());
        }
    }

    /** The body as text, or empty when absent or over {@link #MAX_BODY_BYTES}. */
    private static Optional<String> body(APIGatewayV2HTTPEvent event) {
        String raw = event.getBody();
        if (raw == null || raw.length() > (event.getIsBase64Encoded() ? MAX_BODY_BYTES / 3 * 4 + 4 : MAX_BODY_BYTES)) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = event.getIsBase64Encoded() ? Base64.getDecoder().decode(raw) : raw.getBytes(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return Optional.of("");
        }
        return bytes.length > MAX_BODY_BYTES ? Optional.empty() : Optional.of(new String(bytes, StandardCharsets.UTF_8));
    }

    private static APIGatewayV2HTTPResponse reply(int status, String body) {
        return APIGatewayV2HTTPResponse.builder().withStatusCode(status).withHeaders(JSON).withBody(body).build();
    }

    /** Primes the parse, decide and encode paths on a sample review; sends nothing. */
    @Override
    public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
        try (InputStream in = getClass().getResourceAsStream("/snapstart/admission-review.json")) {
            String sample = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            AdmissionRequest r = reviews.parse(sample);
            WebhookDecision.decide(r, clock.instant()).map(hints::encode);
            reviews.allow(r.uid());
            try (InputStream pool = getClass().getResourceAsStream("/snapstart/admission-review-nodepool.json")) {
                JsonNode review = reviews.read(new String(pool.readAllBytes(), StandardCharsets.UTF_8));
                config.prime((ObjectNode) review.path("request").path("object"));
            }
            token.prime();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterRestore(org.crac.Context<? extends Resource> context) {
        // Nothing unique to refresh: no random state, and the token and clients stay valid across a restore.
    }
}
