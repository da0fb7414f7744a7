package dev.gantry.simulator.world.kube;

import dev.gantry.simulator.runtime.FunctionLogs;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.PendingPodWebhookHandler;
import dev.gantry.handlers.webhook.PathToken;
import dev.gantry.handlers.webhook.WebhookComposition;
import dev.gantry.handlers.webhook.WebhookToken;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The pending-pod webhook as the API server calls it: each admission request the simulated cluster makes (pod
 * created, pod status set Unschedulable, node created or deleted) is an {@code admission.k8s.io/v1} AdmissionReview
 * POSTed to the real {@link PendingPodWebhookHandler} behind its Function URL (a payload 2.0 event, on the path that
 * carries the token), which decides and puts the hint on the provisioning queue. Configuration writes go through
 * {@link #configWritten}, which returns the webhook's verdict. A reply other than 200 is an error
 * (the API server, with failurePolicy Ignore, admits the request anyway). Switched off when the scenario says
 * {@code webhook: false}, leaving the sweep's backstop as the only way pending pods are noticed. The Function URL in
 * front of it has the function's reserved concurrency, cold starts and 429s ({@link WebhookEndpoint}).
 */
public final class Webhook {
    /** The token the attach step writes into the webhook configuration's URL; fixed, the simulation never rotates it. */
    static final String TOKEN = "simulated-webhook-token-0123456789abcdef";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final boolean enabled;
    private final WebhookEndpoint endpoint;
    private final Clock clock;
    private final Consumer<String> errors;
    private long requests;
    private long hintsSent;

    public Webhook(boolean enabled, String cluster, WorkQueue provisioningQueue, Duration hintBucket, Clock clock,
            Consumer<String> errors) {
        this.enabled = enabled;
        this.errors = errors;
        this.clock = clock;
        WorkQueue counted = (body, group, deduplicationId, delay) -> {
            provisioningQueue.send(body, group, deduplicationId, delay);
            hintsSent++;
        };
        WebhookComposition.Parts parts = new WebhookComposition.Parts(cluster, counted, WebhookToken.fixed(PathToken.of(TOKEN)), hintBucket);
        this.endpoint = new WebhookEndpoint(RESERVED_CONCURRENCY, env -> new PendingPodWebhookHandler(parts, clock));
    }

    /** The webhook function's deployed reserved concurrency: the Function URL answers 429 beyond it. */
    static final int RESERVED_CONCURRENCY = java.util.Objects.requireNonNull(
            dev.gantry.config.deployment.DeploymentSettings.DEFAULT.function("webhook").reservedConcurrency());

    /** The Function URL's figures: answered, throttled, cold starts, slowed, latency ({@link WebhookEndpoint}). */
    public WebhookEndpoint.Stats endpointStats() {
        return endpoint.stats();
    }

    void podCreated(Pod p) {
        ObjectNode pod = object(p.uid(), p.namespace(), p.name());
        if (p.nodeName() != null) {
            pod.putObject("spec").put("nodeName", p.nodeName());
        }
        review("Pod", "", "CREATE", p.namespace(), p.name(), pod);
    }

    void podUnschedulable(Pod p) {
        ObjectNode pod = object(p.uid(), p.namespace(), p.name());
        pod.putObject("status").putArray("conditions").addObject()
                .put("type", "PodScheduled").put("status", "False").put("reason", "Unschedulable");
        review("Pod", "status", "UPDATE", p.namespace(), p.name(), pod);
    }

    void nodeCreated(Node n) {
        review("Node", "", "CREATE", "", n.name(), object("node/" + n.name(), "", n.name()));
    }

    public void nodeDeleted(Node n) {
        review("Node", "", "DELETE", "", n.name(), object("node/" + n.name(), "", n.name()));
    }

    /** The simulated API server's verdict on a configuration write: admitted, or refused with the webhook's message. */
    public record Admission(boolean allowed, String message) {
        static final Admission ALLOWED = new Admission(true, "");
    }

    /**
     * Hook for the simulated API server: a NodePool, EC2NodeClass or CapacityBuffer is being created or updated
     * ({@code operation} CREATE or UPDATE), {@code objectJson} the object as it would be stored. The real handler
     * validates it ({@code config.gantry.dev}) and, when it admits the write, sends the config-changed hint, as the
     * deployed webhook does. The caller stores the object only when {@link Admission#allowed()}; a webhook switched
     * off, or a reply the API server could not read, admits (failurePolicy Ignore).
     */
    public Admission configWritten(String operation, String objectJson) {
        ObjectNode object;
        try {
            object = (ObjectNode) JSON.readTree(objectJson);
        } catch (com.fasterxml.jackson.core.JacksonException | ClassCastException e) {
            errors.accept("webhook: a config object that is not a JSON object: " + e.getClass().getSimpleName());
            return Admission.ALLOWED;
        }
        String apiVersion = object.path("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        String namespace = object.path("metadata").path("namespace").asText("");
        String reply = review(slash < 0 ? "" : apiVersion.substring(0, slash), apiVersion.substring(slash + 1),
                object.path("kind").asText(), "", operation, namespace, object.path("metadata").path("name").asText(), object);
        if (reply == null) {
            return Admission.ALLOWED;
        }
        try {
            var response = JSON.readTree(reply).path("response");
            return response.path("allowed").asBoolean(true) ? Admission.ALLOWED
                    : new Admission(false, response.path("status").path("message").asText());
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            return Admission.ALLOWED;
        }
    }

    private static ObjectNode object(String uid, String namespace, String name) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode metadata = o.putObject("metadata").put("name", name).put("uid", uid);
        if (!namespace.isEmpty()) {
            metadata.put("namespace", namespace);
        }
        return o;
    }

    private void review(String kind, String subResource, String operation, String namespace, String name, ObjectNode object) {
        review("", "v1", kind, subResource, operation, namespace, name, object);
    }

    /** Sends one review; returns the reply's body, or null when switched off or the reply was not a 200. */
    private String review(String group, String version, String kind, String subResource, String operation,
                          String namespace, String name, ObjectNode object) {
        if (!enabled) {
            return null;
        }
        WebhookEndpoint.Call call = endpoint.call(clock.instant());
        if (call.throttled()) {
            return null; // 429 at once, no invocation; failurePolicy Ignore: the API server admits the request
        }
        requests++;
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request").put("uid", "sim-review-" + requests);
        request.putObject("kind").put("group", group).put("version", version).put("kind", kind);
        if (!subResource.isEmpty()) {
            request.put("subResource", subResource);
        }
        request.put("operation", operation).put("name", name).put("dryRun", false);
        if (!namespace.isEmpty()) {
            request.put("namespace", namespace);
        }
        request.set(operation.equals("DELETE") ? "oldObject" : "object", object);
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath("/hook/" + TOKEN)
                .withRawQueryString("timeout=2s")
                .withHeaders(Map.of("content-type", "application/json"))
                .withBody(review.toString())
                .withIsBase64Encoded(false)
                .build();
        PendingPodWebhookHandler handler = endpoint.handler(call.environment());
        FunctionLogs.Captured<APIGatewayV2HTTPResponse> run = FunctionLogs.capture(() -> handler.handleRequest(event, null));
        dev.gantry.simulator.runtime.FunctionLogs.problems(run.err()).forEach(errors);
        if (run.error() != null || run.result().getStatusCode() != 200) {
            errors.accept("webhook: " + (run.error() != null ? run.error().toString() : "status " + run.result().getStatusCode()));
            return null;
        }
        return run.result().getBody();
    }

    /** Admission requests the webhook answered (each one an invocation of its function; a 429 is none). */
    public long requests() {
        return requests;
    }

    public long hintsSent() {
        return hintsSent;
    }
}
