package dev.gantry.handlers;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.client.ClientTimeouts;
import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.ec2.Ec2CloudProvider;
import dev.gantry.aws.ec2.Ec2InstanceStatusChecks;
import dev.gantry.core.disruption.drift.DriftMarker;
import dev.gantry.core.disruption.drift.rollout.AmiRollouts;
import dev.gantry.core.disruption.drift.rollout.StartDelay;
import dev.gantry.aws.ec2.Ec2LauncherConfig;
import dev.gantry.aws.eks.EksClusterInfo;
import dev.gantry.aws.eks.EksTokenProvider;
import dev.gantry.aws.pricing.LiveInstanceTypeProvider;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.config.deployment.CallTimeouts;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.adoption.Adopter;
import dev.gantry.core.adoption.Adoption;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.sweep.CapacityBlockExpiry;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.staticcapacity.StaticCapacity;
import dev.gantry.core.sweep.InstanceStatusStep;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.Redelivery;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.kube.KubeClients;
import dev.gantry.kube.KubeCluster;
import dev.gantry.kube.KubeConfigObjects;
import dev.gantry.config.cluster.ClusterConfigReader;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.config.ConfigBound;
import dev.gantry.core.config.ConfigSource;
import dev.gantry.core.config.NamedPools;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The composition root of every function but the webhook: builds the real adapters from the {@link Environment}.
 * Each part is built on first use and kept, so a handler that asks for its parts in its constructor has them in its
 * SnapStart snapshot, and a handler never builds a client it does not use. Not for tests: they wire parts directly.
 */
public final class Composition {
    private final Environment env;
    private final Region region;
    private final Clock clock = Clock.systemUTC();
    private final ObjectMapper json = new ObjectMapper();
    private ConfigSource configSource;
    private AmiRollouts.Wired rollouts;
    private ConfigBound<Services> services;
    private dev.gantry.core.headroom.Headroom headroom;
    private dev.gantry.core.headroom.DemandHistoryStore demand;
    private NodeClaimStore store;
    private EksClusterInfo eks;
    private EksTokenProvider token;
    private KubeCluster cluster;
    private io.fabric8.kubernetes.client.KubernetesClient kubeClient;
    private InvocationScope scope;
    private Ec2CloudProvider cloud;
    private InstanceTypeProvider instanceTypes;
    private final dev.gantry.core.reservation.ReservationLedger reservationLedger = new dev.gantry.core.reservation.ReservationLedger();
    private SqsWorkQueue terminationQueue;
    private SqsWorkQueue interruptionQueue;
    private SqsWorkQueue provisioningQueue;
    private final dev.gantry.core.disruption.consolidation.ConsolidationSettings consolidation;

    /** @throws IllegalStateException naming the variable when a required one is unset or a setting is malformed */
    public Composition(Environment env) {
        this.env = env;
        this.region = Region.of(env.require(Environment.REGION));
        // Read at once, so a malformed value fails the cold start, not the first consolidation.
        this.consolidation = env.consolidation();
    }

    public static Composition fromSystem() {
        return new Composition(Environment.system());
    }

    public Clock clock() { return clock; }
    public ObjectMapper json() { return json; }
    public Region region() { return region; }
    public String clusterName() { return env.require(Environment.CLUSTER_NAME); }
    /** Spot-to-spot and strategy, from {@link Environment#SPOT_TO_SPOT_CONSOLIDATION} and {@link Environment#CONSOLIDATION_STRATEGY}. */
    public dev.gantry.core.disruption.consolidation.ConsolidationSettings consolidationSettings() { return consolidation; }

    /**
     * The cluster's NodePools, EC2NodeClasses and CapacityBuffers, listed on every run and parsed again only when one
     * changed ({@link ClusterConfigReader}). The cluster is the only source: the deploy bundle reaches it through the
     * attach function, never through these functions.
     */
    public synchronized ConfigSource configSource() {
        if (configSource == null) {
            // Beside another autoscaler, only the NodePools named at deploy are Gantry's (GANTRY_NODE_POOLS).
            // A class whose AMI rollout paused launches the images its nodes ran before (AmiRollouts).
            rollouts = AmiRollouts.over(NamedPools.of(new ClusterConfigReader(new KubeConfigObjects(kubeClient()), region.id(),
                    BuiltInCatalog.defaultZones(region.id())), env.nodePools()), store(), (Ec2CloudProvider) cloud(), scope().cluster(),
                    scope().cluster(), clock, r -> new dev.gantry.handlers.metrics.EmbeddedMetrics(json, clusterName(), System.out)
                            .emit(clock.instant(), Map.of("NodeClass", r.nodeClass()), Map.of("DriftRolloutsPaused", 1.0)));
            // AMI storms: a release rolls after this cluster's own delay within an hour (StartDelay).
            rollouts.rollouts().withInstances(() -> cloud().listInstances())
                    .withStartDelay(StartDelay.of(eks().arn() != null ? eks().arn() : eks().endpoint()));
            configSource = rollouts.config();
        }
        return configSource;
    }

    /** The AMI rollouts' drift gate, over the configuration source. */
    private synchronized AmiRollouts rollouts() {
        configSource();
        return rollouts.rollouts();
    }

    /**
     * The services of one run, built over the cluster's configuration when the run starts and built again only when a
     * NodePool or EC2NodeClass changed ({@link ConfigBound}); the clients under them are built once, here.
     */
    public synchronized ConfigBound<Services> services() {
        if (services == null) {
            services = new ConfigBound<>(configSource(), clock, c -> compose(c, true));
        }
        return services;
    }

    /**
     * Builds every client the services use (the API server's, EC2's, the store's, the queues'), so a handler that
     * calls this in its constructor has them in its SnapStart snapshot although its services are built at its first
     * run, over the configuration then.
     */
    public synchronized Composition withClients() {
        configSource();
        cluster();
        store();
        cloud();
        instanceTypes();
        demand();
        headroom();
        terminationQueue();
        provisioningQueue();
        return this;
    }

    /** What the handlers run, over one configuration. */
    public record Services(HintBatchService hintBatches, InterruptionService interruption, TerminationService termination,
                           SweepService sweep, ConsolidationService consolidation) {
    }

    /** @param clusterObjects whether the sweep adopts Karpenter's instances and writes NodeClaim objects and NodePool/EC2NodeClass
     *                       status (not the final sweep's) */
    private Services compose(ClusterConfig read, boolean clusterObjects) {
        GantryConfig config = read.config();
        InvocationReads k = scope().cluster(); // the sweep's lists, read once between writes (InvocationScope), the store's too
        var claims = scope().claims();
        var capacity = ClusterObjects.capacity(() -> config, instanceTypes());
        Map<String, NodePool> pools = config.nodePools().stream().collect(Collectors.toMap(NodePool::name, Function.identity()));
        TerminationService termination = new TerminationService(k, k, claims, cloud(), terminationQueue(), pools, clock);
        // Reserved offerings from what each NodeClass's capacityReservationSelectorTerms select; the process's ledger
        // keeps their counts between runs (core.reservation).
        Provisioner provisioner = new Provisioner(k, k, claims, cloud(), new dev.gantry.core.reservation
                .ReservedOfferings(instanceTypes(), ((Ec2CloudProvider) cloud()).capacityReservations(), reservationLedger, clock),
                config, clock).withHeadroom(headroom()).withDemandHistory(demand()).withReservations(reservationLedger)
                .withNodeClassGate(dev.gantry.core.status.NodeClassReadiness.gate(((Ec2CloudProvider) cloud())::status));
        // Consolidation: decided in the sweep, carried on by termination-queue messages; replacements are recorded for the
        // provisioner to launch (a hint nudges it); validation keeps room for the same buffers as the sweep's decision.
        ConsolidationService consolidation = new ConsolidationService(k, k, claims, termination, hints(),
                terminationQueue(), provisioner::poolOffers, provisioner::recordReplacement, consolidationSettings(), clock)
                .withHeadroom(headroom()).withDriftGate(rollouts());
        SweepService sweep = new SweepService(clusterName(), k, k, claims, cloud(), termination, hints(), pools,
                instanceFacts(config), clock).withRefresh(this::refreshOfferings).withConsolidation(consolidation)
                .withHeadroom(headroom());
        sweep.withStaticCapacity(new StaticCapacity(config::nodePools, provisioner::recordFromTemplate, termination, hints()));
        if (clusterObjects) {
            // Drift against this configuration, and what each NodeClass selects now through the EC2 adapter's cached lookups.
            sweep.withDrift(new DriftMarker(claims, (Ec2CloudProvider) cloud()).onListed(rollouts()::listed), () -> config,
                    instanceTypes()::instanceTypes);
            sweep.withCapacityBlockExpiry(new CapacityBlockExpiry(((Ec2CloudProvider) cloud()).capacityReservations(), termination));
            // Karpenter's instances of the pools Gantry manages become claims (a migration); the final sweep adopts none.
            sweep.withAdoption(new Adopter(clusterName(), claims, cloud(), k, termination, pools::keySet,
                    Adoption.Prices.of(() -> config.nodeClasses().stream().findFirst().map(instanceTypes()::instanceTypes)
                            .orElse(java.util.List.of()))));
            sweep.withNodeClaimObjects(ClusterObjects.projector(cluster(), capacity, termination, () -> config))
                    .withStatus(ClusterObjects.status(kubeClient(), cloud::status, capacity, () -> config, read::invalid,
                            instanceTypes()));
        }
        // Deleted nodes go to the termination flow, new nodes are registered at once, then one provisioning run.
        HintBatchService hintBatches = new HintBatchService(provisioner, k, claims, termination::startForDeletedNode,
                sweep::registerNodes, clock);
        InterruptionService interruption = new InterruptionService(claims, k, k, termination, hints(), pools, clock);
        if (clusterObjects) { // EC2's status checks each sweep: a failed check terminates, a scheduled event drains
            sweep.withInstanceStatus(new InstanceStatusStep(new Ec2InstanceStatusChecks(ec2()), termination, interruption::handle));
        }
        return new Services(hintBatches, interruption, termination, sweep, consolidation);
    }

    /** The final sweep's service: it terminates what Gantry launched and needs no NodePool, so none is read. */
    SweepService finalSweep() {
        return compose(new ClusterConfig(new GantryConfig(java.util.List.of(), java.util.List.of(), region.id(), java.util.List.of()),
                null, null, "final-sweep"), false).sweep();
    }

    /** Pending demand per pool and hour, in the state table (what predicted buffers read). */
    public synchronized dev.gantry.core.headroom.DemandHistoryStore demand() {
        if (demand == null) {
            demand = new dev.gantry.aws.dynamodb.DynamoDemandHistoryStore(DynamoNodeClaimStore.client(region),
                    env.require(Environment.TABLE_NAME), clusterName());
        }
        return demand;
    }

    /**
     * The headroom to keep: the cluster's CapacityBuffers as the current run read them ({@link ConfigBound#buffers()}),
     * the demand history, and the boot lead measured from the store's claims plus the sweep interval.
     */
    public synchronized dev.gantry.core.headroom.Headroom headroom() {
        if (headroom == null) {
            java.time.Duration sweep = dev.gantry.config.deployment.DeploymentSettings.DEFAULT.sweepRate();
            headroom = new dev.gantry.core.headroom.LiveHeadroom(services().buffers(), demand(),
                    dev.gantry.core.headroom.BootLead.cached(now -> dev.gantry.core.headroom.BootLead.of(store().list(now), sweep),
                            java.time.Duration.ofMinutes(10)));
        }
        return headroom;
    }

    public synchronized NodeClaimStore store() {
        if (store == null) {
            store = new DynamoNodeClaimStore(DynamoNodeClaimStore.client(region), env.require(Environment.TABLE_NAME), clusterName());
        }
        return store;
    }

    public synchronized EksClusterInfo eks() {
        if (eks == null) {
            eks = EksClusterInfo.describe(EksClusterInfo.client(region), clusterName());
        }
        return eks;
    }

    /** The bearer token source; {@code get()} re-signs once the token is 14 minutes old (after a restore, say). */
    public synchronized EksTokenProvider token() {
        if (token == null) {
            token = new EksTokenProvider(clusterName(), region, DefaultCredentialsProvider.builder().build(), clock);
        }
        return token;
    }

    /** This function's cluster and claim store, in the scope its sweeps run in ({@link InvocationScope}). */
    synchronized InvocationScope scope() {
        return scope == null ? scope = InvocationScope.over(cluster(), store()) : scope;
    }

    public synchronized KubeCluster cluster() {
        if (cluster == null) {
            cluster = new KubeCluster(kubeClient(), clock);
        }
        return cluster;
    }

    synchronized io.fabric8.kubernetes.client.KubernetesClient kubeClient() {
        if (kubeClient == null) {
            kubeClient = KubeClients.forEks(eks().endpoint(), eks().certificateAuthorityData(), token());
        }
        return kubeClient;
    }

    public synchronized CloudProvider cloud() {
        if (cloud == null) {
            EksClusterInfo info = eks();
            CallTimeouts.Budget ssm = CallTimeouts.DEFAULT.ssm();
            cloud = new Ec2CloudProvider(ec2(), SsmClient.builder().region(region).httpClient(ClientTimeouts.http(ssm))
                    .overrideConfiguration(ClientTimeouts.override(ssm)).build(),
                    new Ec2LauncherConfig(clusterName(), info.kubernetesVersion(), info.endpoint(), info.certificateAuthorityData(),
                            info.serviceCidr(), env.instanceProfile(), clock, env.nodeRoleProfiles()));
        }
        return cloud;
    }

    /** The sweep's launch template clean-up: deletes day-old templates no live instance came from, hourly. */
    public int collectLaunchTemplates() {
        cloud();
        return cloud.collectLaunchTemplates();
    }

    /** Live offerings and prices over the built-in catalogue, which stays the fallback when EC2 or Pricing fails. */
    public synchronized InstanceTypeProvider instanceTypes() {
        if (instanceTypes == null) {
            // The Price List API is served from us-east-1 for every commercial region.
            CallTimeouts.Budget control = CallTimeouts.DEFAULT.control();
            PricingClient pricing = PricingClient.builder().region(Region.US_EAST_1).httpClient(ClientTimeouts.http(control))
                    .overrideConfiguration(ClientTimeouts.override(control)).build();
            // Expired prices and offerings are refreshed on a virtual thread while runs keep the last values, so no
            // provisioning run waits for the Price List API's pages.
            instanceTypes = LiveInstanceTypeProvider.create(BuiltInCatalog.load(region.id(), BuiltInCatalog.defaultZones(region.id())),
                    ec2(), pricing, clock,
                    task -> Thread.ofVirtual().name("gantry-price-refresh").start(task))
                    .withDescriptions(new dev.gantry.aws.ec2.Ec2InstanceTypeDescriptions(ec2(), clock));
        }
        return instanceTypes;
    }

    /** The sweep's refresh step: prices and offerings re-read on their TTLs (in the background). */
    public void refreshOfferings() {
        if (instanceTypes() instanceof LiveInstanceTypeProvider live) {
            live.refreshIfStale();
        }
    }

    private Ec2Client ec2;

    /**
     * The EC2 client, in the SDK's standard retry mode (3 attempts, exponential backoff with full jitter, 1 s base for
     * throttling), with {@link CallTimeouts#ec2()}'s attempt and call timeouts ({@link ClientTimeouts}). Longer waits
     * belong to the queues (SqsRecords' retries).
     */
    private synchronized Ec2Client ec2() {
        if (ec2 == null) {
            CallTimeouts.Budget b = CallTimeouts.DEFAULT.ec2();
            ec2 = Ec2Client.builder().region(region).httpClient(ClientTimeouts.http(b))
                    .overrideConfiguration(ClientTimeouts.override(b)).build();
        }
        return ec2;
    }

    public synchronized WorkQueue provisioningQueue() {
        if (provisioningQueue == null) {
            provisioningQueue = new SqsWorkQueue(SqsWorkQueue.client(region), env.require(Environment.PROVISIONING_QUEUE_URL));
        }
        return provisioningQueue;
    }

    /** Early redelivery of a failed hint on the provisioning queue (the provisioner's own messages). */
    public synchronized Redelivery provisioningRedelivery() {
        provisioningQueue();
        return provisioningQueue;
    }

    /** Early redelivery of a failed record on the interruption queue (the interruption handler's own messages). */
    public synchronized Redelivery interruptionRedelivery() {
        if (interruptionQueue == null) {
            interruptionQueue = new SqsWorkQueue(SqsWorkQueue.client(region), env.require(Environment.INTERRUPTION_QUEUE_URL));
        }
        return interruptionQueue;
    }

    /** Early redelivery of a failed slice on the termination queue (the termination handler's own messages). */
    public synchronized Redelivery terminationRedelivery() {
        terminationQueue();
        return terminationQueue;
    }

    public synchronized WorkQueue terminationQueue() {
        if (terminationQueue == null) {
            terminationQueue = new SqsWorkQueue(SqsWorkQueue.client(region), env.require(Environment.TERMINATION_QUEUE_URL));
        }
        return terminationQueue;
    }

    /** The lifecycle's hints: on the provisioning queue, with the last-hint marker in the store. */
    public QueueHints hints() {
        return new QueueHints(provisioningQueue(), new HintCodec(json), store(), clusterName());
    }

    /** Instance-type labels and extended resources from the catalogue, under the first NodeClass (they do not depend on it). */
    InstanceFacts.Source instanceFacts(GantryConfig config) {
        Map<String, Optional<InstanceFacts>> cache = new ConcurrentHashMap<>();
        return type -> cache.computeIfAbsent(type, t -> {
            Optional<NodeClass> nodeClass = config.nodeClasses().stream().findFirst();
            if (nodeClass.isEmpty()) {
                return Optional.empty();
            }
            for (InstanceType it : instanceTypes().instanceTypes(nodeClass.get())) {
                if (it.name().equals(t)) {
                    return Optional.of(new InstanceFacts(it.labels(), it.capacity().extended()));
                }
            }
            return Optional.empty();
        });
    }
}
