package dev.gantry.core.disruption.drift.rollout;

import dev.gantry.core.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pods an AMI rollout's canaries are judged by: whether a canary node runs its pods without restarts (Gantry's own
 * rule; Karpenter v1.14 has no canary, and its drift looks at no pod's health).
 *
 * <p>A pod <em>crash-loops</em> when its containers (init containers included) have restarted at least
 * {@value #RESTARTS} times, or when one waits in {@code CrashLoopBackOff} after at least {@value #BACK_OFF_RESTARTS}
 * restarts (one exit and a restart is a pod that waited for a dependency, not a loop). A pod lives its whole life on
 * one node, so on a canary node every restart it has happened on the new image, after the node initialized. Every
 * pod that is not terminal counts, DaemonSet and mirror pods included: an agent that crashes on the new kernel is what
 * a bad image looks like.
 *
 * <p>Excused: a pod whose owner (namespace, kind, name) also has a crash-looping pod on a node that is not a canary:
 * the workload fails on the old image too, so the image is not to blame (a broken Deployment whose pods a drain moves
 * onto the canary must not pause the rollout). A pod without an owner, or a mirror pod, has no such sibling.
 *
 * @param byNode the non-terminal pods bound to each node, by node name
 */
public record CanaryPods(Map<String, List<Pod>> byNode) {
    /** Restarts at which a pod crash-loops, whatever its state now. */
    public static final int RESTARTS = 3;
    /** Restarts at which a pod waiting in {@code CrashLoopBackOff} crash-loops. */
    public static final int BACK_OFF_RESTARTS = 2;
    /** No pods known (a caller that judges no pod: a paused class's pins, a dump without pods): nothing crash-loops. */
    public static final CanaryPods NONE = new CanaryPods(Map.of());

    public CanaryPods {
        Map<String, List<Pod>> copy = new HashMap<>();
        byNode.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        byNode = Map.copyOf(copy);
    }

    /** The bound, non-terminal pods among {@code pods}, by node. */
    public static CanaryPods of(Collection<Pod> pods) {
        Map<String, List<Pod>> m = new HashMap<>();
        for (Pod p : pods) {
            if (p.isBound() && !p.status().isTerminal()) {
                m.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        return new CanaryPods(m);
    }

    /** Whether {@code p} crash-loops, by the rule above. */
    public static boolean crashLooping(Pod p) {
        Pod.Status s = p.status();
        return !s.isTerminal() && (s.restarts() >= RESTARTS || (s.crashLoopBackOff() && s.restarts() >= BACK_OFF_RESTARTS));
    }

    /**
     * The first pod (by key) that crash-loops on {@code node} and is not excused, as a sentence; empty when there is
     * none or the node is not known.
     *
     * @param canaries the nodes of the rollout's exposed claims (every other node is evidence for the excuse)
     */
    public Optional<String> crashLoop(String node, Set<String> canaries) {
        List<Pod> looping = byNode.getOrDefault(node, List.of()).stream().filter(CanaryPods::crashLooping)
                .sorted(java.util.Comparator.comparing(Pod::key)).toList();
        if (looping.isEmpty()) {
            return Optional.empty();
        }
        Set<String> elsewhere = loopingOwnersOff(canaries);
        return looping.stream().filter(p -> owner(p) == null || !elsewhere.contains(owner(p))).findFirst()
                .map(p -> "pod " + p.key() + " on node/" + node + " crash-loops (" + p.status().restarts() + " restarts"
                        + (p.status().crashLoopBackOff() ? ", in CrashLoopBackOff" : "") + ")");
    }

    /** The owners with a crash-looping pod on a node not in {@code canaries}. */
    private Set<String> loopingOwnersOff(Set<String> canaries) {
        Set<String> out = new HashSet<>();
        byNode.forEach((node, pods) -> {
            if (!canaries.contains(node)) {
                pods.stream().filter(CanaryPods::crashLooping).map(CanaryPods::owner).filter(java.util.Objects::nonNull).forEach(out::add);
            }
        });
        return out;
    }

    /** {@code namespace/kind/name} of the pod's owner; null for a bare or mirror pod (no siblings to compare). */
    private static String owner(Pod p) {
        return p.ownerKind() == null || p.ownerName() == null || p.isMirror() ? null
                : p.namespace() + "/" + p.ownerKind() + "/" + p.ownerName();
    }
}
