package dev.gantry.simulator;

import dev.gantry.simulator.bill.SelfUsage;
import dev.gantry.simulator.deployed.EventSources;
import dev.gantry.simulator.deployed.Handlers;
import dev.gantry.simulator.deployed.SimulatedClusterObjects;
import dev.gantry.simulator.deployed.SimulatedComposition;
import dev.gantry.simulator.world.kube.SimulatedConfig;
import dev.gantry.config.cluster.ClusterConfigReader;
import dev.gantry.core.config.ConfigBound;
import dev.gantry.simulator.deployed.SimulatedHeadroom;
import dev.gantry.simulator.faults.CrashAfterLaunch;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.observe.Checks;
import dev.gantry.simulator.observe.EventLog;
import dev.gantry.simulator.observe.Invariants;
import dev.gantry.simulator.observe.LifecycleChecks;
import dev.gantry.simulator.observe.Observers;
import dev.gantry.simulator.observe.Placement;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.HtmlReport;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.report.StatusCapture;
import dev.gantry.simulator.report.Summary;
import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioActions;
import dev.gantry.simulator.world.aws.EventBridge;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import dev.gantry.simulator.world.aws.SimulatedStore;
import dev.gantry.simulator.world.kube.ApiServer;
import dev.gantry.simulator.world.kube.KubeScheduler;
import dev.gantry.simulator.world.kube.Kubelet;
import dev.gantry.simulator.world.kube.Webhook;
import dev.gantry.simulator.world.kube.Workloads;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.DeterministicSpotPriceModel;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.simulator.report.DriftRollout;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.headroom.InMemoryDemandHistoryStore;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.config.deployment.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One simulated cluster, wired: Gantry's real Lambda handlers (provisioner, interruption, termination, sweep) and the
 * application services under them, over simulated ports (EC2, API server, SQS, the in-memory store), invoked by
 * simulated event sources; the cluster's own controllers; and the scenario's events, all on one virtual clock. {@link #run()} runs it to the end and returns what was measured.
 */
public final class Simulation {
    static final Instant START = Scenario.Run.DEFAULT_START;
    static final String CLUSTER = "sim";

    final Scenario scenario;
    final VirtualClock clock = new VirtualClock(START);
    final EventLoop loop = new EventLoop(clock);
    final InMemoryCluster cluster = new InMemoryCluster();
    final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    final Recorder recorder = new Recorder(START);
    final Invariants invariants;
    /** The configuration the scenario starts with, as read from its files. */
    final GantryConfig config;
    /**
     * The configuration Gantry's latest run used (read from the API server); the judges follow it, as {@link #pools}
     * does, so a NodePool changed by a scenario event is judged by what it says from the first run that used it.
     */
    private volatile GantryConfig inUse;
    final Catalog catalog;
    /** The NodeClaim objects and NodePool/EC2NodeClass status the sweep writes to the simulated API server. */
    final dev.gantry.simulator.world.kube.KarpenterObjects karpenterObjects;
    final Map<String, NodePool> pools = new LinkedHashMap<>();
    /** The deployed settings: the queues' visibility and receive counts are what the CDK app deploys. */
    static final DeploymentSettings DEPLOYED = EventSources.DEPLOYED;
    /** How long a pod may wait for its capacity before {@code podsNotPlacedInTime}: the deployed batch window and sweep. */
    static final Placement.Allowance PLACED_IN_TIME = new Placement.Allowance(EventSources.BATCH_IDLE, DEPLOYED.sweepRate());
    final SimulatedQueue provisioningQueue = queue(DEPLOYED.provisioningQueue(), clock);
    final SimulatedQueue interruptionQueue = queue(DEPLOYED.interruptionQueue(), clock);
    final SimulatedQueue terminationQueue = queue(DEPLOYED.terminationQueue(), clock);
    /** The lifecycle services' hints: the handlers' own sender, which also records the sweep's last-hint marker. */
    final QueueHints lifecycleHints;
    /** The Lambda runtime the handlers run in: port calls take time, invocations overlap and time out. */
    final LambdaRuntime runtime;
    /** The faults this run injects (the scenario's, plus the chaos mix when it is on). */
    final Faults faults;
    /** The store as the handlers reach it (latency, throttling, lost answers, index lag); {@link #store} is the truth. */
    final SimulatedStore claims;
    final ApiServer api;
    final Webhook webhook;
    final SimulatedCloud cloud;
    /** EC2's status checks, as the scenario's statusCheck events set them. */
    final dev.gantry.simulator.world.health.SimulatedStatusChecks statusChecks =
            new dev.gantry.simulator.world.health.SimulatedStatusChecks(this::liveInstances);
    final CrashAfterLaunch crashing;
    final KubeScheduler kubeScheduler;
    final Kubelet kubelet;
    final Workloads workloads;
    final EventSources eventSources;
    final EventBridge eventBridge;
    final Observers observers;
    final Checks checks;
    private final Progress progress;
    /** When this run starts (the scenario's {@code start}). */
    final Instant start;
    final SimulatedHeadroom headroom;
    /** Events Gantry recorded through the API server, with their virtual time (what {@code gantry status} reads). */
    final EventLog events = new EventLog();
    /** Gantry's own use of SQS, DynamoDB and EventBridge, for its bill ({@link dev.gantry.simulator.bill.SelfCost}). */
    final SelfUsage selfUsage = new SelfUsage();
    private Duration statusAt;
    private StatusCapture status;

    private static SimulatedQueue queue(QueueSettings s, VirtualClock clock) {
        return new SimulatedQueue(s.name() + (s.fifo() ? ".fifo" : ""), s.fifo(), s.visibility(), s.maxReceiveCount(), clock);
    }

    public Simulation(Scenario scenario, Consumer<String> violations, Progress progress) {
        this(scenario, violations, progress, new InMemoryDemandHistoryStore());
    }

    /**
     * A run that learns: with {@code learnWeeks}, the same scenario without buffers runs that many weeks earlier first,
     * each recording its pending demand in the history this run's predicted buffers read.
     */
    public static Simulation learning(Scenario scenario, Consumer<String> violations, Progress progress) {
        InMemoryDemandHistoryStore history = new InMemoryDemandHistoryStore();
        for (int w = scenario.run().learnWeeks(); w >= 1; w--) {
            Scenario earlier = scenario.withRun(scenario.run().weeksEarlier(w)).withoutBuffers();
            new Simulation(earlier, v -> { }, Progress.none(), history).run();
        }
        return new Simulation(scenario, violations, progress, history);
    }

    Simulation(Scenario scenario, Consumer<String> violations, Progress progress, DemandHistoryStore history) {
        this.scenario = scenario;
        this.start = scenario.run().start();
        clock.restart(start);
        recorder.restart(start);
        if (scenario.run().ramp() != null) {
            recorder.ramp(start.plus(scenario.run().ramp().from()), start.plus(scenario.run().ramp().until()));
        }
        this.progress = progress;
        this.invariants = new Invariants(v -> violations.accept("invariant violated at " + v));
        StartingConfig starting = StartingConfig.load(scenario);
        LoadResult loaded = starting.loaded();
        List<NodeClass> classes = starting.classes();
        this.config = starting.config();
        config.nodePools().forEach(p -> pools.put(p.name(), p));
        this.inUse = config;
        this.catalog = BuiltInCatalog.load(scenario.cluster().region(), scenario.cluster().zones(), new DeterministicSpotPriceModel(scenario.run().seed()));
        this.faults = new Faults(scenario.effectiveFaults(), scenario.run().seed());
        this.runtime = new LambdaRuntime(loop, scenario.latency().build(scenario.run().seed()));
        // The functions log as deployed (Environment.system() sets this up in Lambda): each invocation's records reach
        // the standard error it captures, and its warnings and errors the timeline (FunctionLogs.problems).
        dev.gantry.handlers.logging.JsonLogHandler.install(null);
        runtime.faults(faults);
        faults.runtime(runtime);
        this.claims = new SimulatedStore(store, clock::instant, faults);
        claims.runtime(runtime, faults);
        for (SimulatedQueue q : List.of(provisioningQueue, interruptionQueue, terminationQueue)) {
            q.runtime(runtime, faults);
        }
        provisioningQueue.retention(DEPLOYED.provisioningQueue().retention());
        interruptionQueue.retention(DEPLOYED.interruptionQueue().retention());
        terminationQueue.retention(DEPLOYED.terminationQueue().retention());
        this.lifecycleHints = new QueueHints(provisioningQueue, new HintCodec(new ObjectMapper()), claims, CLUSTER);
        this.eventBridge = new EventBridge(scenario.cluster().region());
        this.observers = new Observers(CLUSTER, clock, cluster, store, recorder, invariants, events, interruptionQueue,
                eventBridge);
        this.api = new ApiServer(cluster, clock, observers);
        this.webhook = new Webhook(scenario.gantry().webhook(), CLUSTER, provisioningQueue, DEPLOYED.hintDeduplicationBucket(), clock,
                line -> recorder.log(clock.instant(), "error", line));
        api.webhook(webhook);
        api.runtime(runtime, faults);
        this.cloud = new SimulatedCloud(CLUSTER, scenario.cluster().region(), loop, scenario.run().seed(), observers);
        cloud.runtime(runtime, faults);
        cloud.podsOn(i -> {
            var node = cluster.node(i.dnsName());
            return node == null ? 0 : (int) cluster.pods().stream().filter(p -> node.name().equals(p.nodeName())
                    && !p.isDaemon() && !p.isMirror() && !p.status().isTerminal()).count();
        });
        this.crashing = new CrashAfterLaunch(cloud);
        this.kubeScheduler = new KubeScheduler(cluster, loop, webhook, recorder);
        this.kubelet = new Kubelet(cluster, loop, cloud, webhook, observers::clusterChanged, scenario.cluster().region(),
                line -> recorder.log(clock.instant(), "error", line));
        this.workloads = new Workloads(cluster, loop, webhook, recorder, observers::clusterChanged);
        this.headroom = new SimulatedHeadroom(scenario.gantry().buffers() ? loaded.buffers() : List.of(), loaded.bufferTargets(),
                workloads, history, claims, DEPLOYED.sweepRate());
        // As the deploy-time apply does: the scenario's NodePools and NodeClasses are put in the API server, and the
        // handlers read them from there on every run, through the one reader (ClusterConfigReader).
        SimulatedConfig.seed(api.config(), scenario.gantry().config(), classes, loaded.nodeClasses());
        // Later writes (scenario events) are what the reaction is measured from; a change hint would attach here too.
        api.config().onWrite(w -> recorder.configWritten(clock.instant(), w.key(), w.deleted()));
        // From then on, as attach registered it: the validating webhook admits each write and hints the provisioner.
        api.config().admission((operation, objectJson) -> {
            Webhook.Admission a = webhook.configWritten(operation, objectJson);
            return a.allowed() ? null : a.message();
        });
        // The deployed parallelism: launches and pod Events fan out on 8 lanes of the invocation, each call at its full
        // latency, interleaved with everything else on the loop (LambdaRuntime#fanOut), as Fanout.THREADS runs them.
        dev.gantry.core.provisioning.Fanout fanout = new dev.gantry.core.provisioning.Fanout() {
            @Override
            public <T, R> List<R> map(List<T> items, int parallelism, java.util.function.Function<T, R> task) {
                return runtime.fanOut(items, parallelism, task);
            }
        };
        this.karpenterObjects = SimulatedClusterObjects.objects(api, clock, config);
        // One AmiRollouts serves every function here, so it reads the API server straight (deployed, each function's reads
        // through its own scope): a paused rollout's pins list the nodes afresh, never staler than deployed.
        var rollouts = dev.gantry.core.disruption.drift.rollout.AmiRollouts.over(new ClusterConfigReader(api.configObjects(),
                scenario.cluster().region(), scenario.cluster().zones()), claims, cloud, api, api, clock, r -> recorder.log(clock.instant(), "drift", r.why()));
        // Each function reads the API server and the store in its own scope, built by the deployed code (InvocationScope).
        SimulatedComposition.Reads reads = SimulatedComposition.Reads.over(api, claims);
        SimulatedComposition composition = new SimulatedComposition(CLUSTER, clock, reads, cloud, crashing, catalog, fanout,
                headroom.port(), history, lifecycleHints, terminationQueue, scenario.gantry().consolidation(),
                (what, command, line, savings) -> recorder.consolidation(clock.instant(), what, command, line, savings),
                this::facts, this::configInUse, new SimulationSteps(CLUSTER, cloud, api, catalog, rollouts,
                        (claim, reason) -> recorder.log(clock.instant(), "drift", DriftRollout.marked(claim, reason)),
                        statusChecks, lifecycleHints, karpenterObjects, clock), new SimulatedComposition.Reservations(
                cloud.reservations(), new dev.gantry.core.reservation.ReservationLedger()));
        ConfigBound<SimulatedComposition.Functions> services = new ConfigBound<>(rollouts.config(), clock, composition::compose);
        Handlers handlers = Handlers.wire(CLUSTER, clock, services, reads, provisioningQueue, interruptionQueue, terminationQueue,
                runtime);
        this.eventSources = new EventSources(loop, runtime, scenario.cluster().region(), provisioningQueue, interruptionQueue, terminationQueue,
                handlers, recorder, observers, crashing::revive);
        SelfCostMeters.attach(selfUsage, List.of(provisioningQueue, interruptionQueue, terminationQueue), claims, eventBridge, eventSources);
        LifecycleChecks lifecycle = new LifecycleChecks(store, pools, cluster, api::downUntil, cloud::instance,
                DEPLOYED.sweepRate());
        Placement placement = new Placement(cluster, api, cloud, this::liveInstances, () -> inUse, catalog, start, PLACED_IN_TIME);
        recorder.onCreatedPending(p -> placement.created(p, clock.instant()));
        this.checks = new Checks(new Checks.World(clock, cluster, store, pools, () -> inUse, catalog, workloads, this::liveInstances,
                this::pendingPods, this::messagesLost, loop::steps), invariants, recorder, lifecycle, placement,
                observers::takeClusterChanged, !headroom.buffers().isEmpty(), now -> headroom.virtualPods(now, store))
                .withBadImages(cloud.images()::isBad).withReservations(cloud.reservations()::counts, cloud.reservations()::held);
        observers.watch(kubelet, kubeScheduler, workloads, checks, placement);
    }

    /** A run composed its services over {@code c}: the judges and the summary follow it. */
    private void configInUse(dev.gantry.core.config.ClusterConfig c) {
        inUse = c.config();
        pools.clear();
        c.config().nodePools().forEach(p -> pools.put(p.name(), p));
        recorder.configInUse(clock.instant(), c);
    }

    /** Registration's instance facts, from the same catalogue the provisioner plans with. */
    private Optional<InstanceFacts> facts(String instanceType) {
        for (NodeClass c : inUse.nodeClasses()) {
            for (InstanceType t : catalog.instanceTypes(c)) {
                if (t.name().equals(instanceType)) {
                    Map<String, Long> extended = new LinkedHashMap<>(t.capacity().extended());
                    return Optional.of(new InstanceFacts(t.labels(), extended));
                }
            }
        }
        return Optional.empty();
    }

    /** Captures what {@code gantry status} would show at {@code at} after the start (see {@link #status()}). */
    public Simulation statusAt(Duration at) {
        if (at.isNegative() || at.compareTo(scenario.run().duration()) > 0) {
            throw new IllegalArgumentException("status time " + dev.gantry.core.model.KubeDuration.format(at)
                    + " is outside the scenario (0 to " + dev.gantry.core.model.KubeDuration.format(scenario.run().duration()) + ")");
        }
        this.statusAt = at;
        return this;
    }

    /** The status captured at {@link #statusAt}'s time, once the run has passed it; null before or without one. */
    public StatusCapture status() {
        return status;
    }

    /** Runs the scenario to its end. */
    public Result run() {
        long wall = System.nanoTime();
        Instant end = start.plus(scenario.run().duration());
        ScenarioActions actions = new ScenarioActions(scenario.file(), new ScenarioActions.World(loop, cluster, workloads,
                cloud, api, webhook, eventBridge, interruptionQueue, crashing, this::liveInstances, observers::clusterChanged,
                checks::outage), recorder).withHealth(new dev.gantry.simulator.world.health.HealthActions(cluster, statusChecks));
        for (var p : scenario.cluster().manifests()) {
            actions.apply(p, 0);
        }
        dev.gantry.simulator.scenario.KarpenterNodesSeed.seed(scenario.file(), scenario.cluster().karpenter(), cloud, cluster,
                CLUSTER, config, catalog, start);
        cloud.reservations().onLifecycle(line -> recorder.log(clock.instant(), "reservation", line));
        scenario.cluster().reservations().forEach(r -> cloud.reservations().add(r, start));
        for (Scenario.Event e : scenario.events()) {
            loop.at(start.plus(e.at()), "scenario line " + e.line(), () -> actions.run(e));
        }
        cloud.seedUnmanaged(catalog.instanceTypes(config.nodeClasses().getFirst()).getFirst(), scenario.cluster().zones().getFirst());
        loop.every(start, Duration.ofSeconds(1), "controllers", () -> {
            if (!api.isDown()) {
                workloads.reconcile();
                observers.pdbs();
                kubeScheduler.tick();
            }
        });
        eventSources.startSweeps(start.plus(Duration.ofSeconds(30)));
        ApiOutages.schedule(this, end);
        Duration samplePeriod = Duration.ofSeconds(Math.max(10, scenario.run().duration().toSeconds() / 480));
        loop.every(start, samplePeriod, "sample", checks::sample);
        if (statusAt != null) {
            // At that instant, after the scenario's events at it (events at one instant run in the order they were added).
            loop.at(start.plus(statusAt), "status", () -> status = captureStatus());
        }
        Progress.Reading reading = Progress.Reading.of(this::t, scenario.run().duration().toSeconds(), () -> liveInstances().size(),
                this::pendingPods, recorder::perHour);
        loop.runUntil(end, step -> {
            checks.step(step);
            progress.update(reading);
        });
        runtime.shutdown();
        List.of(provisioningQueue, interruptionQueue, terminationQueue).forEach(SimulatedQueue::expire);
        checks.atEnd();
        progress.done();
        double wallSeconds = (System.nanoTime() - wall) / 1e9;
        return new Result(Summary.of(RunSummary.of(this), wallSeconds), this);
    }

    /** What {@code gantry status} would read now. */
    private StatusCapture captureStatus() {
        Instant now = clock.instant();
        var buffers = headroom.read();
        return new StatusCapture(now, List.copyOf(pools.values()), store.list(now), store.poolUsage(), cluster.nodes(),
                cluster.pods(), events.list(), buffers.buffers(), buffers.targets(), headroom.history().read(now),
                headroom.bootLead(now), dev.gantry.core.disruption.execution.BackOffs.of(store, pools.keySet(), now));
    }

    /** What a run produced: the summary and the simulation, for the report. */
    public record Result(Summary summary, Simulation simulation) {
        public boolean violated() {
            return simulation.invariants.total() > 0;
        }

        /** The run as one self-contained HTML page ({@link HtmlReport}). */
        public String html() {
            Simulation s = simulation;
            return HtmlReport.render(summary, s.scenario, s.recorder, s.invariants, !s.catalog.warnings().isEmpty());
        }
    }

    /**
     * Messages SQS deleted at the end of their retention before they reached a dead-letter queue: work lost without
     * an alarm. The rule is that none is: every message reaches its consumer or its dead-letter queue.
     */
    long messagesLost() {
        return provisioningQueue.expiredCount() + interruptionQueue.expiredCount() + terminationQueue.expiredCount();
    }

    int pendingPods() {
        return (int) cluster.pods().stream().filter(p -> !p.isBound() && !p.status().isTerminal()).count();
    }

    /** Gantry's live instances (pending or running), oldest first. */
    List<SimulatedInstance> liveInstances() {
        return cloud.instances().stream().filter(SimulatedInstance::isAlive)
                .filter(i -> CLUSTER.equals(i.tags().get(dev.gantry.core.cloud.CloudInstance.TAG_CLUSTER))).toList();
    }

    long t() {
        return recorder.secondsSinceStart(clock.instant());
    }
}
