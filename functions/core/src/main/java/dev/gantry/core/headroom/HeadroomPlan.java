package dev.gantry.core.headroom;

import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Every buffer's expansion at one instant: what a provisioning run adds to its pending pods (after the real ones), what
 * the sweep keeps nodes for, and what status prints.
 */
public record HeadroomPlan(List<BufferExpansion> buffers) {
    public static final HeadroomPlan NONE = new HeadroomPlan(List.of());

    public HeadroomPlan {
        buffers = List.copyOf(buffers);
    }

    public static HeadroomPlan of(List<CapacityBuffer> buffers, BufferTargets targets, DemandHistory history, Instant now,
                                  Duration bootLead) {
        List<BufferExpansion> out = new ArrayList<>();
        for (CapacityBuffer b : buffers) {
            out.add(BufferPods.expand(b, targets, history, now, bootLead));
        }
        return new HeadroomPlan(out);
    }

    /** The virtual pods of every active buffer, buffer by buffer, in the buffers' order. */
    public List<Pod> virtualPods() {
        List<Pod> out = new ArrayList<>();
        buffers.forEach(e -> out.addAll(e.pods()));
        return out;
    }
}
