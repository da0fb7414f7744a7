package dev.gantry.core.interruption;

import dev.gantry.core.catalog.OfferingKey;
import java.time.Instant;

/** What {@link InterruptionDecision} asks the {@link InterruptionService} to do, in order. */
public sealed interface InterruptionCommand {

    /** Keep the provisioner off this offering until {@code until}. */
    record MarkUnavailable(OfferingKey offering, Instant until) implements InterruptionCommand {
    }

    /** Tell the provisioner that the claim's pods need new capacity (so it launches while the old node drains). */
    record HintReplacement(String claim, String reason) implements InterruptionCommand {
    }

    /**
     * Begin the termination flow for the claim. {@code deadline} (nullable) caps the grace period: at the deadline the
     * remaining pods are deleted and the instance terminated. The drain starts at once: an interruption does not wait
     * for replacements (a rebalance recommendation, which can, goes through the sweep's rebalance command instead).
     */
    record StartTermination(String claim, String reason, Instant deadline) implements InterruptionCommand {
        /** Drain at once, by {@code deadline} (null: the pool's grace period alone). */
        static StartTermination drain(String claim, String reason, Instant deadline) {
            return new StartTermination(claim, reason, deadline);
        }
    }

    /**
     * Label the claim's node {@code gantry.dev/rebalance-recommended=true}: the sweep replaces it through a rebalance
     * command ({@link dev.gantry.core.disruption.Rebalance}). Setting it twice changes nothing.
     */
    record FlagRebalance(String claim) implements InterruptionCommand {
    }

    /** A Kubernetes Event on the claim's node (Warning for interruptions, Normal for recommendations). */
    record RecordEvent(String claim, String type, String reason, String message) implements InterruptionCommand {
    }

    /** Count one InterruptionEvents metric with dimension Kind. */
    record EmitMetric(String kind) implements InterruptionCommand {
    }

    /** Nothing to do; {@code reason} is logged at debug level. */
    record Ignore(String reason) implements InterruptionCommand {
    }
}
