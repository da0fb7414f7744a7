package dev.gantry.core.health;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What EC2's status checks mean for Gantry's nodes, as Karpenter's instance-status controller (aws
 * {@code pkg/controllers/interruption/instancestatus_controller.go} and {@code utils.go}, v1.12+):
 * <ul>
 *   <li>An instance or system check failed for at least {@link #UNHEALTHY_AFTER} (Karpenter's
 *       {@code UnhealthyThreshold}): forceful termination, the deadline now; its pods are provisioned again.</li>
 *   <li>A scheduled event (retirement, reboot, stop, maintenance): cordon and drain, as an AWS Health scheduled change,
 *       so the node is gone before the event's date. Gantry's own: an event EC2 lists as completed or canceled is
 *       left alone (Karpenter drains for those too).</li>
 * </ul>
 * Only claims Gantry owns that have an instance and are not deleting yet are acted on; the rest of the account is
 * ignored. Pure: the next sweep decides again from a fresh listing.
 */
public final class InstanceStatusDecision {
    public static final Duration UNHEALTHY_AFTER = Duration.ofSeconds(120);
    public static final String FAILED_REASON = "status-check-failed";

    /** What to do with one claim. */
    public sealed interface Action {
        String claim();
    }

    /** Terminate now, pods and all ({@code scope}: the check that failed). */
    public record Terminate(String claim, String instanceId, String scope) implements Action {
    }

    /** Cordon and drain ahead of {@code event}. */
    public record Drain(String claim, String instanceId, InstanceHealth.ScheduledEvent event) implements Action {
    }

    private InstanceStatusDecision() {
    }

    public static List<Action> decide(List<NodeClaim> claims, List<InstanceHealth> statuses, Instant now) {
        Map<String, NodeClaim> byInstance = new HashMap<>();
        for (NodeClaim c : claims) {
            if (c.instanceId() != null && c.state() != NodeClaimState.Launching && !c.state().isDeleting()) {
                byInstance.put(c.instanceId(), c);
            }
        }
        List<Action> out = new ArrayList<>();
        for (InstanceHealth h : statuses) {
            NodeClaim c = byInstance.get(h.instanceId());
            if (c == null) {
                continue;
            }
            var failed = h.failed().stream()
                    .filter(f -> f.impairedSince() == null || !now.isBefore(f.impairedSince().plus(UNHEALTHY_AFTER)))
                    .findFirst();
            var event = h.events().stream().filter(e -> !e.over()).findFirst();
            if (failed.isPresent()) {
                out.add(new Terminate(c.name(), h.instanceId(), failed.get().scope()));
            } else if (event.isPresent()) {
                out.add(new Drain(c.name(), h.instanceId(), event.get()));
            }
        }
        return out;
    }
}
