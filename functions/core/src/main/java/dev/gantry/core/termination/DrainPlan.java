package dev.gantry.core.termination;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of a node's pods the drain still waits for, and what to do with them in this slice. Mirrors Karpenter's
 * terminator: pods that tolerate the disrupted taint, mirror/static pods, terminal pods and pods stuck terminating are
 * not waited for; the rest are evicted in four tiers (non-critical non-daemon, non-critical daemon, critical
 * non-daemon, critical daemon), only the first non-empty tier at a time; do-not-disrupt pods hold their tier but are
 * never evicted; once the grace period is about to expire a pod is deleted, early enough for its own grace period.
 *
 * @param waiting  pods the drain waits for
 * @param evict    pods to evict in this slice
 * @param delete   pods to delete in this slice
 * @param blocked  pods skipped because a PDB allows no disruption now, or do-not-disrupt
 */
record DrainPlan(List<Pod> waiting, List<Pod> evict, List<Pod> delete, List<Pod> blocked) {
    /** Kubernetes' default pod terminationGracePeriodSeconds. */
    static final Duration DEFAULT_POD_GRACE = Duration.ofSeconds(30);
    /** A pod whose deletion timestamp is this far past is stuck (kubelet gone): stop waiting for it. */
    static final Duration STUCK_TERMINATING = Duration.ofMinutes(1);

    static DrainPlan of(List<Pod> podsOnNode, List<PodDisruptionBudget> pdbs, Instant now, Instant graceExpiry, int maxCalls) {
        List<Pod> waiting = new ArrayList<>();
        List<Pod> graceful = new ArrayList<>();
        List<Pod> delete = new ArrayList<>();
        for (Pod p : podsOnNode) {
            if (!isWaitedFor(p, now)) {
                continue;
            }
            waiting.add(p);
            if (graceExpiry != null && !now.isBefore(graceExpiry.minus(podGrace(p)))) {
                if (delete.size() < maxCalls) {
                    delete.add(p);
                }
            } else {
                graceful.add(p);
            }
        }
        List<Pod> evict = new ArrayList<>();
        List<Pod> blocked = new ArrayList<>();
        for (Pod p : firstTier(graceful)) {
            if (p.status().deletingSince() != null) {
                continue; // already being deleted: wait for it
            }
            if (p.doNotDisrupt() || pdbs.stream().anyMatch(b -> b.covers(p) && b.disruptionsAllowed() <= 0)) {
                blocked.add(p);
            } else if (evict.size() < maxCalls) {
                evict.add(p);
            }
        }
        return new DrainPlan(List.copyOf(waiting), List.copyOf(evict), List.copyOf(delete), List.copyOf(blocked));
    }

    static boolean isWaitedFor(Pod p, Instant now) {
        if (p.status().isTerminal() || p.isMirror() || Toleration.anyTolerates(p.tolerations(), Taint.DISRUPTED)) {
            return false;
        }
        Instant deleting = p.status().deletingSince();
        return deleting == null || now.isBefore(deleting.plus(STUCK_TERMINATING));
    }

    private static Duration podGrace(Pod p) {
        Long s = p.status().terminationGracePeriodSeconds();
        return s == null ? DEFAULT_POD_GRACE : Duration.ofSeconds(s);
    }

    /** The first non-empty eviction tier (Kubernetes graceful node shutdown order). */
    private static List<Pod> firstTier(List<Pod> pods) {
        for (int tier = 0; tier < 4; tier++) {
            List<Pod> in = new ArrayList<>();
            for (Pod p : pods) {
                if (tier(p) == tier) {
                    in.add(p);
                }
            }
            if (!in.isEmpty()) {
                return in;
            }
        }
        return List.of();
    }

    private static int tier(Pod p) {
        return (p.isCritical() ? 2 : 0) + (p.isDaemon() ? 1 : 0);
    }
}
