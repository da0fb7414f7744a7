package dev.gantry.simulator.scenario;

import dev.gantry.simulator.deployed.EventSources;
import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.Latency;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A scenario file, read: where the cluster starts, what configuration Gantry runs with, and what happens when. Paths
 * are already resolved against the scenario file's directory. The YAML fields are a public format (issue #7): keep
 * them stable.
 *
 * @param webhook false for sweep-only detection (the backstop path)
 * @param headroom when the run starts, the ramp it measures, the history it learns first, and whether the config's
 *                 CapacityBuffers are used
 * @param consolidation the operator's consolidation settings ({@code consolidation: {spotToSpot, strategy}}; default
 *                      Gantry's engine, spot-to-spot off)
 * @param faults  the {@code faults:} section: rates and targeted faults
 * @param chaos   {@code faults: {chaos: true}}: add {@link FaultPlan#chaos(long)} for the run's seed
 * @param latency the {@code latency:} section: what port calls cost
 */
public record Scenario(Path file, String name, String region, List<String> zones, Duration duration, long seed,
                       List<Path> config, List<Path> manifests, boolean webhook, List<Event> events, Headroom headroom,
                       ConsolidationSettings consolidation, FaultPlan faults,
                       boolean chaos, LatencySpec latency, double chaosIntensity) {
    /** Where virtual time starts unless a scenario says otherwise (a Sunday). */
    public static final Instant DEFAULT_START = Instant.parse("2025-06-01T00:00:00Z");

    public Scenario {
        consolidation = consolidation == null ? EventSources.DEPLOYED.consolidation() : consolidation;
        headroom = headroom == null ? Headroom.DEFAULT : headroom;
        zones = List.copyOf(zones);
        config = List.copyOf(config);
        manifests = List.copyOf(manifests);
        events = List.copyOf(events);
    }

    public Scenario(Path file, String name, String region, List<String> zones, Duration duration, long seed,
                    List<Path> config, List<Path> manifests, boolean webhook, List<Event> events) {
        this(file, name, region, zones, duration, seed, config, manifests, webhook, events, null, null, FaultPlan.NONE, false,
                LatencySpec.AWS, 1);
    }

    public Scenario withSeed(long newSeed) {
        return new Scenario(file, name, region, zones, duration, newSeed, config, manifests, webhook, events, headroom, consolidation, faults, chaos,
                latency, chaosIntensity);
    }

    /** The same scenario with its CapacityBuffers ignored: the baseline a buffer is measured against. */
    public Scenario withoutBuffers() {
        return withHeadroom(new Headroom(headroom.start(), headroom.ramp(), headroom.learnWeeks(), false));
    }

    public Scenario withHeadroom(Headroom h) {
        return new Scenario(file, name, region, zones, duration, seed, config, manifests, webhook, events, h, consolidation, faults,
                chaos, latency, chaosIntensity);
    }

    /**
     * The scenario's headroom settings ({@code start}, {@code ramp}, {@code learnWeeks} in the file).
     *
     * @param start      the virtual instant the run starts at (UTC); buffer schedules and hours of the week follow it
     * @param ramp       the window whose pods' time-to-schedule is reported on its own (the morning ramp), or null
     * @param learnWeeks weeks of pending-demand history recorded first, by running the same scenario without buffers
     *                   that many weeks earlier (what a predicted buffer learns from)
     * @param buffers    whether the config's CapacityBuffers are kept
     */
    public record Headroom(Instant start, Window ramp, int learnWeeks, boolean buffers) {
        public static final Headroom DEFAULT = new Headroom(DEFAULT_START, null, 0, true);

        public Headroom {
            start = start == null ? DEFAULT_START : start;
        }
    }

    /** {@code [from, until)} after the start. */
    public record Window(Duration from, Duration until) {
        public boolean contains(Duration t) {
            return t.compareTo(from) >= 0 && t.compareTo(until) < 0;
        }
    }

    /** This scenario with the chaos mix switched on or off. */
    public Scenario withChaos(boolean on) {
        return withChaos(on, 1);
    }

    /** The chaos mix with every rate times {@code intensity}. */
    public Scenario withChaos(boolean on, double intensity) {
        return new Scenario(file, name, region, zones, duration, seed, config, manifests, webhook, events, headroom, consolidation, faults, on, latency,
                intensity);
    }

    public Scenario withLatency(LatencySpec l) {
        return new Scenario(file, name, region, zones, duration, seed, config, manifests, webhook, events, headroom, consolidation, faults, chaos, l,
                chaosIntensity);
    }

    /** The faults this run injects: the file's, plus the chaos mix for this seed when it is on. */
    public FaultPlan effectiveFaults() {
        return chaos ? faults.plus(FaultPlan.chaos(seed).times(chaosIntensity)) : faults;
    }

    /** What port calls cost: AWS-like defaults, per-kind overrides, all scaled ({@code scale: 0}: instant). */
    public record LatencySpec(Map<CallKind, Latency.Range> overrides, double scale) {
        public static final LatencySpec AWS = new LatencySpec(Map.of(), 1);
        public static final LatencySpec NONE = new LatencySpec(Map.of(), 0);

        public LatencySpec {
            overrides = Map.copyOf(overrides);
        }

        public Latency build(long seed) {
            return scale == 0 ? Latency.none() : Latency.of(overrides, scale, seed);
        }
    }

    /** Something that happens at {@code at} after the start; {@code line} is where the scenario says so. */
    public record Event(Duration at, Action action, int line) {
    }

    /** What an event does. */
    public sealed interface Action {
    }

    /** Apply manifests (Deployments, Pods, Jobs, DaemonSets, PDBs). */
    public record Apply(Path file) implements Action {
    }

    public record Scale(String deployment, int replicas) implements Action {
    }

    public record Delete(String deployment) implements Action {
    }

    /**
     * Warnings for {@code count} Gantry nodes matching the filters (null = any), oldest first. {@code kind}: spot (a
     * spot interruption warning, then EC2 reclaims the instance two minutes later), rebalance, health (an AWS Health
     * retirement) or failure (the instance stops).
     */
    public record Interrupt(String kind, String capacityType, String zone, String nodePool, int count) implements Action {
    }

    /** A raw EventBridge event from a file, for the {@code index}-th live Gantry node of {@code nodePool} (null = any). */
    public record AwsEvent(Path file, String nodePool, int index) implements Action {
    }

    /** {@code kubectl delete node} on the {@code index}-th live Gantry node. */
    public record DeleteNode(String nodePool, int index) implements Action {
    }

    /** Every Gantry instance dies at once (an outage): EC2 terminates them all. */
    public record TerminateAllNodes() implements Action {
    }

    /** Insufficient capacity for matching offerings (empty lists match everything) for a while. */
    public record Ice(List<String> instanceTypes, List<String> zones, List<String> capacityTypes, Duration lasting)
            implements Action {
    }

    /** EC2 refuses a share of call attempts with RequestLimitExceeded (a per-attempt draw). */
    public record Throttle(double probability, Duration lasting) implements Action {
    }

    /**
     * A noisy neighbour in the account sends {@code demand} times each EC2 API's refill rate for a while: it drains the
     * request token buckets, and a call of ours succeeds when it finds a token ({@code fault: {throttle: {neighbour:}}}).
     */
    public record NoisyNeighbour(double demand, Duration lasting) implements Action {
    }

    /** EC2 answers every call Unavailable for a while ({@code fault: {outage:}}). */
    public record Ec2Outage(Duration lasting) implements Action {
    }

    public record ApiServerDown(Duration lasting) implements Action {
    }

    /** The next {@code count} launches succeed at EC2, then the provisioner dies before recording them. */
    public record CrashAfterLaunch(int count) implements Action {
    }
}
