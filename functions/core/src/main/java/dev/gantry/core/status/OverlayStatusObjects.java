package dev.gantry.core.status;

import java.util.List;

/**
 * The {@code status.conditions} of the cluster's NodeOverlays ({@code karpenter.sh/v1alpha1}): listed whole (there
 * are few) and written through the {@code status} subresource, under the same contract as {@link StatusObjects}: a
 * write is guarded by the listed resourceVersion ({@link NodeClaimObjects.Stale} when the object moved on), a write to
 * an object that is gone is a quiet success, other failures are unchecked exceptions and retryable.
 */
public interface OverlayStatusObjects {
    /** Each NodeOverlay with its conditions as listed (null when it has no status, or one Gantry cannot read). */
    List<StatusObjects.Observed<List<Condition>>> nodeOverlays();

    void writeNodeOverlay(StatusObjects.Observed<List<Condition>> observed, List<Condition> conditions);
}
