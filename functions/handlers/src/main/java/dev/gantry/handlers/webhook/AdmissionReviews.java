package dev.gantry.handlers.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.config.codec.MalformedMessage;
import dev.gantry.core.provisioning.AdmissionRequest;

/**
 * Reads an {@code admission.k8s.io/v1} AdmissionReview with Jackson's tree model (no Kubernetes model classes: the
 * webhook jar stays small) and writes the reply: allowing (pods and nodes always are), or refusing a configuration
 * object ({@link ConfigAdmission}). Thread-safe.
 */
public final class AdmissionReviews {
    private final ObjectMapper json;

    public AdmissionReviews(ObjectMapper json) {
        this.json = json;
    }

    /** @throws MalformedMessage when the body is not an AdmissionReview with a request uid */
    public AdmissionRequest parse(String body) {
        return request(read(body));
    }

    /**
     * The review as a tree, checked to be an AdmissionReview with a request uid.
     *
     * @throws MalformedMessage when it is not
     */
    public JsonNode read(String body) {
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
        return root;
    }

    /** The fields of a {@linkplain #read read} review that decide on a hint. */
    public AdmissionRequest request(JsonNode root) {
        JsonNode req = root.get("request");
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
        return allow(uid, java.util.List.of());
    }

    /** The allowing reply, with warnings kubectl prints ({@code Warning: ...}) when there are any. */
    public String allow(String uid, java.util.List<String> warnings) {
        ObjectNode reply = reply();
        ObjectNode response = reply.putObject("response").put("uid", uid).put("allowed", true);
        warnings(response, warnings);
        return reply.toString();
    }

    /**
     * The refusing reply: kubectl prints {@code admission webhook "<name>" denied the request: <message>}. Code 422,
     * reason Invalid, as the API server answers an object that fails validation.
     */
    public String deny(String uid, String message, java.util.List<String> warnings) {
        ObjectNode reply = reply();
        ObjectNode response = reply.putObject("response").put("uid", uid).put("allowed", false);
        response.putObject("status").put("code", 422).put("reason", "Invalid").put("message", message);
        warnings(response, warnings);
        return reply.toString();
    }

    private ObjectNode reply() {
        ObjectNode reply = json.createObjectNode();
        reply.put("apiVersion", "admission.k8s.io/v1");
        reply.put("kind", "AdmissionReview");
        return reply;
    }

    private static void warnings(ObjectNode response, java.util.List<String> warnings) {
        if (!warnings.isEmpty()) {
            var array = response.putArray("warnings");
            warnings.forEach(array::add);
        }
    }
}
