package dev.gantry.core.sweep;

import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.disruption.DisruptionCommand;
import dev.gantry.core.disruption.DisruptionDecision;
import dev.gantry.core.headroom.BufferRoom;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.LeavingNodes;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import dev.gantry.core.termination.TerminationStart.Replacement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** The sweep's emptiness and expiry step: decided by {@link DisruptionDecision}, carried out here. */
final class DisruptionStep {
    private final ClusterWriter writer;
    private final TerminationService termination;
    private final ProvisioningHints hints;
    private final Map<String, NodePool> pools;
    private final Clock clock;

    DisruptionStep(ClusterWriter writer, TerminationService termination, ProvisioningHints hints, Map<String, NodePool> pools,
                   Clock clock) {
        this.writer = writer;
        this.termination = termination;
        this.hints = hints;
        this.pools = pools;
        this.clock = clock;
    }

    /** What the disruption step did: empty-since labels written, and termination flows started. */
    record Disrupted(int emptinessMarks, int disrupted) {
    }

    /**
     * Emptiness and expiry ({@link DisruptionDecision}) over the claims' nodes: empty-since labels written, and a
     * termination flow started per node to remove, up to {@code startUntil}; what is left is decided again next sweep.
     */
    Disrupted run(List<NodeClaim> claims, List<Node> nodes, List<Pod> pods, Optional<BufferRoom> room, Instant now,
                  Map<String, Integer> terminated, Supplier<FirstSlice> firstSlice, Instant startUntil) {
        Map<String, List<Pod>> byNode = podsByNode(pods);
        List<DisruptionDecision.Candidate> candidates = new ArrayList<>();
        NodeIndex index = new NodeIndex(nodes, claims);
        for (NodeClaim c : claims) {
            index.of(c).ifPresent(n ->
                    candidates.add(new DisruptionDecision.Candidate(c, n, byNode.getOrDefault(n.name(), List.of()))));
        }
        int marks = 0;
        int disrupted = 0;
        Predicate<String> buffers = room.<Predicate<String>>map(r -> r.holders()::contains).orElse(n -> true);
        // A replacement waiting for a leaving node's pods holds their room: not empty, though nothing runs there yet.
        Set<String> replacing = LeavingNodes.holders(claims, nodes, pods);
        Predicate<String> holding = buffers.or(replacing::contains);
        int deferred = 0;
        DisruptionDecision.Candidate replaceFirst = null;
        for (DisruptionCommand c : DisruptionDecision.decide(pools, candidates, holding, now)) {
            if (c instanceof DisruptionCommand.Disrupt && !clock.instant().isBefore(startUntil)) {
                deferred++; // out of time for this sweep: the next one decides it again
                continue;
            }
            switch (c) {
                case DisruptionCommand.SetEmptySince s -> {
                    NodeRegistrar.patchIfPresent(writer, s.node(), NodePatch.labels(Map.of(DisruptionDecision.EMPTY_SINCE,
                            s.since() == null ? "" : Long.toString(s.since().getEpochSecond()))));
                    marks++;
                }
                case DisruptionCommand.Disrupt d -> {
                    // An empty node often finishes in this first slice, so only the sweep can count it. Replace first: the
                    // drain waits until the provisioner has planned the node's pods and their capacity is initialized,
                    // so its first slice (a taint, then waiting) is the termination handler's, not this sweep's time.
                    termination.start(d.claim(), TerminationStart.because(d.reason()).with(Replacement.awaitedIf(d.replaceFirst()))
                                    .with(d.replaceFirst() ? FirstSlice.QUEUED : firstSlice.get()))
                            .filter(slice -> slice.finished() && !slice.commands().isEmpty())
                            .ifPresent(slice -> terminated.merge(d.reason(), 1, Integer::sum));
                    if (d.replaceFirst() && replaceFirst == null) {
                        replaceFirst = candidates.stream().filter(x -> x.claim().name().equals(d.claim())).findFirst().orElse(null);
                    }
                    disrupted++;
                }
            }
        }
        if (replaceFirst != null) {
            // One hint brings the provisioning run that plans every leaving node's pods; sent after the drains began,
            // so that run reads their claims marked (the drains wait for a run that did).
            hints.send(ProvisioningHints.REPLACEMENT, replaceFirst.pods().stream().filter(p -> !p.isDaemon()).findFirst()
                    .orElse(null), replaceFirst.node().name(), now);
        }
        if (deferred > 0) {
            System.getLogger(DisruptionStep.class.getName()).log(System.Logger.Level.INFO,
                    "sweep: " + deferred + " disruptions left for the next sweep (out of time)");
        }
        return new Disrupted(marks, disrupted);
    }

    /** The bound pods by node name, in list order. */
    static Map<String, List<Pod>> podsByNode(List<Pod> pods) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        pods.stream().filter(Pod::isBound).forEach(p -> byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p));
        return byNode;
    }
}
