package dev.gantry.core.provisioning;

import java.time.Instant;
import java.util.Optional;

/**
 * Which admission requests become provisioning hints. Pure: the webhook always allows the request whatever this says;
 * this only decides whether a hint goes on the queue.
 *
 * <ul>
 *   <li>pod CREATE of an unbound pod: {@code pod-created} (a pod created with {@code nodeName} never needs us);</li>
 *   <li>pods/status UPDATE that leaves PodScheduled=False, reason Unschedulable, on an unbound pod: {@code pod-unschedulable};</li>
 *   <li>node CREATE: {@code node-created} (a claim's node registered); node DELETE: {@code node-deleted};</li>
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

    private static ProvisioningHint.Reason reason(AdmissionRequest r) {
        return switch (r.kind()) {
            case "Pod" -> podReason(r);
            case "Node" -> r.subResource().isEmpty() ? nodeReason(r.operation()) : null;
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
