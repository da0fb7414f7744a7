package dev.gantry.handlers.attach;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.config.deployment.ClusterManifests;
import java.util.List;
import java.util.Map;

/**
 * The attach step's objects: {@link ClusterManifests#all()}, compiled into this jar, in apply order, with each
 * webhook's {@code clientConfig.url} set to the Function URL plus {@code hook/<token>}, the path the webhook handler
 * admits. Nothing here comes from the invoke payload.
 */
final class AttachManifests {
    private AttachManifests() {
    }

    static List<ObjectNode> of(ObjectMapper json, List<Map<String, Object>> manifests, String webhookUrl, String token) {
        return manifests.stream().map(m -> {
            ObjectNode copy = json.valueToTree(m);
            if (isWebhookConfiguration(copy)) {
                for (JsonNode w : copy.path("webhooks")) {
                    ((ObjectNode) w).putObject("clientConfig").put("url", hookUrl(webhookUrl, token));
                }
            }
            return copy;
        }).toList();
    }

    static boolean isWebhookConfiguration(ObjectNode manifest) {
        return manifest.path("kind").asText().endsWith("WebhookConfiguration");
    }

    static String hookUrl(String webhookUrl, String token) {
        return (webhookUrl.endsWith("/") ? webhookUrl : webhookUrl + "/") + "hook/" + token;
    }
}
