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
 * carries the token), which decides and puts the hint on the provisioning queue. A reply other than 200 is an error
 * (the API server, with failurePolicy Ignore, admits the request anyway). Switched off when the scenario says
 * {@code webhook: false}, leaving the sweep's backstop as the only way pending pods are noticed.
 */
public final class Webhook {
    /** The token the attach step writes into the webhook configuration's URL; fixed, the simulation never rotates it. */
    static final String TOKEN = "simulated-webhook-token-0123456789abcdef";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final boolean enabled;
    private final PendingPodWebhookHandler handler;
    private final Consumer<String> errors;
    private long requests;
    private long hintsSent;

    public Webhook(boolean enabled, String cluster, WorkQueue provisioningQueue, Duration hintBucket, Clock clock,
            Consumer<String> errors) {
        this.enabled = enabled;
        this.errors = errors;
        WorkQueue counted = (body, group, deduplicationId, delay) -> {
            provisioningQueue.send(body, group, deduplicationId, delay);
            hintsSent++;
        };
        this.handler = new PendingPodWebhookHandler(
                new WebhookComposition.Parts(cluster, counted, WebhookToken.fixed(PathToken.of(TOKEN)), hintBucket), clock);
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

    private static ObjectNode object(String uid, String namespace, String name) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode metadata = o.putObject("metadata").put("name", name).put("uid", uid);
        if (!namespace.isEmpty()) {
            metadata.put("namespace", namespace);
        }
        return o;
    }

    private void review(String kind, String subResource, String operation, String namespace, String name, ObjectNode object) {
        if (!enabled) {
            return;
        }
        requests++;
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request").put("uid", "sim-review-" + requests);
        request.putObject("kind").put("group", "").put("version", "v1").put("kind", kind);
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
        FunctionLogs.Captured<APIGatewayV2HTTPResponse> run = FunctionLogs.capture(() -> handler.handleRequest(event, null));
        run.err().forEach(errors);
        if (run.error() != null || run.result().getStatusCode() != 200) {
            errors.accept("webhook: " + (run.error() != null ? run.error().toString() : "status " + run.result().getStatusCode()));
        }
    }

    long requests() {
        return requests;
    }

    long hintsSent() {
        return hintsSent;
    }
}
