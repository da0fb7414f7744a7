package dev.gantry.simulator.world.aws;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.KarpenterTags;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a running Karpenter (v1.14, AWS provider) left in a cluster when its controller was scaled to 0: a running
 * instance with Karpenter's tags ({@link KarpenterTags#ofRegistered}: cluster ownership, NodePool, EC2NodeClass,
 * NodeClaim name, Name) and its Node, registered and initialized, with Karpenter's labels ({@code karpenter.sh/nodepool},
 * {@code karpenter.sh/registered}, {@code karpenter.sh/initialized}, capacity type, the instance type's labels, the
 * pool's template labels) and taints, and Karpenter's finalizer. No claim is in Gantry's store for it.
 *
 * <p>Not modelled: Karpenter's NodeClaim objects (the simulated API server has none), DaemonSet pods on these nodes,
 * instances Karpenter was still launching or terminating when it stopped.
 */
public final class KarpenterLaunched {
    /** How long after its instance's launch a Karpenter node registered. */
    static final Duration REGISTERED_AFTER = Duration.ofSeconds(40);

    private KarpenterLaunched() {
    }

    /**
     * Seeds instance number {@code n} and its Ready node for {@code pool}, launched at {@code launched}; returns the
     * instance. The NodeClaim is named as Karpenter names them ({@code <pool>-<5 characters>}).
     */
    public static SimulatedInstance seed(SimulatedCloud cloud, InMemoryCluster cluster, String clusterName, String region, int n,
                                         NodePool pool, InstanceType type, String zone, String capacityType, double price,
                                         Instant launched) {
        String id = String.format("i-0%016x", 0xca4e0000L + n);
        String dns = "ip-10-2-" + (n / 250) + "-" + (n % 250 + 4) + "." + region + ".compute.internal";
        String claim = pool.name() + "-" + Integer.toString(0x1a2b3 + n * 7919, 36);
        String nodeClass = pool.template().nodeClassRef().name();
        SimulatedInstance i = new SimulatedInstance(id, type, zone, capacityType, price, launched, dns,
                KarpenterTags.ofRegistered(clusterName, pool.name(), nodeClass, claim, dns), null, Map.of());
        cloud.seed(i);
        Map<String, String> labels = new TreeMap<>(type.labels());
        labels.putAll(pool.template().labels());
        labels.put(WellKnownLabels.NODEPOOL, pool.name());
        labels.put(KarpenterTags.NODECLASS, nodeClass);
        labels.put(Node.REGISTERED_LABEL, "true");
        labels.put(Node.INITIALIZED_LABEL, "true");
        labels.put(WellKnownLabels.CAPACITY_TYPE, capacityType);
        labels.put(WellKnownLabels.INSTANCE_TYPE, type.name());
        labels.put(WellKnownLabels.ZONE, zone);
        labels.put(WellKnownLabels.REGION, region);
        labels.put(WellKnownLabels.HOSTNAME, dns);
        labels.putIfAbsent(WellKnownLabels.OS, "linux");
        cluster.putNode(new Node(dns, i.providerId(), labels, Map.of(), pool.template().taints(), type.allocatable(), true,
                false, false, launched.plus(REGISTERED_AFTER), List.of(Node.KARPENTER_FINALIZER), null));
        return i;
    }
}
