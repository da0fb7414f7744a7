package dev.gantry.core.termination;

import java.util.Objects;

/**
 * A termination-queue message: continue the flow for {@code claim}. {@code step} counts the slices so far, for logs
 * and metrics only; the flow's real state is the claim and the cluster. Wire format: {@code {"claim":"…","step":n}}.
 */
public record TerminationRequest(String claim, int step) {
    public TerminationRequest {
        Objects.requireNonNull(claim, "claim");
        if (!claim.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
            throw new IllegalArgumentException("'" + claim + "' is not a nodeclaim name");
        }
        if (step < 0) {
            throw new IllegalArgumentException("step must be >= 0, got " + step);
        }
    }

    /** The message body. Claim names are DNS labels, so no escaping is needed. */
    public String toJson() {
        return "{\"claim\":\"" + claim + "\",\"step\":" + step + "}";
    }
}
