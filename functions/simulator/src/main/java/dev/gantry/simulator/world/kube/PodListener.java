package dev.gantry.simulator.world.kube;

import dev.gantry.core.model.Pod;
import java.time.Instant;

/** What the cluster's controllers tell of each pod's life: what the recorder measures time to schedule from. */
public interface PodListener {
    /** A controller (or a manifest) created the pod. */
    void podCreated(Pod p);

    /** kube-scheduler bound {@code p} to {@code node}. */
    void podBound(Pod p, String node, Instant now);

    /** kube-scheduler found no room for {@code p} and marked it Unschedulable. */
    void podUnschedulable(Pod p, Instant now);

    /** A controller deleted the pod (a scale-down). */
    void podDeleted(Pod p);
}
