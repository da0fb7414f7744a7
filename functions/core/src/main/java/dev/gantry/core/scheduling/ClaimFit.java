package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.List;

/**
 * A proposed addition: the claim's next requirements and options, or why the pod does not fit. The reason is
 * worked out only when asked for: most misfits are expected (a full claim) and nobody reads them.
 */
record ClaimFit(Requirements requirements, List<InstanceType> options, Resources maxRoom, Resources[] rooms,
           java.util.function.Supplier<String> why, boolean lasting) {
    /**
     * The pod fits: the claim becomes {@code requirements} with {@code options}, whose most room is {@code maxRoom} and
     * whose rooms, in option order, are {@code rooms} (null when not worked out).
     */
    static ClaimFit fits(Requirements requirements, List<InstanceType> options, Resources maxRoom, Resources[] rooms) {
        return new ClaimFit(requirements, options, maxRoom, rooms, null, false);
    }

    static ClaimFit fail(String why) {
        return new ClaimFit(null, null, null, null, () -> why, true);
    }

    /** A failure that holds for the rest of the solve: claims only fill up and narrow. */
    static ClaimFit fail(java.util.function.Supplier<String> why) {
        return new ClaimFit(null, null, null, null, why, true);
    }

    /** A failure that may not last: limits, which other claims' shrinking can free up. */
    static ClaimFit failForNow(java.util.function.Supplier<String> why) {
        return new ClaimFit(null, null, null, null, why, false);
    }

    boolean ok() {
        return options != null;
    }

    /** Null when the pod fits; otherwise the reason, computed now. */
    String failure() {
        return ok() ? null : why.get();
    }
}
