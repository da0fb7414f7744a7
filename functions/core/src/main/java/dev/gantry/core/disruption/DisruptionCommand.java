package dev.gantry.core.disruption;

import java.time.Instant;

/** What the sweep's disruption step asks for. */
public sealed interface DisruptionCommand {

    /** Record when the node became empty ({@code since}), or that it no longer is ({@code since} null). */
    record SetEmptySince(String node, Instant since) implements DisruptionCommand {
    }

    /**
     * Begin the termination flow for the claim. With {@code replaceFirst}, hint the provisioner so that replacement
     * capacity launches while the node drains (expiry).
     */
    record Disrupt(String claim, String reason, boolean replaceFirst) implements DisruptionCommand {
        /** The drain waits for replacement capacity, launched while it drains. */
        public static Disrupt replacingFirst(String claim, String reason) {
            return new Disrupt(claim, reason, true);
        }

        /** The drain evicts at once: nothing to replace (an empty node). */
        public static Disrupt outright(String claim, String reason) {
            return new Disrupt(claim, reason, false);
        }
    }
}
