package dev.gantry.core.interruption;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.disruption.Rebalance;
import dev.gantry.core.interruption.InterruptionCommand.EmitMetric;
import dev.gantry.core.interruption.InterruptionCommand.FlagRebalance;
import dev.gantry.core.interruption.InterruptionCommand.HintReplacement;
import dev.gantry.core.interruption.InterruptionCommand.Ignore;
import dev.gantry.core.interruption.InterruptionCommand.MarkUnavailable;
import dev.gantry.core.interruption.InterruptionCommand.RecordEvent;
import dev.gantry.core.interruption.InterruptionCommand.StartTermination;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.termination.TerminationMarkers;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Handles one EventBridge event: looks up the claim for each instance it names, asks {@link InterruptionDecision} and
 * executes the commands. Replaying an event is harmless: once a claim is deleting, the decision ignores it.
 */
public final class InterruptionService {
    private final NodeClaimStore store;
    private final ClusterReader reader;
    private final ClusterWriter writer;
    private final TerminationService termination;
    private final ProvisioningHints hints;
    private final Map<String, NodePool> pools;
    private final Clock clock;

    public InterruptionService(NodeClaimStore store, ClusterReader reader, ClusterWriter writer, TerminationService termination,
                               ProvisioningHints hints, Map<String, NodePool> pools, Clock clock) {
        this.store = store;
        this.reader = reader;
        this.writer = writer;
        this.termination = termination;
        this.hints = hints;
        this.pools = Map.copyOf(pools);
        this.clock = clock;
    }

    /** What was decided for one event, and the first termination slice if one ran. */
    public record Outcome(InterruptionEvent event, List<InterruptionCommand> commands, Optional<TerminationService.Slice> slice) {
        /** The ignore reasons, for debug logging. */
        public List<String> ignored() {
            return commands.stream().filter(c -> c instanceof Ignore).map(c -> ((Ignore) c).reason()).toList();
        }

        public List<String> metricKinds() {
            return commands.stream().filter(c -> c instanceof EmitMetric).map(c -> ((EmitMetric) c).kind()).toList();
        }
    }

    /**
     * Handles every event the envelope carries.
     *
     * @throws IllegalArgumentException when the envelope is malformed (see {@link InterruptionEvent#from})
     */
    public List<Outcome> handle(EventEnvelope envelope) {
        return handle(envelope, FirstSlice.INLINE);
    }

    /**
     * @param firstSlice {@link FirstSlice#QUEUED} when the caller is short of time: a termination is started (the claim
     *                   marked, its first slice queued) but no slice runs here
     */
    public List<Outcome> handle(EventEnvelope envelope, FirstSlice firstSlice) {
        List<Outcome> out = new ArrayList<>();
        for (InterruptionEvent event : InterruptionEvent.from(envelope)) {
            out.add(handle(event, firstSlice));
        }
        return out;
    }

    public Outcome handle(InterruptionEvent event) {
        return handle(event, FirstSlice.INLINE);
    }

    private Outcome handle(InterruptionEvent event, FirstSlice firstSlice) {
        Instant now = clock.instant();
        Optional<NodeClaim> claim = event.instanceId() == null ? Optional.empty() : store.findByInstanceId(event.instanceId(), now);
        Map<String, String> annotations = claim.map(c -> pools.get(c.nodePool())).map(NodePool::annotations).orElse(Map.of());
        Optional<Instant> deadline = claim.flatMap(c -> store.marker(TerminationMarkers.deadline(c.name())));
        List<InterruptionCommand> commands = alreadyRecommended(event, claim)
                ? List.of(new Ignore("node of " + event.instanceId() + " already labelled " + Rebalance.RECOMMENDED_LABEL))
                : InterruptionDecision.decide(event, claim, annotations, deadline, now);
        Optional<TerminationService.Slice> slice = Optional.empty();
        for (InterruptionCommand c : commands) {
            switch (c) {
                case MarkUnavailable m -> store.markUnavailable(m.offering(), m.until());
                case HintReplacement h -> hint(claim.orElseThrow(), h.reason(), now);
                case StartTermination s -> slice = termination.start(s.claim(), TerminationStart.because(s.reason())
                        .by(s.deadline())
                        .with(firstSlice));
                case RecordEvent e -> {
                    String node = claim.map(NodeClaim::nodeName).orElse(null);
                    if (node != null) {
                        writer.event("Node", null, node, e.type(), e.reason(), e.message());
                    }
                }
                case FlagRebalance f -> {
                    String node = claim.map(NodeClaim::nodeName).orElse(null);
                    if (node != null) { // not registered yet: not a candidate for replacement; the warning will act
                        writer.patchNode(node, NodePatch.labels(Map.of(Rebalance.RECOMMENDED_LABEL, "true")));
                    }
                }
                case EmitMetric m -> { } // the handler turns these into embedded-metric lines
                case Ignore i -> { } // the handler logs these at debug level
            }
        }
        return new Outcome(event, commands, slice);
    }

    /**
     * A rebalance recommendation delivered again (SQS at-least-once, or EC2 repeating it) for a node already labelled:
     * nothing to add, not even a second Event; the sweep's command is under way or will be.
     */
    private boolean alreadyRecommended(InterruptionEvent event, Optional<NodeClaim> claim) {
        if (!(event instanceof InterruptionEvent.RebalanceRecommendation) || claim.isEmpty() || claim.get().nodeName() == null
                || claim.get().state().isDeleting()) {
            return false;
        }
        return reader.findNode(claim.get().nodeName()).map(Rebalance::recommended).orElse(false);
    }

    /** One hint is enough: the provisioner re-reads the whole cluster. It names a pod of the node when there is one. */
    private void hint(NodeClaim claim, String reason, Instant now) {
        Pod about = null;
        if (claim.nodeName() != null) {
            for (Pod p : reader.podsOn(claim.nodeName())) {
                if (!p.isDaemon()) {
                    about = p;
                    break;
                }
            }
        }
        hints.send(reason, about, claim.nodeName(), now);
    }
}
