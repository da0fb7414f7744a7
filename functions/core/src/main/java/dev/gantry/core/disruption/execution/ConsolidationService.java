package dev.gantry.core.disruption.execution;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Carries consolidation out, one idempotent step per call, the command's state on its claims
 * ({@link ConsolidationMark}) and its pace in termination-queue messages ({@link ConsolidationRequest}).
 * <ol>
 *   <li>{@link #sweep} (the scheduled sweep): records pod events, cleans up and resumes commands, and when none is under
 *       way decides; a command is written to its candidates (followers first, the leader last) and a validation
 *       message is sent {@link #VALIDATION_DELAY} later.</li>
 *   <li>Validation ({@link #advance}, phase Validating): re-reads the cluster, decides again on the command's nodes
 *       only, and aborts unless the same nodes go for no more than the planned price. Then records the replacements
 *       (Launching claims the provisioner launches, nudged by a hint), writes the leader Launching, sends the next
 *       message, and taints the candidates {@code karpenter.sh/disrupted:NoSchedule}.</li>
 *   <li>Launching: every {@link #POLL} until each replacement is initialized; then the leader is written Handed and
 *       each candidate handed to the termination flow (reason {@code empty}/{@code underutilized}); a failed replacement
 *       or {@link #LAUNCH_TIMEOUT} aborts: candidates untainted and unmarked, replacements not yet initialized closed or
 *       terminated.</li>
 * </ol>
 * Crash safety: the leader moves on with a conditional write before anything acts, and every action is idempotent,
 * so a redelivered message (or the sweep's resume of a command stalled {@link #STALLED_AFTER}) finishes the step; a
 * hand-off cut short (the leader Handed, some candidates not yet deleting) is finished by a redelivery or the sweep,
 * never aborted. A follower or replacement whose leader no longer carries its command (a crash between writes, an
 * aborted command) is cleaned up by the sweep. A leader write that loses is re-read, not assumed lost to another
 * delivery: the write may have taken effect (its answer lost), or lost to a write that does not move the command (a
 * pod event, NotReady), and then the step is decided again. Candidates are tainted only after the leader's write that
 * makes the command theirs, and looked at again after: a command aborted meanwhile has its taint taken back. A command
 * not over {@link #COMMAND_TIMEOUT} after its validation was due is aborted, whatever its step.
 */
public final class ConsolidationService {
    /** Karpenter's {@code commandValidationDelay}. */
    public static final Duration VALIDATION_DELAY = Duration.ofSeconds(15);
    /** How often a command waiting for its replacements looks again. */
    public static final Duration POLL = Duration.ofSeconds(10);
    /** How long replacements may take to initialize before the command gives up (Karpenter waits about as long). */
    public static final Duration LAUNCH_TIMEOUT = Duration.ofMinutes(10);
    /**
     * A command whose leader has not moved for this long lost its message: the sweep sends it again. As the drain's
     * ({@link dev.gantry.core.termination.TerminationService#STALLED_AFTER}): every step, each Launching poll included,
     * moves the leader on, so the longest healthy gap is a message's delay (at most {@link #VALIDATION_DELAY}) plus one
     * handler run (60 s); two minutes is well above it and gives two sweeps (a minute apart) the chance before a
     * command has stood still for four minutes, holding its candidates tainted.
     */
    public static final Duration STALLED_AFTER = Duration.ofMinutes(2);
    /**
     * Pod events written per sweep at most (one conditional write each): in a busy cluster the rest wait for a later
     * sweep, and meanwhile this sweep's decision counts them from now, so no node is consolidated early.
     */
    static final int MAX_POD_EVENT_WRITES = 200;
    /** The same event on the same node is recorded again only after this long (or when its message changes). */
    public static final Duration EVENT_EVERY = Duration.ofMinutes(15);
    /**
     * A command not over this long after its validation was due is aborted by its next message or the sweep, whatever
     * its step: a step that fails every time (a deterministic error) would otherwise be resent for ever, and while a
     * command is under way no other starts in the cluster. Karpenter gives a command 10 minutes from validation; this
     * is {@link #LAUNCH_TIMEOUT} plus room for a late validation (two stall resends) and one more step.
     */
    public static final Duration COMMAND_TIMEOUT = LAUNCH_TIMEOUT.plus(Duration.ofMinutes(5));
    /**
     * How long a decision that found nothing to do stands while its inputs are unchanged: Karpenter decides at least
     * this often, and an input the key misses (a clock-driven change, say) is seen within it.
     */
    public static final Duration QUIET_FOR = Duration.ofMinutes(5);
    /** Attempts at one step whose leader write keeps losing to writes that do not move the command. */
    static final int STEP_ATTEMPTS = 3;

    /** The pools as a provisioning run would plan with them now. */
    @FunctionalInterface
    public interface Offers {
        List<SchedulingInput.PoolOffer> at(ClusterView view, Instant now);
    }

    /** Records a replacement claim (Launching, marked from consolidation) under a name, or returns the one recorded. */
    @FunctionalInterface
    public interface Replacements {
        NodeClaim record(NodeClaimPlan plan, String name, Instant now);
    }

    /**
     * Where the command's progress is told: {@code what} is decided, validated, handed or aborted, {@code command} the
     * command's id, {@code line} says which nodes and why, {@code savingsPerHour} the planned saving. Told by the
     * delivery whose leader write took the command there, so once per command and {@code what}, except: two deliveries
     * that both find a dead leader may both tell its abort, and two that write the very same mark at the very same
     * instant both tell it ({@link #moveOn}). Count commands by id. The default logs; the simulator keeps a timeline.
     */
    @FunctionalInterface
    public interface Journal {
        Journal LOG = (what, command, line, savings) -> System.getLogger(ConsolidationService.class.getName())
                .log(System.Logger.Level.INFO, "consolidation: " + what + ": " + line);

        void record(String what, String command, String line, double savingsPerHour);
    }

    /** What a conditional write of the leader's next mark came to. */
    private enum Write {
        /** Written (or our own write took effect and only its answer was lost). */
        DONE,
        /** Another delivery moved the command on: it carries the command. */
        MOVED_ON,
        /** A write that does not move the command got in first: decide the step again on what the leader is now. */
        AGAIN
    }

    private Journal journal = Journal.LOG;
    private dev.gantry.core.headroom.Headroom headroom = dev.gantry.core.headroom.Headroom.NONE;
    private final ClusterReader reader;
    private final ClusterWriter writer;
    private final NodeClaimStore store;
    private final TerminationService termination;
    private final ProvisioningHints hints;
    private final WorkQueue queue;
    private final Offers offers;
    private final Replacements replacements;
    private final ConsolidationSettings settings;
    private final Clock clock;
    private final NodeEvents events;
    /** The input key of the last decision that found nothing to do (per function instance), and its candidate count. */
    private String quietKey;
    private Instant quietAt;
    private int quietCandidates;

    public ConsolidationService(ClusterReader reader, ClusterWriter writer, NodeClaimStore store, TerminationService termination,
                                ProvisioningHints hints, WorkQueue terminationQueue, Offers offers, Replacements replacements,
                                ConsolidationSettings settings, Clock clock) {
        this.reader = reader;
        this.writer = writer;
        this.store = store;
        this.termination = termination;
        this.hints = hints;
        this.queue = terminationQueue;
        this.offers = offers;
        this.replacements = replacements;
        this.settings = settings == null ? ConsolidationSettings.DEFAULT : settings;
        this.clock = clock;
        this.events = new NodeEvents(writer, EVENT_EVERY);
    }

    /** Where progress is told (default {@link Journal#LOG}). */
    public ConsolidationService withJournal(Journal j) {
        this.journal = java.util.Objects.requireNonNull(j, "journal");
        return this;
    }

    /**
     * The buffers validation keeps room for, as the sweep's decision did (default
     * {@link dev.gantry.core.headroom.Headroom#NONE}); the sweep passes the headroom it read to {@link #sweep}.
     */
    public ConsolidationService withHeadroom(dev.gantry.core.headroom.Headroom h) {
        this.headroom = java.util.Objects.requireNonNull(h, "headroom");
        return this;
    }

    // ---------------------------------------------------------------- the sweep's step

    /**
     * The sweep's consolidation step. {@code headroom}: the buffers' virtual pods, which must stay placeable.
     */
    public ConsolidationReport sweep(List<Pod> headroom) {
        Instant now = clock.instant();
        List<NodeClaim> claims = store.list(now);
        ClusterSnapshot snap = ClusterSnapshot.read(reader, claims);
        int resumed = tidy(claims, now);
        claims = store.list(now);
        snap = new ClusterSnapshot(snap.view(), snap.pdbs(), claims);
        int podEvents = recordPodEvents(snap, now);
        Set<String> active = activeCommands(claims);
        if (!active.isEmpty()) {
            return new ConsolidationReport(0, 0, 0, null, "command " + String.join(",", active) + " under way", List.of(),
                    podEvents, resumed, 0);
        }
        ConsolidationInput input = snap.input(offers.at(snap.view(), now), headroom, settings, now, null, active);
        String key = DecisionKey.of(input);
        if (key.equals(quietKey) && now.isBefore(quietAt.plus(QUIET_FOR))) {
            return new ConsolidationReport(quietCandidates, 0, 0, null, "nothing changed since the last decision", List.of(),
                    podEvents, resumed, 0);
        }
        long t0 = System.nanoTime();
        ConsolidationDecision d = Consolidation.decide(input);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        events.record(d.verdicts(), now);
        int candidates = d.verdicts().size() + d.command().map(c -> c.nodes().size()).orElse(0);
        if (d.command().isEmpty()) {
            quietKey = key;
            quietAt = now;
            quietCandidates = candidates;
            return new ConsolidationReport(candidates, 0, 0, null, null, d.verdicts(), podEvents, resumed, millis);
        }
        quietKey = null;
        ConsolidationCommand cmd = d.command().get();
        String id = start(cmd, now);
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

    /** Writes the command on its candidates (followers first, the leader last) and sends the validation message. */
    private String start(ConsolidationCommand cmd, Instant now) {
        String id = "c-" + Long.toString(now.toEpochMilli(), 36);
        List<String> claims = cmd.claims();
        String leader = claims.getFirst();
        ConsolidationMark mark = new ConsolidationMark(id, leader, Phase.Validating, 0, claims, cmd.nodes(), List.of(),
                reason(cmd.reason()), cmd.priceBefore(), cmd.priceAfter(), now.plus(VALIDATION_DELAY),
                now.plus(VALIDATION_DELAY).plus(LAUNCH_TIMEOUT), now);
        for (int i = claims.size() - 1; i >= 0; i--) {
            Optional<NodeClaim> c = store.get(claims.get(i), now);
            if (c.isEmpty() || c.get().state().isDeleting()) {
                return null;
            }
            try {
                store.update(c.get().withConsolidation(mark));
            } catch (NodeClaimStore.Conflict lost) {
                return null; // the followers written are cleaned up by the next sweep (their leader has no mark)
            }
        }
        queue.send(new ConsolidationRequest(leader, id, 0).toJson(), null, null, VALIDATION_DELAY);
        return id;
    }

    private static String reason(NodePool.Reason r) {
        return r == NodePool.Reason.Empty ? "empty" : "underutilized";
    }

    /** Karpenter's {@code lastPodEventTime}: a claim whose node's pods changed since the last sweep records now. */
    private int recordPodEvents(ClusterSnapshot snap, Instant now) {
        Map<String, List<Pod>> byNode = snap.podsByNode();
        int changed = 0;
        for (Node n : snap.view().nodes()) {
            Optional<NodeClaim> c = snap.claimOf(n);
            if (c.isEmpty() || c.get().state().isDeleting()) {
                continue;
            }
            String fp = PodEvents.fingerprint(byNode.getOrDefault(n.name(), List.of()));
            if (PodEvents.changed(c.get().podSet(), fp)) {
                snap.podEventNow(c.get().name());
                if (changed >= MAX_POD_EVENT_WRITES) {
                    continue; // this decision still counts the event from now; a later sweep records it
                }
                try {
                    store.update(c.get().podEvent(now, fp));
                    changed++;
                } catch (NodeClaimStore.Conflict lost) {
                    // changed meanwhile: the next sweep looks again
                }
            }
        }
        return changed;
    }

    /** The commands under way, by id: those whose leader is not deleting and carries an active phase. */
    static Set<String> activeCommands(List<NodeClaim> claims) {
        Set<String> out = new HashSet<>();
        for (NodeClaim c : claims) {
            ConsolidationMark m = c.consolidation();
            if (m != null && m.isLeader(c.name()) && m.phase().active() && !c.state().isDeleting()) {
                out.add(m.command());
            }
        }
        return out;
    }

    /** The commands handing over, by id: those whose leader carries phase Handed (its candidates are, or go, deleting). */
    static Set<String> handingCommands(List<NodeClaim> claims) {
        Set<String> out = new HashSet<>();
        for (NodeClaim c : claims) {
            ConsolidationMark m = c.consolidation();
            if (m != null && m.isLeader(c.name()) && m.phase() == Phase.Handed) {
                out.add(m.command());
            }
        }
        return out;
    }

    /**
     * Resumes commands whose leader stalled, aborts those past {@link #COMMAND_TIMEOUT}, finishes hand-offs cut short,
     * and cleans up claims whose command is over or never started (a follower written before a crash, the candidates
     * and replacements of an aborted command). Returns how many it touched. A claim whose clean-up fails is left for
     * the next sweep and does not stop the others, nor the decision.
     */
    private int tidy(List<NodeClaim> claims, Instant now) {
        Set<String> active = activeCommands(claims);
        Set<String> handing = handingCommands(claims);
        int touched = 0;
        for (NodeClaim c : claims) {
            ConsolidationMark m = c.consolidation();
            if (m == null) {
                continue;
            }
            try {
                if (m.isLeader(c.name()) && active.contains(m.command())) {
                    if (!now.isBefore(timeout(m))) {
                        abort(c, m, "not over within " + COMMAND_TIMEOUT.toMinutes() + "m of its validation", now);
                        touched++;
                    } else if (!now.isBefore(m.updatedAt().plus(STALLED_AFTER))) {
                        queue.send(new ConsolidationRequest(c.name(), m.command(), m.step()).toJson(), null, null, Duration.ZERO);
                        touched++;
                    }
                } else if (c.state().isDeleting()) {
                    continue; // the termination flow's
                } else if (handing.contains(m.command())) {
                    handOver(c, m);
                    touched++;
                } else if (!active.contains(m.command())) {
                    release(c, m, now);
                    touched++;
                }
            } catch (RuntimeException e) {
                System.getLogger(ConsolidationService.class.getName()).log(System.Logger.Level.WARNING,
                        "consolidation: nodeclaim/" + c.name() + " of command " + m.command() + " left for the next sweep: " + e);
            }
        }
        return touched;
    }

    /** When a command gives up, whatever its step. */
    private static Instant timeout(ConsolidationMark m) {
        return m.validateAt().plus(COMMAND_TIMEOUT);
    }

    // ---------------------------------------------------------------- the messages

    /**
     * One step of a command, for its termination-queue message. A step whose leader write keeps losing to writes that
     * do not move the command is decided again, {@link #STEP_ATTEMPTS} times at most; then {@link NodeClaimStore.Conflict}
     * is thrown and the message comes back.
     */
    public ConsolidationOutcome advance(ConsolidationRequest r) {
        for (int attempt = 1; ; attempt++) {
            ConsolidationOutcome o = step(r);
            if (o != null) {
                return o;
            }
            if (attempt == STEP_ATTEMPTS) {
                throw new NodeClaimStore.Conflict("nodeclaim " + r.claim() + " kept changing under command " + r.command());
            }
        }
    }

    /** The step, or null to decide it again (the leader changed under it without moving the command). */
    private ConsolidationOutcome step(ConsolidationRequest r) {
        Instant now = clock.instant();
        Optional<NodeClaim> found = store.get(r.claim(), now);
        ConsolidationMark m = found.map(NodeClaim::consolidation).orElse(null);
        if (m == null || !m.command().equals(r.command()) || !m.isLeader(r.claim())) {
            return ConsolidationOutcome.ignored(r.command(), "no such command on nodeclaim/" + r.claim());
        }
        if (m.phase() == Phase.Handed && r.step() + 1 >= m.step()) {
            // The hand-off's own message, delivered again: a crash may have cut the hand-off short; finish it.
            for (String name : m.candidates()) {
                store.get(name, now).filter(c -> !c.state().isDeleting() && c.consolidation() != null
                        && c.consolidation().command().equals(m.command())).ifPresent(c -> handOver(c, m));
            }
            for (String name : m.replacements()) {
                unmark(name, m.command(), now);
            }
            return ConsolidationOutcome.ignored(r.command(), "hand-off of " + m.nodes() + " finished");
        }
        if (r.step() < m.step()) {
            return ConsolidationOutcome.ignored(r.command(), "duplicate of step " + r.step());
        }
        if (!m.phase().active()) {
            return ConsolidationOutcome.ignored(r.command(), "already " + m.phase());
        }
        if (found.get().state().isDeleting()) {
            return abort(found.get(), m, "candidate nodeclaim/" + r.claim() + " is being deleted", now);
        }
        if (!now.isBefore(timeout(m))) {
            return abort(found.get(), m, "not over within " + COMMAND_TIMEOUT.toMinutes() + "m of its validation", now);
        }
        return m.phase() == Phase.Validating ? validate(found.get(), m, now) : launching(found.get(), m, now);
    }

    private ConsolidationOutcome validate(NodeClaim leader, ConsolidationMark m, Instant now) {
        if (now.isBefore(m.validateAt())) {
            queue.send(new ConsolidationRequest(leader.name(), m.command(), m.step()).toJson(), null, null,
                    Duration.between(now, m.validateAt()));
            return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.WAITING, "validation not due yet", 0);
        }
        List<NodeClaim> claims = store.list(now);
        Set<String> active = activeCommands(claims);
        for (String name : m.candidates()) {
            NodeClaim c = claims.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
            if (c == null || c.state().isDeleting() || c.consolidation() == null || !c.consolidation().command().equals(m.command())) {
                return abort(leader, m, "candidate nodeclaim/" + name + " changed", now);
            }
        }
        List<Pod> buffers;
        try {
            buffers = headroom.at(now).virtualPods();
        } catch (RuntimeException e) {
            // As the sweep, which consolidates no node when it cannot see the buffers.
            return abort(leader, m, "validation failed: the buffers could not be read (" + e.getClass().getSimpleName() + ")", now);
        }
        ClusterSnapshot snap = ClusterSnapshot.read(reader, claims);
        ConsolidationInput input = snap.input(offers.at(snap.view(), now), buffers, settings, now, m.command(), active)
                .restrictedTo(Set.copyOf(m.nodes()));
        Optional<ConsolidationCommand> again = Consolidation.decide(input).command();
        String why = again.isEmpty() ? "no longer worth it (pods or budgets changed)"
                : !Set.copyOf(again.get().nodes()).equals(Set.copyOf(m.nodes())) ? "other nodes would go now: " + again.get().nodes()
                : again.get().priceAfter() > m.plannedPrice() + 1e-9
                        ? String.format("the replacement now costs $%.4f/h, more than the planned $%.4f/h", again.get().priceAfter(), m.plannedPrice())
                        : null;
        if (why != null) {
            return abort(leader, m, "validation failed: " + why, now);
        }
        ConsolidationCommand cmd = again.get();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < cmd.replacements().size(); i++) {
            NodeClaim recorded = replacements.record(cmd.replacements().get(i), m.command() + "-r" + i, now);
            names.add(recorded.name());
        }
        ConsolidationMark next = m.next(Phase.Launching, names, now.plus(LAUNCH_TIMEOUT), now);
        for (String name : names) {
            mark(name, next, now);
        }
        Write w = moveOn(leader, m, next, now);
        if (w != Write.DONE) {
            return w == Write.AGAIN ? null : ConsolidationOutcome.ignored(m.command(), "the leader moved on meanwhile");
        }
        queue.send(new ConsolidationRequest(leader.name(), m.command(), next.step()).toJson(), null, null,
                names.isEmpty() ? Duration.ZERO : POLL);
        taintWhileActive(m, now);
        if (!names.isEmpty()) {
            hints.send(ProvisioningHints.REPLACEMENT, null, m.nodes().getFirst(), now);
        }
        journal.record("validated", m.command(), "command " + m.command() + ": " + m.nodes() + " tainted"
                + (names.isEmpty() ? "" : ", replacements " + names + " recorded"), m.priceBefore() - m.plannedPrice());
        return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.LAUNCHING,
                "validated; " + (names.isEmpty() ? "deleting " : "launching " + names + " to replace ") + m.nodes(), 0);
    }

    private ConsolidationOutcome launching(NodeClaim leader, ConsolidationMark m, Instant now) {
        boolean waiting = false;
        for (String name : m.replacements()) {
            Optional<NodeClaim> r = store.get(name, now);
            if (r.isEmpty() || r.get().state().isDeleting()) {
                return abort(leader, m, "replacement nodeclaim/" + name + " failed"
                        + r.map(c -> " (" + c.deletionReason() + ")").orElse(""), now);
            }
            waiting |= r.get().state().isBefore(NodeClaimState.Initialized);
        }
        if (waiting) {
            if (!now.isBefore(m.deadline())) {
                return abort(leader, m, "replacements not initialized within " + LAUNCH_TIMEOUT.toMinutes() + "m", now);
            }
            ConsolidationMark next = m.next(Phase.Launching, m.replacements(), m.deadline(), now);
            Write w = moveOn(leader, m, next, now);
            if (w != Write.DONE) {
                return w == Write.AGAIN ? null : ConsolidationOutcome.ignored(m.command(), "the leader moved on meanwhile");
            }
            queue.send(new ConsolidationRequest(leader.name(), m.command(), next.step()).toJson(), null, null, POLL);
            taintWhileActive(m, now); // again: a crash may have come between validation's leader write and its taint
            return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.WAITING, "waiting for " + m.replacements(), 0);
        }
        // Every replacement is up. The leader says Handed first: from then on a redelivery or the sweep finishes the
        // hand-off (a crash between two candidates' hand-overs must not abort and keep the rest beside the replacement).
        Write w = moveOn(leader, m, m.next(Phase.Handed, m.replacements(), m.deadline(), now), now);
        if (w != Write.DONE) {
            return w == Write.AGAIN ? null : ConsolidationOutcome.ignored(m.command(), "the leader moved on meanwhile");
        }
        for (String name : m.candidates()) {
            termination.start(name, m.reason(), null, false, false); // a started flow is left alone
        }
        for (String name : m.replacements()) {
            unmark(name, m.command(), now);
        }
        journal.record("handed", m.command(), "command " + m.command() + ": " + m.nodes() + " to the termination flow ("
                + m.reason() + ")" + (m.replacements().isEmpty() ? "" : ", replaced by " + m.replacements()),
                m.priceBefore() - m.plannedPrice());
        return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.HANDED,
                m.reason() + ": " + m.nodes() + (m.replacements().isEmpty() ? "" : " replaced by " + m.replacements()),
                m.priceBefore() - m.plannedPrice());
    }

    /** One claim of a command handing over: a candidate goes to the termination flow, a replacement is unmarked. */
    private void handOver(NodeClaim c, ConsolidationMark m) {
        if (m.candidates().contains(c.name())) {
            termination.start(c.name(), m.reason(), null, false, false);
        } else {
            update(c.withConsolidation(null));
        }
    }

    /**
     * Writes the leader's next mark. On a conflict it re-reads rather than assumes: the mark as written means our own
     * write took effect and only its answer was lost; another mark, that another delivery moved the command on; the
     * same mark, that a write which does not move the command (a pod event, NotReady, a flow starting) got in first.
     * A twin delivery that wrote the very same mark (same step, same instant: common in virtual time, not with a
     * microsecond clock) cannot be told from our own write: both carry on, which is safe, as every effect after the
     * write is idempotent.
     */
    private Write moveOn(NodeClaim leader, ConsolidationMark m, ConsolidationMark next, Instant now) {
        try {
            store.update(leader.withConsolidation(next));
            return Write.DONE;
        } catch (NodeClaimStore.Conflict lost) {
            ConsolidationMark fresh = store.get(leader.name(), now).map(NodeClaim::consolidation).orElse(null);
            if (next.equals(fresh)) {
                return Write.DONE;
            }
            return m.equals(fresh) ? Write.AGAIN : Write.MOVED_ON;
        }
    }

    /**
     * Taints the command's candidates, then looks at the leader again: a delivery that aborted the command meanwhile
     * untainted them before this taint landed, so the taint is taken back (from candidates not being deleted).
     */
    private void taintWhileActive(ConsolidationMark m, Instant now) {
        taint(m.nodes(), true);
        ConsolidationMark fresh = store.get(m.leader(), now).map(NodeClaim::consolidation).orElse(null);
        if (fresh != null && fresh.command().equals(m.command()) && fresh.phase() != Phase.Aborted) {
            return;
        }
        for (int i = 0; i < m.candidates().size(); i++) {
            String node = m.nodes().get(i);
            store.get(m.candidates().get(i), now).filter(c -> !c.state().isDeleting()).ifPresent(c -> taint(List.of(node), false));
        }
    }

    /**
     * Gives the command up: the leader says so first, then every other claim is released, the leader last. Null when
     * the leader changed under it without moving the command (decide again).
     */
    private ConsolidationOutcome abort(NodeClaim leader, ConsolidationMark m, String why, Instant now) {
        ConsolidationMark aborted = m.next(Phase.Aborted, m.replacements(), m.deadline(), now);
        if (!leader.state().isDeleting()) {
            Write w = moveOn(leader, m, aborted, now);
            if (w != Write.DONE) {
                return w == Write.AGAIN ? null : ConsolidationOutcome.ignored(m.command(), "the leader moved on meanwhile");
            }
            leader = store.get(leader.name(), now).orElse(leader.withConsolidation(aborted));
        }
        List<String> others = new ArrayList<>(m.candidates());
        others.addAll(m.replacements());
        for (String name : others) {
            if (!name.equals(leader.name())) {
                store.get(name, now).ifPresent(c -> {
                    if (c.consolidation() != null && c.consolidation().command().equals(m.command())) {
                        release(c, c.consolidation(), now);
                    }
                });
            }
        }
        release(leader, aborted, now);
        journal.record("aborted", m.command(), "command " + m.command() + " (" + m.nodes() + "): " + why, 0);
        return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.ABORTED, why, 0);
    }

    /**
     * Frees one claim from a command that is over: a candidate is untainted (unless it is being deleted) and unmarked; a
     * replacement not yet initialized is closed (never launched) or sent to termination, an initialized one kept.
     */
    private void release(NodeClaim c, ConsolidationMark m, Instant now) {
        boolean replacement = m.replacements().contains(c.name()) || (!m.candidates().contains(c.name()) && c.fromConsolidation());
        if (replacement && c.state().isBefore(NodeClaimState.Initialized) && !c.state().isDeleting()) {
            if (c.state() == NodeClaimState.Launching) {
                update(c.withConsolidation(null).draining("consolidation-aborted", now).terminated(now, TerminationService.RETENTION));
            } else {
                termination.start(c.name(), "consolidation-aborted", null, false, false);
            }
            return;
        }
        if (c.state().isDeleting()) {
            return; // the termination flow's now
        }
        if (!replacement && c.nodeName() != null) {
            taint(List.of(c.nodeName()), false);
        }
        update(c.withConsolidation(null));
    }

    private void mark(String name, ConsolidationMark mark, Instant now) {
        store.get(name, now).ifPresent(c -> update(c.withConsolidation(mark)));
    }

    private void unmark(String name, String command, Instant now) {
        store.get(name, now).filter(c -> c.consolidation() != null && c.consolidation().command().equals(command))
                .ifPresent(c -> update(c.withConsolidation(null)));
    }

    private void update(NodeClaim c) {
        try {
            store.update(c);
        } catch (NodeClaimStore.Conflict lost) {
            // moved on meanwhile: the sweep's tidy-up looks again
        }
    }

    private void taint(List<String> nodes, boolean on) {
        NodePatch p = on ? new NodePatch(null, List.of(Taint.DISRUPTED), null, null, null, null)
                : new NodePatch(null, null, List.of(Taint.DISRUPTED.key()), null, null, null);
        for (String n : nodes) {
            try {
                writer.patchNode(n, p);
            } catch (ClusterException e) {
                if (!e.notFound()) {
                    throw e;
                }
            }
        }
    }
}
