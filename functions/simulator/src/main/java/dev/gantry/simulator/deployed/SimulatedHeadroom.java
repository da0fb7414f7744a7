package dev.gantry.simulator.deployed;

import dev.gantry.simulator.world.kube.Workloads;
import dev.gantry.core.headroom.BootLead;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.headroom.LiveHeadroom;
import dev.gantry.core.lifecycle.NodeClaimStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The headroom a simulated Gantry runs with, wired as the composition root wires the deployed one ({@link LiveHeadroom}):
 * the scenario config's CapacityBuffers and PodTemplates, the simulated cluster's Deployments for {@code scalableRef}s
 * (their live replica counts), the run's pending-demand history, and the boot lead measured from the store's claims
 * plus the deployed sweep interval.
 */
public final class SimulatedHeadroom {
    private final List<CapacityBuffer> buffers;
    private final BufferTargets bundle;
    private final Workloads workloads;
    private final DemandHistoryStore history;
    private final NodeClaimStore store;
    private final Duration sweepRate;
    private final LiveHeadroom port;

    public SimulatedHeadroom(List<CapacityBuffer> buffers, BufferTargets bundle, Workloads workloads, DemandHistoryStore history,
                NodeClaimStore store, Duration sweepRate) {
        this.buffers = List.copyOf(buffers);
        this.bundle = bundle;
        this.workloads = workloads;
        this.history = history;
        this.store = store;
        this.sweepRate = sweepRate;
        this.port = new LiveHeadroom(this::read, history, this::bootLead);
    }

    public Headroom port() {
        return port;
    }

    public List<CapacityBuffer> buffers() {
        return buffers;
    }

    public DemandHistoryStore history() {
        return history;
    }

    public LiveHeadroom.Buffers read() {
        if (buffers.isEmpty()) {
            return LiveHeadroom.Buffers.NONE;
        }
        List<BufferTargets.Target> live = new ArrayList<>();
        workloads.deployments().values().forEach(d ->
                live.add(new BufferTargets.Target(d.namespace(), "Deployment", d.name(), d.template(), d.replicas())));
        return new LiveHeadroom.Buffers(buffers, bundle.with(BufferTargets.of(live)));
    }

    public Duration bootLead(Instant now) {
        return BootLead.of(store.list(now), sweepRate);
    }

    /**
     * The buffers' virtual pods now, as the checks see them: read from {@code truth} (the store behind the faults), so
     * that looking costs Gantry nothing and draws no fault.
     */
    public List<dev.gantry.core.model.Pod> virtualPods(Instant now, NodeClaimStore truth) {
        if (buffers.isEmpty()) {
            return List.of();
        }
        return new LiveHeadroom(this::read, history, t -> BootLead.of(truth.list(t), sweepRate)).at(now).virtualPods();
    }
}
