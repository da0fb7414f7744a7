package dev.gantry.core.provisioning;

import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.headroom.BufferPods;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one provisioning run did, gathered as it goes: becomes the events and the {@link ProvisioningOutcome}. Only the
 * pending pods are reported on. A buffer's virtual pod is no one's business but the planner's, and a pod of a leaving
 * node runs where it is until its drain evicts it: neither is nominated, gets an Event, or is in the outcome.
 */
final class RunLog {
    private final int pending;
    private final java.util.Set<String> reported = new java.util.HashSet<>();
    private final Duration oldestAge;
    private final Map<String, Pod> pods = new HashMap<>();
    private final Map<String, String> nominations = new LinkedHashMap<>();
    private final Map<String, String> unschedulable = new LinkedHashMap<>();
    private final java.util.Set<String> silent = new java.util.HashSet<>();
    private final List<ProvisioningOutcome.LaunchedClaim> launched = new ArrayList<>();
    private final List<String> resumed = new ArrayList<>();
    private final List<ProvisioningOutcome.FailedLaunch> failed = new ArrayList<>();
    private int deferred;

    RunLog(List<Pod> pendingPods, Instant now) {
        this.pending = pendingPods.size();
        pendingPods.forEach(p -> reported.add(p.key()));
        Duration oldest = Duration.ZERO;
        for (Pod p : pendingPods) {
            Instant created = p.status().createdAt();
            if (created != null && created.isBefore(now)) {
                Duration age = Duration.between(created, now);
                oldest = age.compareTo(oldest) > 0 ? age : oldest;
            }
        }
        this.oldestAge = oldest;
    }

    /** The pod will go to {@code claim}: a Nominated Event says so. */
    void nominate(Pod pod, String claim) {
        nominate(pod, claim, true);
    }

    /** The pod will go to {@code claim}, as a Nominated Event already said when that claim was launched: no Event. */
    void renominate(Pod pod, String claim) {
        nominate(pod, claim, false);
    }

    private void nominate(Pod pod, String claim, boolean announce) {
        if (BufferPods.isVirtual(pod) || !reported.contains(pod.key())) {
            return;
        }
        pods.put(pod.key(), pod);
        unschedulable.remove(pod.key());
        nominations.put(pod.key(), claim);
        if (announce) {
            silent.remove(pod.key());
        } else {
            silent.add(pod.key());
        }
    }

    void unschedulable(Pod pod, String reason) {
        if (!BufferPods.isVirtual(pod) && reported.contains(pod.key()) && !nominations.containsKey(pod.key())) {
            pods.put(pod.key(), pod);
            unschedulable.put(pod.key(), reason);
        }
    }

    /** A claim launched (or failed) in this run's plan. */
    void record(ClaimLauncher.Result r) {
        record(r, false);
    }

    /** A claim an earlier run left Launching, launched (or failed) again in this run. */
    void recordResumed(ClaimLauncher.Result r) {
        record(r, true);
    }

    private void record(ClaimLauncher.Result r, boolean resumedClaim) {
        if (r.launched() != null) {
            launched.add(r.launched());
            if (resumedClaim) {
                resumed.add(r.claim().name());
            }
        } else if (r.code() != null) {
            failed.add(new ProvisioningOutcome.FailedLaunch(r.claim().name(), r.code(), r.reason()));
        }
    }

    /** The keys of the pods reported on: the pending ones. */
    java.util.Set<String> reported() {
        return java.util.Collections.unmodifiableSet(reported);
    }

    /** A claim left for the next run: the run is short of time. */
    void defer() {
        deferred++;
    }

    int deferred() {
        return deferred;
    }

    /**
     * Kubernetes Events on the pods: where each is going, or why it cannot be placed. Best effort by contract, so an
     * Event that would start once {@code inTime} says no is dropped (the pod's nomination stands).
     */
    void emitEvents(ClusterWriter writer, Fanout fanout, int parallelism, java.util.function.BooleanSupplier inTime) {
        List<Runnable> events = new ArrayList<>();
        nominations.forEach((key, claim) -> {
            if (silent.contains(key)) {
                return;
            }
            Pod p = pods.get(key);
            events.add(() -> writer.event("Pod", p.namespace(), p.name(), "Normal", "Nominated",
                    "Pod should schedule on: nodeclaim/" + claim));
        });
        unschedulable.forEach((key, reason) -> {
            Pod p = pods.get(key);
            events.add(() -> writer.event("Pod", p.namespace(), p.name(), "Warning", "FailedScheduling",
                    "Failed to schedule pod, " + reason));
        });
        List<Boolean> sent = fanout.map(events, parallelism, e -> {
            if (!inTime.getAsBoolean()) {
                return false;
            }
            e.run();
            return true;
        });
        long dropped = sent.stream().filter(b -> !b).count();
        if (dropped > 0) {
            System.getLogger(RunLog.class.getName()).log(System.Logger.Level.WARNING,
                    dropped + " of " + events.size() + " pod Events dropped: the run is out of time");
        }
    }

    ProvisioningOutcome outcome(int rounds, boolean capacityShort) {
        return new ProvisioningOutcome(pending, oldestAge, launched, resumed, nominations, unschedulable, failed, rounds,
                deferred, capacityShort);
    }
}
