package dev.gantry.handlers.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.config.codec.MalformedMessage;
import dev.gantry.core.provisioning.AdmissionRequest;

/**
 * Reads an {@code admission.k8s.io/v1} AdmissionReview with Jackson's tree model (no Kubernetes model classes: the
 * webhook jar stays small) and writes the always-allowing reply. Thread-safe.
 */
public final class AdmissionReviews {
    private final ObjectMapper json;

    public AdmissionReviews(ObjectMapper json) {
        this.json = json;
    }

    /** @throws MalformedMessage when the body is not an AdmissionReview with a request uid */
    public AdmissionRequest parse(String body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new MalformedMessage("the body is not JSON", e);
        }
        JsonNode req = root == null ? null : root.get("request");
        if (req == null || !req.isObject() || !req.path("uid").isTextual() || !"AdmissionReview".equals(root.path("kind").asText())) {
            throw new MalformedMessage("not an AdmissionReview with a request uid", null);
        }
        boolean delete = "DELETE".equals(req.path("operation").asText());
        JsonNode object = delete ? req.path("oldObject") : req.path("object");
        return new AdmissionRequest(req.get("uid").asText(), req.path("kind").path("kind").asText(),
                req.path("subResource").asText(""), req.path("operation").asText(), req.path("namespace").asText(""),
                req.path("name").asText(""), object.path("metadata").path("uid").asText(""),
                object.path("spec").path("nodeName").asText(""), req.path("dryRun").asBoolean(false), unschedulable(object));
    }

    /** PodScheduled is False with reason Unschedulable: kube-scheduler found no node. */
    private static boolean unschedulable(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if ("PodScheduled".equals(c.path("type").asText()) && "False".equals(c.path("status").asText())
                    && "Unschedulable".equals(c.path("reason").asText())) {
                return true;
            }
        }
        return false;
    }

    /** {@code {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":…,"allowed":true}}} */
    public String allow(String uid) {
        ObjectNode reply = json.createObjectNode();
        reply.put("apiVersion", "admission.k8s.io/v1");
        reply.put("kind", "AdmissionReview");
        reply.putObject("response").put("uid", uid).put("allowed", true);
        return reply.toString();
    }
}
