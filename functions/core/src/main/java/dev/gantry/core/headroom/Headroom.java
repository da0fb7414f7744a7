package dev.gantry.core.headroom;

import java.time.Instant;

/**
 * Where a run learns the headroom it must keep: the buffers' expansion at an instant. The provisioner appends
 * {@link HeadroomPlan#virtualPods()} after the real pending pods; the sweep keeps the nodes those virtual pods need
 * (emptiness and consolidation treat them as pods that must stay placeable).
 * <p>
 * Contract: answers from what the caller already loaded or can read cheaply; never throws for a cluster without
 * buffers or without the CapacityBuffer CRD (it answers {@link HeadroomPlan#NONE}); a read failure it cannot absorb is
 * thrown as the adapter's own exception, as any other port read would be.
 */
@FunctionalInterface
public interface Headroom {
    /** No buffers: the behaviour of a cluster that defines none. */
    Headroom NONE = now -> HeadroomPlan.NONE;

    HeadroomPlan at(Instant now);
}
