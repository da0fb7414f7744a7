package dev.gantry.core.status;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A NodePool's {@code NodeRegistrationHealthy} condition, Karpenter v1.14's: whether the nodes its NodeClaims launch
 * join the cluster, or a misconfiguration Karpenter cannot foresee (a security group that blocks the API server, a
 * volume smaller than the image's snapshot) makes them fail (kubernetes-sigs/karpenter
 * {@code designs/noderegistrationhealthy-status-condition.md}; {@code pkg/state/nodepoolhealth/tracker.go},
 * {@code pkg/controllers/nodeclaim/lifecycle/liveness.go} and {@code registration.go},
 * {@code pkg/controllers/nodepool/registrationhealth/controller.go}).
 * <ul>
 *   <li>The outcomes are the pool's NodeClaims': a success when one registers; a failure when its launch was refused
 *       for another reason than capacity (Karpenter deletes an out-of-capacity claim without counting it), did not
 *       complete ({@code launch-timeout}) or its node never registered ({@code registration-timeout}).</li>
 *   <li>The last {@value #BUFFER} outcomes decide: unhealthy when at least half of {@value #BUFFER} are failures.</li>
 *   <li>A success sets True when the outcomes are healthy; a failure sets False when they are unhealthy; neither
 *       changes the condition otherwise (a single failure among successes leaves it True, a single success after
 *       failures leaves it False).</li>
 *   <li>A change of the NodePool ({@code metadata.generation}) or of its NodeClass starts over: Unknown, reason
 *       {@code AwaitingReconciliation}, no outcome counted from before.</li>
 *   <li>Informational, as in Karpenter: not part of {@code Ready}, and the pool is used whatever it says.</li>
 * </ul>
 * Karpenter keeps the last outcomes in memory. The sweep keeps nothing between runs: it starts from the condition as
 * written, with the pool's outcomes up to its {@code lastTransitionTime} as they stood, and replays those since. Where
 * those are gone (a closed claim stays in the store for an hour, so failures an hour old are forgotten, where
 * Karpenter's design lets entries expire after 30 idle minutes), it starts as Karpenter does after a restart: True as
 * one success, False as two failures. Times compare at whole seconds, as the condition's time is written.
 */
public final class RegistrationHealth {
    public static final String TYPE = "NodeRegistrationHealthy";
    /** How many outcomes count: Karpenter's {@code BufferSize}. */
    static final int BUFFER = 4;
    /** The share of failures in {@value #BUFFER} that makes the pool unhealthy: Karpenter's {@code ThresholdFalse}. */
    static final double THRESHOLD_FALSE = 0.5;

    private RegistrationHealth() {
    }

    /** One outcome: a claim registered ({@code failure} null), or failed to launch or register, with why. */
    record Outcome(Instant at, Condition failure) {
    }

    /**
     * The pool's condition now.
     *
     * @param before     the condition as written, if any
     * @param generation the NodePool's generation now; a condition set against another starts over
     * @param classChanged whether its NodeClass's generation moved since the conditions were set
     * @param claims     the pool's claims, as the store holds them (closed ones for an hour)
     */
    public static Condition of(Optional<Condition> before, long generation, boolean classChanged, List<NodeClaim> claims,
                               Instant now) {
        if (before.isEmpty() || before.get().observedGeneration() != generation || classChanged) {
            return Condition.unknown(TYPE, "AwaitingReconciliation", "object is awaiting reconciliation",
                    now.truncatedTo(ChronoUnit.SECONDS)).observing(generation);
        }
        Condition state = before.get();
        Instant since = state.lastTransitionTime().truncatedTo(ChronoUnit.SECONDS);
        List<Outcome> outcomes = outcomes(claims);
        Deque<Boolean> buffer = hydrated(state.status(), outcomes.stream().filter(o -> !o.at().isAfter(since)).toList());
        for (Outcome o : outcomes) {
            if (!o.at().isAfter(since)) {
                continue;
            }
            push(buffer, o.failure() == null);
            boolean unhealthy = unhealthy(buffer);
            if (o.failure() == null && !unhealthy && state.status() != Condition.Status.True) {
                state = Condition.isTrue(TYPE, TYPE, o.at()).observing(generation);
            } else if (o.failure() != null && unhealthy && state.status() != Condition.Status.False) {
                state = new Condition(TYPE, Condition.Status.False, o.failure().reason(), o.failure().message(), o.at(), generation);
            }
        }
        return state;
    }

    /**
     * The outcomes that stood when the condition last changed to {@code status}: the pool's own last ones up to then
     * ({@code earlier}), so that a failure before the success that made it True still counts. Where those cannot be
     * what made it so (older than the store keeps), Karpenter's restart hydration: True as one success, False as two
     * failures. Unknown holds since its start-over: nothing. Not known here: when a True or False condition last started
     * over, so a failure from before that start-over can stay among the last four (trimmed only as far as True needs),
     * where Karpenter forgot it.
     */
    private static Deque<Boolean> hydrated(Condition.Status status, List<Outcome> earlier) {
        Deque<Boolean> buffer = new ArrayDeque<>();
        if (status == Condition.Status.Unknown) {
            return buffer;
        }
        earlier.forEach(o -> push(buffer, o.failure() == null));
        boolean success = status == Condition.Status.True;
        if (buffer.isEmpty() || buffer.peekLast() != success) {
            buffer.clear();
        } else if (success) {
            while (unhealthy(buffer)) {
                buffer.removeFirst(); // what made it True was healthy: these came before a start-over
            }
        } else if (!unhealthy(buffer)) {
            buffer.clear();
        }
        if (buffer.isEmpty()) {
            for (int i = 0; i < (success ? 1 : (int) (BUFFER * THRESHOLD_FALSE)); i++) {
                buffer.add(success);
            }
        }
        return buffer;
    }

    private static void push(Deque<Boolean> buffer, boolean success) {
        buffer.addLast(success);
        while (buffer.size() > BUFFER) {
            buffer.removeFirst();
        }
    }

    private static boolean unhealthy(Deque<Boolean> buffer) {
        return buffer.stream().filter(ok -> !ok).count() >= BUFFER * THRESHOLD_FALSE;
    }

    /** The claims' outcomes in time order, at whole seconds. */
    static List<Outcome> outcomes(List<NodeClaim> claims) {
        List<Outcome> out = new ArrayList<>();
        for (NodeClaim c : claims) {
            if (c.registeredAt() != null) {
                out.add(new Outcome(c.registeredAt().truncatedTo(ChronoUnit.SECONDS), null));
                continue;
            }
            Instant at = c.terminatedAt() != null ? c.terminatedAt() : c.deletionRequestedAt();
            String reason = c.deletionReason();
            if (at == null || reason == null) {
                continue;
            }
            Instant second = at.truncatedTo(ChronoUnit.SECONDS);
            if (reason.startsWith(NodeClaim.LAUNCH_REFUSED)) {
                String why = reason.substring(NodeClaim.LAUNCH_REFUSED.length()).replaceFirst("^: ", "");
                out.add(new Outcome(second, Condition.isFalse(TYPE, "LaunchFailed", why, second)));
            } else if (reason.equals(NodeClaim.IMAGE_REFUSED)) {
                out.add(new Outcome(second, Condition.isFalse(TYPE, "LaunchFailed",
                        "EC2 refused the launch of nodeclaim/" + c.name() + " for its image", second)));
            } else if (reason.equals(NodeClaim.LAUNCH_TIMEOUT)) {
                out.add(new Outcome(second, Condition.isFalse(TYPE, "LaunchFailed",
                        "the launch of nodeclaim/" + c.name() + " did not complete", second)));
            } else if (reason.equals(NodeClaim.REGISTRATION_TIMEOUT)) {
                out.add(new Outcome(second, Condition.isFalse(TYPE, "RegistrationFailed", "Failed to register node", second)));
            }
        }
        out.sort(Comparator.comparing(Outcome::at));
        return out;
    }
}
