package dev.gantry.core.provisioning;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Which admission requests become provisioning hints. Pure: the webhook always allows the request whatever this says;
 * this only decides whether a hint goes on the queue.
 *
 * <ul>
 *   <li>pod CREATE of an unbound pod: {@code pod-created} (a pod created with {@code nodeName} never needs us);</li>
 *   <li>pods/status UPDATE that leaves PodScheduled=False, reason Unschedulable, on an unbound pod: {@code pod-unschedulable};</li>
 *   <li>node CREATE: {@code node-created} (a claim's node registered); node DELETE: {@code node-deleted};</li>
 *   <li>NodePool, EC2NodeClass or CapacityBuffer CREATE or UPDATE (the webhook asks only once it has admitted the
 *       object): {@code config-changed}, so the provisioner reads the new configuration within seconds;</li>
 *   <li>anything in a dry run, and everything else: no hint.</li>
 * </ul>
 */
public final class WebhookDecision {
    private WebhookDecision() {
    }

    public static Optional<ProvisioningHint> decide(AdmissionRequest r, Instant now) {
        if (r.dryRun() || r.name().isEmpty()) {
            return Optional.empty();
        }
        ProvisioningHint.Reason reason = reason(r);
        if (reason == null) {
            return Optional.empty();
        }
        // Without an object uid (some DELETE paths), the request uid still names one event; the object name is
        // steadier across retries, so prefer namespace/name for collapsing.
        String uid = !r.objectUid().isEmpty() ? r.objectUid() : r.kind() + "/" + r.namespace() + "/" + r.name();
        return Optional.of(new ProvisioningHint(reason, r.namespace(), r.name(), uid, now));
    }

    /**
     * The FIFO MessageDeduplicationId of a webhook hint: {@code hex(sha256("webhook/" + reason + "/" +
     * floor(epochSeconds / bucket)))}. Nothing the caller controls (object uid, name, namespace) goes into it, so
     * however many admission requests a token holder sends, the queue takes at most one message per reason per
     * bucket (SQS drops the rest as duplicates for 5 minutes). Hints carry no trusted content, so collapsing them
     * loses nothing as long as {@code bucket} is at most the queue's delivery delay: the message that survives
     * becomes visible after the bucket has ended, so the run it triggers reads the cluster after every event the
     * bucket swallowed.
     *
     * @param bucket a whole, positive number of seconds
     */
    public static String deduplicationId(ProvisioningHint hint, Duration bucket) {
        long seconds = bucket.toSeconds();
        if (seconds < 1 || !bucket.equals(Duration.ofSeconds(seconds))) {
            throw new IllegalArgumentException("the hint bucket must be a whole, positive number of seconds: " + bucket);
        }
        String key = "webhook/" + hint.reason().wire() + "/" + Math.floorDiv(hint.at().getEpochSecond(), seconds);
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static ProvisioningHint.Reason reason(AdmissionRequest r) {
        return switch (r.kind()) {
            case "Pod" -> podReason(r);
            case "Node" -> r.subResource().isEmpty() ? nodeReason(r.operation()) : null;
            case "NodePool", "EC2NodeClass", "CapacityBuffer" -> r.subResource().isEmpty()
                    && (r.operation().equals("CREATE") || r.operation().equals("UPDATE"))
                    ? ProvisioningHint.Reason.CONFIG_CHANGED : null;
            default -> null;
        };
    }

    private static ProvisioningHint.Reason podReason(AdmissionRequest r) {
        if (!r.nodeName().isEmpty()) {
            return null;
        }
        if (r.operation().equals("CREATE") && r.subResource().isEmpty()) {
            return ProvisioningHint.Reason.POD_CREATED;
        }
        if (r.operation().equals("UPDATE") && r.subResource().equals("status") && r.podUnschedulable()) {
            return ProvisioningHint.Reason.POD_UNSCHEDULABLE;
        }
        return null;
    }

    private static ProvisioningHint.Reason nodeReason(String operation) {
        return switch (operation) {
            case "CREATE" -> ProvisioningHint.Reason.NODE_CREATED;
            case "DELETE" -> ProvisioningHint.Reason.NODE_DELETED;
            default -> null;
        };
    }
}
