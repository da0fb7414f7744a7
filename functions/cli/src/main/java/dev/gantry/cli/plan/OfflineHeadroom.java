package dev.gantry.cli.plan;

import dev.gantry.config.LoadResult;
import dev.gantry.config.cluster.BufferLayers;
import dev.gantry.config.cluster.ClusterDocuments;
import dev.gantry.core.headroom.LiveHeadroom;
import dev.gantry.kube.objects.dump.ClusterDump;
import java.util.function.Consumer;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.core.headroom.BootLead;
import dev.gantry.core.headroom.BufferExpansion;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.headroom.HeadroomPlan;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The headroom an offline what-if keeps, as the deployed functions keep it: the CapacityBuffers of the configuration
 * files and of the cluster dump, with the PodTemplates and workloads either holds, expanded at the decision's instant into virtual pods
 * ({@link HeadroomPlan}). {@code gantry plan} plans them after the real pending pods, as a provisioning run does;
 * {@code gantry consolidate} and {@code gantry drift} keep their room, as the sweep does
 * ({@code ConsolidationInput.reserved}), so a what-if on a cluster with buffers does not remove the nodes that hold them.
 * The boot lead is the deployed one: the dump's claims' measured boot plus the sweep's rate ({@link BootLead#of}).
 * Offline there is no demand history, so a predicted buffer keeps only its replicas or percentage ({@link #notes}).
 *
 * @param bootLead how early a scheduled buffer opens
 */
public record OfflineHeadroom(List<CapacityBuffer> buffers, BufferTargets targets, Duration bootLead) {
    public static final OfflineHeadroom NONE = new OfflineHeadroom(List.of(), BufferTargets.NONE, BootLead.DEFAULT_BOOT);

    public OfflineHeadroom {
        buffers = List.copyOf(buffers);
    }

    /** The buffers of {@code config}, with the boot lead measured over {@code claims} (a dump's, or none). */
    public static OfflineHeadroom of(LoadResult config, List<NodeClaim> claims) {
        return of(config, null, claims, w -> { });
    }

    /**
     * The buffers of {@code config}, then those of {@code dump} (null: none) that the files do not define, with the
     * PodTemplates and workloads either holds ({@link BufferLayers}, as {@code gantry status} lays the cluster's over the
     * bundle's); the boot lead measured over {@code claims}. A dump's buffer that does not read cleanly is left out,
     * its message handed to {@code warn}.
     */
    public static OfflineHeadroom of(LoadResult config, ClusterDump dump, List<NodeClaim> claims, Consumer<String> warn) {
        List<String> docs = dump == null ? List.of() : ClusterDocuments.buffers(dump.configObjects());
        LiveHeadroom.Buffers b = BufferLayers.over(config, "dump", docs, warn);
        return new OfflineHeadroom(b.buffers(), b.targets(), BootLead.of(claims, DeploymentSettings.DEFAULT.sweepRate()));
    }

    /** Every buffer's expansion at {@code now}. */
    public HeadroomPlan at(Instant now) {
        return HeadroomPlan.of(buffers, targets, DemandHistory.EMPTY, now, bootLead);
    }

    /** The virtual pods the buffers want at {@code now}, buffer by buffer. */
    public List<Pod> virtualPods(Instant now) {
        return buffers.isEmpty() ? List.of() : at(now).virtualPods();
    }

    /**
     * One line per buffer whose room the what-if at {@code now} cannot see as the functions would: one whose
     * PodTemplate or workload the files do not hold, and a predicted one (no demand history offline); with a line
     * saying what is kept when there are buffers at all.
     */
    public List<String> notes(Instant now) {
        List<String> out = new ArrayList<>();
        if (buffers.isEmpty()) {
            return out;
        }
        int chunks = 0;
        for (BufferExpansion e : at(now).buffers()) {
            String name = "CapacityBuffer " + e.buffer().namespace() + "/" + e.buffer().name();
            chunks += e.chunks();
            if (e.state() == BufferExpansion.State.UNRESOLVED) {
                out.add(name + ": " + e.reason() + "; it keeps no room here (add the PodTemplate or workload to the "
                        + "configuration files, or to the dump)");
            } else if (e.buffer().prediction() != null) {
                out.add(name + " is predicted: offline there is no demand history, so it keeps only what its replicas "
                        + "or percentage ask (" + e.chunks() + (e.chunks() == 1 ? " chunk" : " chunks") + ")");
            }
        }
        out.add(0, "headroom: " + buffers.size() + (buffers.size() == 1 ? " CapacityBuffer" : " CapacityBuffers") + ", "
                + chunks + (chunks == 1 ? " chunk" : " chunks") + " of room kept as of " + now);
        return out;
    }
}
