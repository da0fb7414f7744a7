package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.LaunchRequest;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tags Gantry puts on what it launches: the NodeClass's tags, then Gantry's own ({@code gantry.dev/cluster},
 * {@code gantry.dev/nodepool}, {@code gantry.dev/nodeclaim}), which a NodeClass cannot override; {@code Name} is the
 * NodeClass's if it sets one, else the claim name. Never a {@code karpenter.sh/*} key: a Karpenter running in the
 * same account would adopt or garbage-collect instances carrying those.
 */
final class InstanceTags {
    private InstanceTags() {}

    /**
     * The instance's and its volumes' tags, for CreateFleet. A fleet tags all its instances alike, so a launch of
     * several carries its launch token ({@code gantry.dev/launch}) instead of a claim name, and {@code Name} is then the
     * NodeClass's or the nodepool's name.
     */
    static Map<String, String> forClaim(String cluster, LaunchRequest request) {
        Map<String, String> tags = forTemplate(cluster, request);
        if (request.count() == 1) {
            // Launched alone, a claim's ClientToken is its name.
            tags.put(CloudInstance.TAG_NODECLAIM, request.clientToken());
            tags.putIfAbsent("Name", request.clientToken());
        } else {
            tags.put(CloudInstance.TAG_LAUNCH, request.clientToken());
            tags.putIfAbsent("Name", request.nodePool().name());
        }
        return tags;
    }

    /** The tags a launch template carries for its instances: all but the claim's, since claims share templates. */
    static Map<String, String> forTemplate(String cluster, LaunchRequest request) {
        Map<String, String> tags = new TreeMap<>();
        request.nodeClass().tags().forEach((k, v) -> {
            if (!k.startsWith("gantry.dev/")) {
                tags.put(k, v);
            }
        });
        tags.put(CloudInstance.TAG_CLUSTER, cluster);
        tags.put(CloudInstance.TAG_NODEPOOL, request.nodePool().name());
        return tags;
    }
}
