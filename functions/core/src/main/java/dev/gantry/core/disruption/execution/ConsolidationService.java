package dev.gantry.core.disruption.execution;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Carries consolidation out, one idempotent step per call, over a shared {@link CommandStore}: the command's state on
 * its claims ({@link ConsolidationMark}) and its pace in termination-queue messages ({@link ConsolidationRequest}). This
 * class only dispatches; each step is a class of its own.
 * <ol>
 *   <li>{@link #sweep} (the scheduled sweep): {@link CommandUpkeep} cleans up and resumes commands,
 *       {@link PodEventRecorder} records pod events, and when no command is under way {@link SweepDecision} decides
 *       (emptiness, drift, then consolidation; while only drift commands are under way, another drift command may
 *       start within the Drifted budgets, which count theirs);
 *       {@link CommandStart} writes a command to its candidates (followers first, the leader last) and sends its
 *       validation message {@link #VALIDATION_DELAY} later.</li>
 *   <li>{@link #advance} switches on the leader's phase. Validating: {@link CommandValidation} re-reads the cluster,
 *       decides again on the command's nodes only, and aborts unless the same nodes go for no more than the planned
 *       price; then records the replacements (Launching claims the provisioner launches, nudged by a hint), writes the
 *       leader Launching, sends the next message, and taints the candidates {@code karpenter.sh/disrupted:NoSchedule}
 *       ({@link CandidateTaints}).</li>
 *   <li>Launching: {@link ReplacementWait} looks every {@link #POLL} until each replacement is initialized; then
 *       {@link HandOff} writes the leader Handed and hands each candidate to the termination flow (reason
 *       {@code empty}/{@code underutilized}). Handed: a redelivered hand-off message finishes it.</li>
 *   <li>A failed replacement, {@link #LAUNCH_TIMEOUT}, or a failed validation aborts ({@link CommandRelease}, for a
 *       {@link ConsolidationAbort} reason): candidates untainted and unmarked, replacements not yet initialized closed
 *       or terminated. Aborted: its messages are ignored. A failed or late replacement makes a pool back off
 *       ({@link PoolBackoff}): drift's or rebalance's pool that kind of command, a consolidation command's replacement
 *       pool its consolidation launches. The back-off is written after the abort: a crash between the two loses that
 *       one step of it (the next failure starts it again), never the abort.</li>
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
     * instant both tell it ({@link CommandStore#moveOn}). Count commands by id. The default logs; the simulator keeps a
     * timeline.
     */
    @FunctionalInterface
    public interface Journal {
        Journal LOG = (what, command, line, savings) -> System.getLogger(ConsolidationService.class.getName())
                .log(System.Logger.Level.INFO, "consolidation: " + what + ": " + line);

        void record(String what, String command, String line, double savingsPerHour);
    }

    private Journal journal = Journal.LOG;
    private Headroom headroom = Headroom.NONE;
    private final Clock clock;
    private final ClusterReader reader;
    private final CommandStore commands;
    private final PodEventRecorder podEvents;
    private final CommandUpkeep upkeep;
    private final SweepDecision decision;
    private final CommandValidation validation;
    private final ReplacementWait replacementWait;
    private final HandOff handOff;
    private final CommandRelease release;

    public ConsolidationService(ClusterReader reader, ClusterWriter writer, NodeClaimStore store, TerminationService termination,
                                ProvisioningHints hints, WorkQueue terminationQueue, Offers offers, Replacements replacements,
                                ConsolidationSettings settings, Clock clock) {
        ConsolidationSettings s = settings == null ? ConsolidationSettings.DEFAULT : settings;
        // The steps tell this service's journal and read its headroom as they are when they run (both set after).
        Journal told = (what, command, line, savings) -> journal.record(what, command, line, savings);
        Headroom buffers = now -> headroom.at(now);
        this.clock = clock;
        this.reader = reader;
        this.commands = new CommandStore(store, terminationQueue);
        CandidateTaints taints = new CandidateTaints(writer, commands);
        this.podEvents = new PodEventRecorder(store);
        PoolBackoff.Kinds backoffs = PoolBackoff.Kinds.over(store);
        this.release = new CommandRelease(commands, taints, termination, told, backoffs);
        this.handOff = new HandOff(commands, termination, told);
        this.upkeep = new CommandUpkeep(commands, release, handOff);
        this.decision = new SweepDecision(offers, s, new NodeEvents(writer, EVENT_EVERY), new CommandStart(commands), told,
                backoffs);
        this.validation = new CommandValidation(reader, commands, taints, release, hints, offers, replacements, s, buffers, told,
                backoffs.consolidation());
        this.replacementWait = new ReplacementWait(commands, taints, release, handOff);
    }

    /** Where progress is told (default {@link Journal#LOG}). */
    public ConsolidationService withJournal(Journal j) {
        this.journal = Objects.requireNonNull(j, "journal");
        return this;
    }

    /** What drift may start replacing beside the budgets and back-off: an AMI rollout's canary gate ({@link DriftGate}). */
    public ConsolidationService withDriftGate(DriftGate g) {
        decision.gate = java.util.Objects.requireNonNull(g, "gate");
        return this;
    }

    /**
     * The buffers validation keeps room for, as the sweep's decision did (default {@link Headroom#NONE}); the sweep
     * passes the headroom it read to {@link #sweep}.
     */
    public ConsolidationService withHeadroom(Headroom h) {
        this.headroom = Objects.requireNonNull(h, "headroom");
        return this;
    }

    /**
     * The sweep's consolidation step: command upkeep ({@link CommandUpkeep}), pod events ({@link PodEventRecorder}),
     * and, when no command is under way, a decision ({@link SweepDecision}). {@code headroom}: the buffers' virtual
     * pods, which must stay placeable.
     */
    public ConsolidationReport sweep(List<Pod> headroom) {
        Instant now = clock.instant();
        List<NodeClaim> claims = commands.list(now);
        ClusterSnapshot snap = ClusterSnapshot.read(reader, claims);
        int resumed = upkeep.run(claims, now);
        claims = commands.list(now);
        snap = new ClusterSnapshot(snap.view(), snap.pdbs(), claims);
        int recorded = podEvents.record(snap, now);
        Set<String> active = CommandStore.activeCommands(claims);
        if (!active.isEmpty()) {
            return CommandStore.onlyDrift(claims, active)
                    ? decision.decideDriftAlongside(snap, claims, headroom, active, recorded, resumed, now)
                    : new ConsolidationReport(0, 0, 0, null, "command " + String.join(",", active) + " under way", List.of(),
                    recorded, resumed, 0);
        }
        return decision.decide(snap, claims, headroom, active, recorded, resumed, now);
    }

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

    /**
     * The step the leader's phase calls for, or null to decide it again (the leader changed under it without moving
     * the command). A message for an earlier step is a duplicate, except the hand-off's own, delivered again.
     */
    private ConsolidationOutcome step(ConsolidationRequest r) {
        Instant now = clock.instant();
        Optional<NodeClaim> found = commands.get(r.claim(), now);
        ConsolidationMark m = found.map(NodeClaim::consolidation).orElse(null);
        if (m == null || !m.command().equals(r.command()) || !m.isLeader(r.claim())) {
            return ConsolidationOutcome.ignored(r.command(), "no such command on nodeclaim/" + r.claim());
        }
        NodeClaim leader = found.get();
        boolean duplicate = r.step() < m.step();
        return switch (m.phase()) {
            case Validating -> duplicate ? duplicate(r) : unlessOver(leader, m, now, () -> validation.run(leader, m, now));
            case Launching -> duplicate ? duplicate(r) : unlessOver(leader, m, now, () -> replacementWait.run(leader, m, now));
            case Handed -> r.step() + 1 >= m.step() ? handOff.finish(m, now) : duplicate(r);
            case Aborted -> duplicate ? duplicate(r) : ConsolidationOutcome.ignored(r.command(), "already " + m.phase());
        };
    }

    private static ConsolidationOutcome duplicate(ConsolidationRequest r) {
        return ConsolidationOutcome.ignored(r.command(), "duplicate of step " + r.step());
    }

    /** Aborts a command whose leader is being deleted or which is past {@link #COMMAND_TIMEOUT}; else runs its step. */
    private ConsolidationOutcome unlessOver(NodeClaim leader, ConsolidationMark m, Instant now, Supplier<ConsolidationOutcome> step) {
        if (leader.state().isDeleting()) {
            return release.abort(leader, m, ConsolidationAbort.candidateDeleting(leader.name()), now);
        }
        if (!now.isBefore(timeout(m))) {
            return release.abort(leader, m, ConsolidationAbort.timedOut(), now);
        }
        return step.get();
    }

    /** When a command gives up, whatever its step. */
    static Instant timeout(ConsolidationMark m) {
        return m.validateAt().plus(COMMAND_TIMEOUT);
    }
}
