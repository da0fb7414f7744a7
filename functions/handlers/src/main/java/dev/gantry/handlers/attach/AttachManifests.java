package dev.gantry.handlers.attach;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The attach step's objects: the {@code Manifests} property (a JSON array, in apply order) with each webhook's
 * {@code clientConfig.url} set to the Function URL plus {@code hook/<token>}, the path the webhook handler admits.
 */
final class AttachManifests {
    private AttachManifests() {
    }

    /** @throws IllegalArgumentException when the property is not a JSON array of objects with apiVersion and kind */
    static List<ObjectNode> parse(ObjectMapper json, String manifests, String webhookUrl, String token) {
        JsonNode root;
        try {
            root = json.readTree(manifests);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("Manifests is not JSON", e);
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("Manifests must be a JSON array");
        }
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode m : root) {
            if (!(m instanceof ObjectNode o) || !o.path("apiVersion").isTextual() || !o.path("kind").isTextual()) {
                throw new IllegalArgumentException("every manifest needs apiVersion and kind");
            }
            ObjectNode copy = o.deepCopy();
            if (copy.path("kind").asText().endsWith("WebhookConfiguration")) {
                for (JsonNode w : copy.path("webhooks")) {
                    ((ObjectNode) w).putObject("clientConfig").put("url", hookUrl(webhookUrl, token));
                }
            }
            out.add(copy);
        }
        return out;
    }

    static String hookUrl(String webhookUrl, String token) {
        return (webhookUrl.endsWith("/") ? webhookUrl : webhookUrl + "/") + "hook/" + token;
    }
}
