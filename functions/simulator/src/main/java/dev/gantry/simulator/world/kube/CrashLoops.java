package dev.gantry.simulator.world.kube;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.Pod;
import dev.gantry.simulator.runtime.EventLoop;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The pods of a node booted from a crash-looping image ({@code SimulatedImages.Fault.CRASH_LOOP}), as its kubelet
 * reports them: every pod on the node (DaemonSet pods included) runs {@link #RUNS_FOR}, exits, and waits in
 * {@code CrashLoopBackOff} for the kubelet's back-off (10 s, doubled after each exit, at most 5 min: the kubelet's
 * defaults) before it is restarted, which adds one to its {@code restartCount}. While it waits the pod is NotReady;
 * while it runs, Ready. Its phase stays Running. A pod's clock starts when the model first sees it bound to the node
 * (within {@link #EVERY}); the statuses are written every {@link #EVERY} while the node exists.
 *
 * <p>Not modelled: the back-off reset after 10 minutes of a clean run, containers that differ within a pod (the pod's
 * one count stands for all), init containers, and the kubelet's own status-update latency beyond {@link #EVERY}.
 */
final class CrashLoops {
    static final Duration EVERY = Duration.ofSeconds(10);
    static final Duration RUNS_FOR = Duration.ofSeconds(5);
    static final Duration FIRST_BACK_OFF = Duration.ofSeconds(10);
    static final Duration MAX_BACK_OFF = Duration.ofMinutes(5);

    private final InMemoryCluster cluster;
    private final EventLoop loop;
    private final Runnable changed;
    /** When each pod (by uid) was first seen on a crash-looping node. */
    private final Map<String, Instant> since = new HashMap<>();

    CrashLoops(InMemoryCluster cluster, EventLoop loop, Runnable changed) {
        this.cluster = cluster;
        this.loop = loop;
        this.changed = changed;
    }

    /** From now on, the pods bound to {@code node} crash-loop, until the node is gone. */
    void watch(String node) {
        tick(node);
    }

    private void tick(String node) {
        if (cluster.node(node) == null) {
            return;
        }
        Instant now = loop.now();
        boolean any = false;
        for (Pod p : cluster.podsOn(node)) {
            if (p.status().isTerminal() || p.status().deletingSince() != null) {
                continue;
            }
            Instant start = since.computeIfAbsent(p.uid(), k -> now);
            State s = at(Duration.between(start, now));
            Pod.Status st = p.status();
            if (st.restarts() != s.restarts() || st.crashLoopBackOff() != s.waiting()
                    || !Boolean.valueOf(!s.waiting()).equals(st.ready())) {
                cluster.putPod(p.toBuilder().status(new Pod.Status(st.phase(), st.unschedulable(), st.createdAt(),
                        st.deletingSince(), st.terminationGracePeriodSeconds(), st.startedAt(), !s.waiting(),
                        s.restarts(), s.waiting())).build());
                any = true;
            }
        }
        if (any) {
            changed.run();
        }
        loop.after(EVERY, "kubelet restarts crash-looping pods on " + node, () -> tick(node));
    }

    /** A pod's restarts and whether it waits in back-off, {@code elapsed} after it first started. */
    record State(int restarts, boolean waiting) {
    }

    static State at(Duration elapsed) {
        Duration t = Duration.ZERO;
        Duration backOff = FIRST_BACK_OFF;
        int restarts = 0;
        while (true) {
            Duration exit = t.plus(RUNS_FOR);
            if (elapsed.compareTo(exit) < 0) {
                return new State(restarts, false);
            }
            Duration restart = exit.plus(backOff);
            if (elapsed.compareTo(restart) < 0) {
                return new State(restarts, true);
            }
            restarts++;
            t = restart;
            backOff = backOff.multipliedBy(2).compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : backOff.multipliedBy(2);
        }
    }
}
