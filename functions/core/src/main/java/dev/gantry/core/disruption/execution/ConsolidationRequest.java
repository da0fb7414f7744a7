package dev.gantry.core.disruption.execution;

import java.util.Objects;

/**
 * A termination-queue message that moves a consolidation command on: {@code claim} is the command's leader,
 * {@code command} its id, {@code step} the leader's step the message is for (an earlier one is a duplicate). Wire
 * format: {@code {"consolidation":"…","claim":"…","step":n}}; claim names and command ids are DNS labels, so no
 * escaping is needed.
 */
public record ConsolidationRequest(String claim, String command, int step) {
    private static final String NAME = "[a-z0-9]([-a-z0-9.]*[a-z0-9])?";

    public ConsolidationRequest {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(command, "command");
        if (!claim.matches(NAME) || !command.matches(NAME)) {
            throw new IllegalArgumentException("'" + claim + "' / '" + command + "' is not a nodeclaim name and command id");
        }
        if (step < 0) {
            throw new IllegalArgumentException("step must be >= 0, got " + step);
        }
    }

    public String toJson() {
        return "{\"consolidation\":\"" + command + "\",\"claim\":\"" + claim + "\",\"step\":" + step + "}";
    }
}
