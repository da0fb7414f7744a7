package dev.gantry.handlers;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Warms the provisioner before a snapshot: the hint codec, the instance types of every NodeClass of the priming
 * configuration (the catalogue parse and, live, the EC2/Pricing reads), one small solve per pool, then a representative solve
 * ({@link PrimingWorkload}: a few hundred synthetic pods over every pool and the built-in catalogue), so the
 * scheduler's code is compiled in the snapshot and the first real run after a restore is not an interpreted solve.
 * The solves are pure: nothing is launched or written. {@code readOnlyCalls} adds a read through each client (store
 * list, cluster nodes, the configuration's lists) in production; tests leave it out. The production primer's configuration
 * is {@link PrimingConfig}'s, never the cluster's: each run reads that, and a snapshot may be taken before the cluster
 * holds any NodePool. After a restore, {@code refresh} re-signs the EKS token.
 */
public final class ProvisionerPrimer implements SnapStartPrimer {
    private final HintCodec codec;
    private final GantryConfig config;
    private final InstanceTypeProvider instanceTypes;
    private final Runnable readOnlyCalls;
    private final Runnable refresh;

    public ProvisionerPrimer(HintCodec codec, GantryConfig config, InstanceTypeProvider instanceTypes, Runnable readOnlyCalls,
                             Runnable refresh) {
        this.codec = codec;
        this.config = config;
        this.instanceTypes = instanceTypes;
        this.readOnlyCalls = readOnlyCalls;
        this.refresh = refresh;
    }

    static ProvisionerPrimer of(Composition c) {
        String region = c.region().id();
        return new ProvisionerPrimer(new HintCodec(c.json()), PrimingConfig.read(region, BuiltInCatalog.defaultZones(region)),
                c.instanceTypes(), () -> {
            // Every read a provisioning run makes, so their model classes and marshallers are in the snapshot
            // (measured: the primed first call fell from 383 ms to about 226 ms). All are reads; nothing is written.
            c.store().list(c.clock().instant());
            c.cluster().nodes();
            c.cluster().pods();
            c.cluster().daemonSets();
            c.cluster().podDisruptionBudgets();
            c.cluster().nodesWithVolumeAttachments();
            c.cluster().namespaceLabels();
            c.cloud().listInstances();
            // The configuration's lists (not its reader: what the cluster holds now is not what a restored run will).
            new dev.gantry.kube.KubeConfigObjects(c.kubeClient()).list();
        }, () -> c.token().get());
    }

    /** How many pods the per-pool priming solves placed (for tests: proves the solve ran). */
    private int primed;
    /** How many representative solves ran, and how many pods the last one placed. */
    private int representativeSolves;
    private int representativePlaced;
    private long primingNanos;

    public int primedPods() {
        return primed;
    }

    /** The representative solves run so far (one per {@link #beforeCheckpoint()}: the mixed batch and the anti-affinity pods). */
    public int representativeSolves() {
        return representativeSolves;
    }

    /** Pods the last representative solve placed, both batches (of {@link PrimingWorkload#PODS}). */
    public int representativePlaced() {
        return representativePlaced;
    }

    /** How long the last {@link #beforeCheckpoint()} took, reads included. */
    public long primingNanos() {
        return primingNanos;
    }

    @Override
    public void beforeCheckpoint() {
        long start = System.nanoTime();
        ProvisioningHint sample = new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "default", "prime", "prime-uid",
                Instant.EPOCH);
        codec.decode(codec.encode(sample));
        primed = 0;
        for (NodePool pool : config.nodePools()) {
            List<InstanceType> types = config.nodeClassOf(pool).map(instanceTypes::instanceTypes).orElse(List.of());
            Pod pod = Pod.builder("default", "prime").requests(Resources.of(100, 64L << 20)).build();
            List<SchedulingInput.PoolOffer> offers = new ArrayList<>(List.of(new SchedulingInput.PoolOffer(pool, types)));
            primed += Scheduler.solve(new SchedulingInput(List.of(pod), List.of(), List.of(), List.of(), offers, Map.of()))
                    .placedCount();
        }
        representativePlaced = 0;
        for (SchedulingInput input : PrimingWorkload.inputs(config, BuiltInCatalog.load(config.region(), config.zones()))) {
            representativePlaced += Scheduler.solve(input).placedCount();
        }
        representativeSolves++;
        readOnlyCalls.run();
        primingNanos = System.nanoTime() - start;
        System.out.printf("primer: representative solve placed %d of %d pods; priming took %d ms%n", representativePlaced,
                PrimingWorkload.PODS, primingNanos / 1_000_000);
    }

    @Override
    public void afterRestore() {
        refresh.run();
    }
}
