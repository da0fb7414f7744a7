package dev.gantry.core.disruption.execution;

import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.consolidation.DriftReplacement;
import dev.gantry.core.disruption.consolidation.RebalanceReplacement;
import dev.gantry.core.disruption.consolidation.Verdict;
import dev.gantry.core.lifecycle.NodeClaim;
import java.util.Comparator;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sweep's decision when no command is under way: decides on the whole cluster, records each kept node's verdict as
 * an event, and starts the command found ({@link CommandStart}). A decision that found nothing stands for
 * {@link ConsolidationService#QUIET_FOR} while its inputs ({@link DecisionKey}) are unchanged, per function instance; one
 * that found nothing because a pool's back-off held its replacements stands no longer than that back-off.
 */
final class SweepDecision {
    private final ConsolidationService.Offers offers;
    private final ConsolidationSettings settings;
    private final NodeEvents events;
    private final CommandStart start;
    private final ConsolidationService.Journal journal;
    /**
     * The input key of the last decision that found nothing to do, its candidate count, and, when it found nothing
     * because a back-off held its replacements, when the first of those back-offs ends (it stands no longer) and why.
     */
    private String quietKey;
    private Instant quietAt;
    private int quietCandidates;
    private Instant quietUntil;
    private String quietWhy;

    private final PoolBackoff backoff;
    private final PoolBackoff rebalanceBackoff;
    private final PoolBackoff consolidationBackoff;
    /** What an AMI rollout holds back ({@link DriftGate}); open unless set. */
    DriftGate gate = DriftGate.OPEN;

    SweepDecision(ConsolidationService.Offers offers, ConsolidationSettings settings, NodeEvents events, CommandStart start,
                  ConsolidationService.Journal journal, PoolBackoff.Kinds backoffs) {
        this.backoff = backoffs.drift();
        this.rebalanceBackoff = backoffs.rebalance();
        this.consolidationBackoff = backoffs.consolidation();
        this.offers = offers;
        this.settings = settings;
        this.events = events;
        this.start = start;
        this.journal = journal;
    }

    /**
     * {@code podEvents} and {@code resumed} are what the sweep did before, for the report. The methods run in
     * Karpenter's order: emptiness, drift, then consolidation; with no drifted claim, as consolidation alone.
     */
    ConsolidationReport decide(ClusterSnapshot snap, List<NodeClaim> claims, List<Pod> headroom, Set<String> active,
                               int podEvents, int resumed, Instant now) {
        ConsolidationInput input = snap.input(offers.at(snap.view(), now), headroom, settings, now, null, active);
        ConsolidationReport byRebalance = rebalance(input, claims, podEvents, resumed, now);
        if (byRebalance != null) {
            quietKey = null;
            return byRebalance;
        }
        List<String> drifted = drifted(notBackingOff(claims, snap, now), null);
        if (!drifted.isEmpty()) {
            ConsolidationDecision byDrift = DriftReplacement.decide(input, drifted);
            if (byDrift.command().isPresent()) {
                ConsolidationDecision d = Consolidation.decide(input);
                boolean empty = d.command().isPresent() && d.command().get().method() == ConsolidationCommand.Method.EMPTY;
                quietKey = null;
                return started(empty ? d : byDrift, podEvents, resumed, 0, now);
            }
            events.record(byDrift.verdicts(), now);
        }
        String key = DecisionKey.of(input);
        if (key.equals(quietKey) && now.isBefore(quietAt.plus(ConsolidationService.QUIET_FOR))
                && (quietUntil == null || now.isBefore(quietUntil))) {
            return new ConsolidationReport(quietCandidates, 0, 0, null, quietWhy, List.of(), podEvents, resumed, 0);
        }
        long t0 = System.nanoTime();
        ConsolidationDecision d = Consolidation.decide(input);
        ConsolidationDecision again = held(d, input, consolidationBackoff, now);
        boolean held = again != null;
        if (held) {
            d = heldBack(d.command().orElseThrow(), again, consolidationBackoff.at(now));
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        events.record(d.verdicts(), now);
        int candidates = d.verdicts().size() + d.command().map(c -> c.nodes().size()).orElse(0);
        if (d.command().isEmpty()) {
            // A decision held back stands only until the first of its back-offs ends: that changes no input, and the
            // replacement may then launch. Until then, the same inputs would only be held back again: two decisions a
            // sweep for nothing.
            String why = held ? "replacements held back: their NodePool backs off consolidation launches" : null;
            quietKey = key;
            quietAt = now;
            quietCandidates = candidates;
            quietUntil = held ? heldUntil(input, now) : null;
            quietWhy = held ? why : "nothing changed since the last decision";
            return new ConsolidationReport(candidates, 0, 0, null, why, d.verdicts(), podEvents, resumed, millis);
        }
        quietKey = null;
        return started(d, podEvents, resumed, millis, now);
    }

    /**
     * When {@code d}'s command launches in a pool backing off consolidation launches ({@link PoolBackoff#CONSOLIDATION}),
     * the decision taken again without launching in the pools backing off; null when it is not held back. The markers
     * are read only then: most decisions launch nothing, and read none. The sweep's decision and validation's both ask.
     */
    static ConsolidationDecision held(ConsolidationDecision d, ConsolidationInput input, PoolBackoff backoff, Instant now) {
        if (d.command().isEmpty() || d.command().get().replacements().isEmpty()) {
            return null;
        }
        java.util.function.Predicate<String> backingOff = backoff.at(now);
        if (d.command().get().replacements().stream().noneMatch(r -> backingOff.test(r.nodePool()))) {
            return null;
        }
        return Consolidation.decide(launchingNothingIn(input, backingOff));
    }

    /** When the first back-off among {@code input}'s pools ends: what a held decision left out comes back then. */
    private Instant heldUntil(ConsolidationInput input, Instant now) {
        return input.pools().stream().map(p -> consolidationBackoff.until(p.pool().name()))
                .flatMap(Optional::stream).filter(now::isBefore).min(Instant::compareTo).orElse(now);
    }

    /**
     * {@code decided} (taken without launching in the pools backing off), its verdicts on the nodes of {@code wanted}
     * (the command it would have started) saying why they stay: not "can't replace with a cheaper node", which is what the
     * decision without those pools' offerings finds, but the back-off, until when, and why.
     */
    private ConsolidationDecision heldBack(ConsolidationCommand wanted, ConsolidationDecision decided,
                                           java.util.function.Predicate<String> backingOff) {
        String pool = wanted.replacements().stream().map(r -> r.nodePool()).filter(backingOff).findFirst().orElseThrow();
        String why = "NodePool \"" + pool + "\" launches no consolidation replacement until "
                + consolidationBackoff.until(pool).map(Object::toString).orElse("later") + ": its last one failed";
        List<Verdict> verdicts = decided.verdicts().stream()
                .map(v -> wanted.nodes().contains(v.node())
                        && v.kind() == Verdict.Kind.Unconsolidatable
                        ? new Verdict(v.node(), v.kind(), why) : v).toList();
        return new ConsolidationDecision(decided.command(), verdicts, decided.simulations());
    }

    /**
     * The input with every offering of the pools backing off consolidation launches ({@link PoolBackoff#CONSOLIDATION})
     * unavailable: their candidates may still go where their pods fit, and nothing is launched in them. An offering's
     * price stays, so candidates are priced as before.
     */
    static ConsolidationInput launchingNothingIn(ConsolidationInput in, java.util.function.Predicate<String> backingOff) {
        if (in.pools().stream().noneMatch(p -> backingOff.test(p.pool().name()))) {
            return in;
        }
        List<SchedulingInput.PoolOffer> pools = in.pools().stream().map(p -> !backingOff.test(p.pool().name()) ? p
                : new SchedulingInput.PoolOffer(p.pool(), p.instanceTypes().stream().map(t -> t.withUnavailable(o -> true))
                        .toList(), p.usage(), p.nodeCount())).toList();
        return in.withPools(pools);
    }

    /**
     * While only drift commands are under way, another may start (Karpenter runs one drift command per pass, each
     * carried on by its queue while the next passes decide): within the pools' Drifted budgets, which count the
     * candidates of the commands under way as disrupting, and never beside a consolidation command.
     */
    ConsolidationReport decideDriftAlongside(ClusterSnapshot snap, List<NodeClaim> claims, List<Pod> headroom,
                                             Set<String> active, int podEvents, int resumed, Instant now) {
        List<String> drifted = drifted(notBackingOff(claims, snap, now), null);
        String busy = "command " + String.join(",", active) + " under way";
        boolean anyRecommended = snap.view().nodes().stream().anyMatch(dev.gantry.core.disruption.Rebalance::recommended);
        if (drifted.isEmpty() && !anyRecommended) {
            return new ConsolidationReport(0, 0, 0, null, busy, List.of(), podEvents, resumed, 0);
        }
        ConsolidationInput input = snap.input(offers.at(snap.view(), now), headroom, settings, now, null, active);
        ConsolidationReport byRebalance = rebalance(input, claims, podEvents, resumed, now);
        if (byRebalance != null || drifted.isEmpty()) {
            return byRebalance != null ? byRebalance
                    : new ConsolidationReport(0, 0, 0, null, busy, List.of(), podEvents, resumed, 0);
        }
        ConsolidationDecision d = DriftReplacement.decide(input, drifted);
        events.record(d.verdicts(), now);
        return d.command().isPresent() ? started(d, podEvents, resumed, 0, now)
                : new ConsolidationReport(d.verdicts().size(), 0, 0, null, busy, d.verdicts(), podEvents, resumed, 0);
    }

    /**
     * A rebalance command for a recommended node, started and reported; null when none is recommended (outside the
     * pools backing off rebalance, {@link PoolBackoff}) or none can be replaced now (their verdicts recorded). Rebalance goes before drift and consolidation: the node may be reclaimed
     * within minutes ({@link RebalanceReplacement}; Gantry's own, aws/karpenter-provider-aws#2813).
     */
    private ConsolidationReport rebalance(ConsolidationInput input, List<NodeClaim> claims, int podEvents, int resumed,
                                          Instant now) {
        java.util.function.Predicate<String> backingOff = rebalanceBackoff.at(now);
        java.util.Map<String, String> poolOf = new java.util.HashMap<>();
        claims.forEach(c -> poolOf.put(c.name(), c.nodePool() == null ? "" : c.nodePool()));
        List<String> recommended = recommended(input, claims, null).stream()
                .filter(name -> !backingOff.test(poolOf.getOrDefault(name, ""))).toList();
        if (recommended.isEmpty()) {
            return null;
        }
        ConsolidationDecision d = RebalanceReplacement.decide(input, recommended);
        if (d.command().isEmpty()) {
            events.record(d.verdicts(), now);
            return null;
        }
        return started(d, podEvents, resumed, 0, now);
    }

    /**
     * The claims whose node carries the rebalance-recommended label, by node name, not counting claims being deleted nor
     * those already in a command under way other than {@code ownCommand} (null: any). One recommendation delivered
     * twice labels the node twice: still one candidate, and once in a command, no second command.
     */
    static List<String> recommended(ConsolidationInput input, List<NodeClaim> claims, String ownCommand) {
        java.util.Map<String, NodeClaim> byName = new java.util.HashMap<>();
        claims.forEach(c -> byName.put(c.name(), c));
        return input.nodes().stream().filter(n -> n.managed() && dev.gantry.core.disruption.Rebalance.recommended(n.node()))
                .sorted(Comparator.comparing(ConsolidationInput.ClusterNode::name))
                .map(ConsolidationInput.ClusterNode::claim).filter(name -> {
                    NodeClaim c = byName.get(name);
                    return c != null && !c.state().isDeleting() && (c.consolidation() == null
                            || !c.consolidation().phase().active() || c.consolidation().command().equals(ownCommand));
                }).toList();
    }

    /** The claims whose pool is not backing off drift ({@link PoolBackoff}) and that the gate admits ({@link DriftGate}). */
    private List<NodeClaim> notBackingOff(List<NodeClaim> claims, ClusterSnapshot snap, Instant now) {
        java.util.function.Predicate<String> backingOff = backoff.at(now);
        java.util.function.Predicate<NodeClaim> admitted = gate.admits(claims, snap.view(), now);
        return claims.stream().filter(c -> c.drift() == null || !c.drift().isDrifted()
                || (!backingOff.test(c.nodePool()) && admitted.test(c))).toList();
    }

    /**
     * The drifted claims' names, oldest drifted first (Karpenter orders drift candidates by the Drifted condition's
     * last transition), not counting claims being deleted nor those already in a command under way other than
     * {@code ownCommand} (null: any).
     */
    static List<String> drifted(List<NodeClaim> claims, String ownCommand) {
        return claims.stream().filter(c -> c.drift() != null && c.drift().isDrifted() && !c.state().isDeleting())
                .filter(c -> c.consolidation() == null || !c.consolidation().phase().active()
                        || c.consolidation().command().equals(ownCommand))
                .sorted(Comparator.comparing((NodeClaim c) -> c.drift().driftedAt()).thenComparing(NodeClaim::name))
                .map(NodeClaim::name).toList();
    }

    /** Starts the command {@code d} found and reports it. */
    private ConsolidationReport started(ConsolidationDecision d, int podEvents, int resumed, long millis, Instant now) {
        int candidates = d.verdicts().size() + d.command().map(c -> c.nodes().size()).orElse(0);
        ConsolidationCommand cmd = d.command().get();
        String id = start.start(cmd, now);
        if (id == null) {
            return new ConsolidationReport(candidates, 0, 0, null, "a candidate changed while the command was written",
                    d.verdicts(), podEvents, resumed, millis);
        }
        String line = String.format("command %s (%s, %s): remove %s%s, $%.4f/h -> $%.4f/h", id, cmd.method(), cmd.decidedBy(),
                String.join(", ", cmd.nodes()), cmd.replacements().isEmpty() ? ""
                        : ", launch " + cmd.replacements().stream().map(r -> r.instanceType().name()).toList(),
                cmd.priceBefore(), cmd.priceAfter());
        journal.record("decided", id, line, cmd.savings());
        return new ConsolidationReport(candidates, 1, cmd.savings(), line, null, d.verdicts(), podEvents, resumed, millis);
    }
}
