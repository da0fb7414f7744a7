package dev.gantry.simulator.observe;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.core.model.Pod;
import dev.gantry.simulator.world.kube.PodListener;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the simulation measured: pod latencies, launches and terminations, cost, interruptions, a timeline of
 * decisions and a time series for the charts. Only the simulation's observers write to it.
 */
public final class Recorder implements PodListener {
    /** One line of the decision timeline, {@code t} in seconds from the start. */
    public record Entry(long t, String kind, String text) {
    }

    /** One point of the charts. */
    public record Sample(long t, Map<String, Integer> nodesByType, int pending, double perHour) {
    }

    static final int MAX_TIMELINE = 2_000;

    private Instant start;
    final List<Entry> timeline = new ArrayList<>();
    /**
     * What a drift rollout is told from (scenario changes, drift marks, drifted terminations), kept whole: the timeline
     * stops at {@link #MAX_TIMELINE}, and a 200-node rollout's marks alone would push its last terminations past it.
     */
    private final List<Entry> driftTimeline = new ArrayList<>();
    final List<Sample> samples = new ArrayList<>();
    int timelineDropped;

    int podsCreated;
    final List<Double> reaction = new ArrayList<>();
    private final Map<String, Instant> unschedulableSince = new HashMap<>();

    int launched;
    int terminated;
    int peakNodes;
    final Map<String, Integer> terminatedByReason = new LinkedHashMap<>();
    private final CostByCapacityType costByCapacityType;
    /** Cost and its two bounds, integrated over the run. */
    private final CostIntegral costs;
    /** Each pod's time to schedule. */
    private final SchedulingTimes times;
    private final SpotSplitDrift spotSplitDrift = new SpotSplitDrift();

    int interruptionsReceived;
    /** Spot warnings whose two minutes ran out (EC2 reclaimed the instance): what the two figures below are out of. */
    int reclaimed;
    int drainedBeforeDeadline;
    int replacementReadyBeforeDeadline;
    int evictions;
    /** Evicted pods and their successors: how many waited for capacity ({@link Evictions}). */
    final Evictions evicted = new Evictions();
    /** Told of every eviction whose successor waited for capacity (the invariant judges it). */
    java.util.function.Consumer<Evictions.Eviction> onEvictionWaited = e -> { };
    /** Nodes that ran a real pod or held capacity asked for without pods: the others were wasted launches. */
    private final Set<String> servedNodes = new HashSet<>();
    /** Gantry's instances that ended without their node ever running a real pod or holding a buffer chunk. */
    int wastedLaunches;
    final List<String> wastedExamples = new ArrayList<>();
    final List<long[]> recoveries = new ArrayList<>();
    /** Configuration changes (GitOps events) and Gantry's reactions to them. */
    private final ConfigReactions configReactions = new ConfigReactions();

    /**
     * Consolidation commands by what became of them (decided, validated, handed, aborted), each command counted once
     * per outcome: two deliveries that both tell one (an overlap, a redelivery) are one command.
     */
    final Map<String, Integer> consolidation = new LinkedHashMap<>();
    private final java.util.Set<String> consolidationTold = new java.util.HashSet<>();
    double consolidationSavingsPerHour;

    public Recorder(Instant start) {
        this.start = start;
        this.costs = new CostIntegral(start);
        this.times = new SchedulingTimes(this::secondsSinceStart);
        this.costByCapacityType = new CostByCapacityType(start);
        for (String w : List.of("decided", "validated", "handed", "aborted")) {
            consolidation.put(w, 0);
        }
        for (String r : List.of("interruption", "emptiness", "underutilized", "liveness", "gc", "deleted")) {
            terminatedByReason.put(r, 0);
        }
    }

    /** Starts at {@code t} instead (before anything is recorded). */
    public void restart(Instant t) {
        this.start = t;
        costs.restart(t);
        costByCapacityType.restart(t);
    }

    /** Pods created in {@code [from, until)} also count in {@link #rampTimeToSchedule}. */
    public void ramp(Instant from, Instant until) {
        times.ramp(from, until);
    }

    /** A consolidation command's progress: counted (once per command and outcome), and on the timeline. */
    public void consolidation(Instant at, String what, String command, String line, double savingsPerHour) {
        if (consolidationTold.add(what + " " + command)) {
            consolidation.merge(what, 1, Integer::sum);
            if (what.equals("handed")) {
                consolidationSavingsPerHour += savingsPerHour;
            }
        }
        log(at, "consolidation", what + ": " + line);
    }

    public long secondsSinceStart(Instant t) {
        return Duration.between(start, t).toSeconds();
    }

    public ConfigReactions configReactions() {
        return configReactions;
    }

    /** A NodePool or NodeClass was written to the cluster ({@code Kind/name}). */
    public void configWritten(Instant at, String object, boolean deleted) {
        configReactions.written(at, object, deleted);
    }

    /** A run built its services over a configuration read from the cluster. */
    public void configInUse(Instant at, dev.gantry.core.config.ClusterConfig c) {
        configReactions.used(at, c);
        log(at, "config", "services built over " + c.config().nodePools().size() + " NodePools"
                + (c.invalid().isEmpty() ? "" : ", left out: " + c.invalid().keySet()));
    }

    public void log(Instant at, String kind, String text) {
        if (kind.equals("scenario") || kind.equals("drift") || (kind.equals("terminate") && text.contains("(drifted"))) {
            driftTimeline.add(new Entry(secondsSinceStart(at), kind, text));
        }
        if (timeline.size() < MAX_TIMELINE) {
            timeline.add(new Entry(secondsSinceStart(at), kind, text));
        } else {
            timelineDropped++;
        }
    }

    /** Told of every pod created pending (the placement invariant watches it). */
    private java.util.function.Consumer<Pod> onCreatedPending = p -> { };

    /** Tells {@code watcher} of every pod created pending (the placement invariant watches it). */
    public void onCreatedPending(java.util.function.Consumer<Pod> watcher) {
        this.onCreatedPending = watcher;
    }

    @Override
    public void podCreated(Pod p) {
        podsCreated++;
        evicted.created(p);
        if (!p.isBound()) {
            onCreatedPending.accept(p);
        }
        times.created(p);
    }

    @Override
    public void podBound(Pod p, String node, Instant now) {
        evicted.gone(p);
        if (!p.isDaemon() && !p.isMirror()) {
            servedNodes.add(node);
        }
        times.bound(p, now);
        unschedulableSince.remove(p.key());
    }

    @Override
    public void podUnschedulable(Pod p, Instant now) {
        unschedulableSince.putIfAbsent(p.key(), now);
        evicted.unschedulable(p).ifPresent(onEvictionWaited);
    }

    @Override
    public void podDeleted(Pod p) {
        unschedulableSince.remove(p.key());
        evicted.gone(p);
    }

    /** The node holds capacity asked for without pods: a buffer's (the headroom it asked for), or a static NodePool's. */
    void nodeServed(String node) {
        servedNodes.add(node);
    }

    /**
     * One of Gantry's instances ended: a wasted launch when its node ({@code node}, its DNS name) never ran a real pod
     * nor held a buffer chunk or a static NodePool's count.
     */
    void instanceEnded(String instanceId, String node, Instant launchedAt, Instant now) {
        if (!servedNodes.contains(node)) {
            wastedLaunches++;
            log(now, "wasted", instanceId + " ended without running a pod or holding a buffer chunk");
            if (wastedExamples.size() < 10) {
                wastedExamples.add(instanceId + " (launched at t=" + VirtualClock.format(secondsSinceStart(launchedAt))
                        + ", ended at t=" + VirtualClock.format(secondsSinceStart(now)) + ")");
            }
        }
    }

    /** A launch for these pods: each one that was waiting records how long it waited for it. */
    void launched(Instant now, List<String> podKeys) {
        launched++;
        for (String k : podKeys) {
            Instant since = unschedulableSince.remove(k);
            if (since != null) {
                reaction.add(Duration.between(since, now).toMillis() / 1000.0);
            }
        }
    }

    /** Evictions whose successor waited for capacity ({@link Evictions}). */
    public int evictionsWaited() {
        return evicted.waited;
    }

    /** The same, by the evicted pod's node's claim's deletion reason. */
    public Map<String, Integer> evictionsWaitedByReason() {
        return evicted.waitedByReason;
    }

    /** The spot storm's pod moves, for rebalance on versus off ({@link RebalanceTally}). */
    public RebalanceTally rebalance() {
        return evicted.tally;
    }

    /** An interruption event reached the interruption queue. */
    public void interruptionReceived() {
        interruptionsReceived++;
    }

    /** EC2 reclaimed a warned spot instance at the end of its two minutes. */
    public void spotReclaimed() {
        reclaimed++;
    }

    /** A reclaimed instance's node was drained by its deadline. */
    public void drainedInTime() {
        drainedBeforeDeadline++;
    }

    /** A reclaimed instance's pods were running elsewhere by its deadline. */
    public void replacedInTime() {
        replacementReadyBeforeDeadline++;
    }

    void ended(String reason) {
        terminated++;
        terminatedByReason.merge(reason, 1, Integer::sum);
    }

    /** Integrates cost up to {@code now} at the rates in force, then sets the new rates. */
    void rates(Instant now, double newPerHour, double newLowerBoundPerHour, double newPackingBoundPerHour, int nodes) {
        costs.rates(now, newPerHour, newLowerBoundPerHour, newPackingBoundPerHour);
        peakNodes = Math.max(peakNodes, nodes);
    }

    public double perHour() {
        return costs.perHour();
    }

    /** The cost split by capacity type; its parts sum to {@link #cost()}. */
    public CostByCapacityType costByCapacityType() {
        return costByCapacityType;
    }

    /** How far each split pool's spot share drifted from its target ({@link Checks} steps it). */
    public SpotSplitDrift spotSplitDrift() {
        return spotSplitDrift;
    }

    /** Integrates the split up to {@code now}, then sets its rates ($/h by capacity type); called with {@link #rates}. */
    void capacityTypeRates(Instant now, Map<String, Double> rates) {
        costByCapacityType.rates(now, rates);
    }

    void sample(Instant now, Map<String, Integer> nodesByType, int pending) {
        samples.add(new Sample(secondsSinceStart(now), new TreeMap<>(nodesByType), pending, costs.perHour()));
    }

    public List<Double> rampTimeToSchedule() {
        return times.ramp();
    }

    /** The scenario changes, drift marks and drifted terminations of the whole run, never cut short. */
    public List<Entry> driftTimeline() {
        return java.util.Collections.unmodifiableList(driftTimeline);
    }

    public List<Entry> timeline() {
        return timeline;
    }

    public List<Sample> samples() {
        return samples;
    }

    public int timelineDropped() {
        return timelineDropped;
    }

    public int podsCreated() {
        return podsCreated;
    }

    public int podsScheduled() {
        return times.scheduled();
    }

    public List<Double> timeToSchedule() {
        return times.all();
    }

    /** The time to schedule of the pods created at or after {@code t} seconds from the start. */
    public List<Double> timeToScheduleFrom(long t) {
        return times.from(t);
    }

    public List<Double> reaction() {
        return reaction;
    }

    public int launched() {
        return launched;
    }

    public int terminated() {
        return terminated;
    }

    public int peakNodes() {
        return peakNodes;
    }

    public Map<String, Integer> terminatedByReason() {
        return terminatedByReason;
    }

    public double cost() {
        return costs.cost();
    }

    public double lowerBoundCost() {
        return costs.lowerBoundCost();
    }

    public double packingBoundCost() {
        return costs.packingBoundCost();
    }

    public double peakPerHour() {
        return costs.peakPerHour();
    }

    public int interruptionsReceived() {
        return interruptionsReceived;
    }

    public int reclaimed() {
        return reclaimed;
    }

    public int drainedBeforeDeadline() {
        return drainedBeforeDeadline;
    }

    public int replacementReadyBeforeDeadline() {
        return replacementReadyBeforeDeadline;
    }

    public int evictions() {
        return evictions;
    }

    public int wastedLaunches() {
        return wastedLaunches;
    }

    public List<long[]> recoveries() {
        return recoveries;
    }

    public Map<String, Integer> consolidation() {
        return consolidation;
    }

    public double consolidationSavingsPerHour() {
        return consolidationSavingsPerHour;
    }
}
