package dev.gantry.core.scheduling;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;

/**
 * Everything about a pod at one relaxation level that decides where it may go, without its name. Replicas of one
 * Deployment share a signature, so what one learned about a candidate ("that claim will never take me") holds for all.
 */
record Signature(Resources requests, Requirements node, List<Toleration> tolerations, List<TopologySpread> spreads,
                 List<PodAffinityTerm> affinity, List<PodAffinityTerm> antiAffinity, List<HostPort> hostPorts,
                 Map<String, String> labels, String namespace, boolean toleratePreferNoSchedule) {

    static Signature of(PodConstraints c) {
        return new Signature(c.requests(), c.nodeRequirements(), c.tolerations(), c.spreads(), c.affinity(),
                c.antiAffinity(), c.hostPorts(), c.pod().labels(), c.pod().namespace(), c.toleratePreferNoSchedule());
    }
}
