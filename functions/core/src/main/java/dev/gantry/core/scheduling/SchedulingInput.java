package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One immutable snapshot for a scheduling decision. Nothing in it is fetched lazily: the shell reads the cluster,
 * the store and the catalogue first, then hands this over.
 *
 * @param pending         pods waiting for capacity
 * @param nodes           nodes in the cluster with the pods bound to them
 * @param inFlight        NodeClaims launched but not yet registered as nodes; their capacity counts
 * @param daemonSets      DaemonSets, whose pods will land on new nodes and take capacity there
 * @param pools           NodePools with their instance types and current usage
 * @param namespaceLabels labels of each namespace, for pod-affinity namespace selectors
 */
public record SchedulingInput(List<Pod> pending, List<ExistingNode> nodes, List<InFlightClaim> inFlight,
                              List<DaemonSet> daemonSets, List<PoolOffer> pools, Map<String, Map<String, String>> namespaceLabels) {
    public SchedulingInput {
        pending = List.copyOf(pending);
        nodes = List.copyOf(nodes == null ? List.of() : nodes);
        inFlight = List.copyOf(inFlight == null ? List.of() : inFlight);
        daemonSets = List.copyOf(daemonSets == null ? List.of() : daemonSets);
        pools = List.copyOf(pools);
        namespaceLabels = Map.copyOf(namespaceLabels == null ? Map.of() : namespaceLabels);
    }

    /** A node and the pods on it. */
    public record ExistingNode(Node node, List<Pod> pods) {
        public ExistingNode {
            pods = List.copyOf(pods);
        }
    }

    /**
     * A NodeClaim that is launching: its node will carry {@code labels} (instance type, zone, capacity type, pool and
     * template labels, once known) and offer {@code allocatable}. {@code pods} are the pods already expected on it.
     */
    public record InFlightClaim(String name, String nodePool, Map<String, String> labels, List<Taint> taints,
                                Resources allocatable, List<Pod> pods) {
        public InFlightClaim {
            labels = Map.copyOf(labels);
            taints = List.copyOf(taints == null ? List.of() : taints);
            pods = List.copyOf(pods == null ? List.of() : pods);
        }
    }

    /**
     * A NodePool and what it may launch: {@code instanceTypes}, the catalogue's types under the pool's NodeClass
     * (unavailable offerings already marked); {@code usage}, the resources of the pool's existing nodes and in-flight
     * claims, counted against its limits; {@code nodeCount}, how many nodes and in-flight claims the pool has, for a
     * {@code nodes} limit. A value (equality is by those four); it also carries what solves over it share
     * ({@link OfferTypes}), so a caller that solves many times over the same pools passes the same offers.
     */
    public static final class PoolOffer {
        private final NodePool pool;
        private final List<InstanceType> instanceTypes;
        private final Resources usage;
        private final int nodeCount;
        /** Shared by every solve over this offer; not part of its value. */
        private final OfferTypes types = new OfferTypes(this);

        public PoolOffer(NodePool pool, List<InstanceType> instanceTypes, Resources usage, int nodeCount) {
            this.pool = pool;
            this.instanceTypes = List.copyOf(instanceTypes);
            this.usage = usage == null ? Resources.ZERO : usage;
            this.nodeCount = nodeCount;
        }

        public PoolOffer(NodePool pool, List<InstanceType> instanceTypes) {
            this(pool, instanceTypes, Resources.ZERO, 0);
        }

        public NodePool pool() {
            return pool;
        }

        public List<InstanceType> instanceTypes() {
            return instanceTypes;
        }

        public Resources usage() {
            return usage;
        }

        public int nodeCount() {
            return nodeCount;
        }

        public Requirements requirements() {
            return pool.requirements();
        }

        /**
         * The types its pool can launch: compatible with the pool's requirements and with an offering they allow,
         * cheapest such offering first, ties by name. Worked out once per offer, whoever asks.
         */
        public List<InstanceType> launchableTypes() {
            return types.pool();
        }

        OfferTypes types() {
            return types;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PoolOffer p && pool.equals(p.pool) && instanceTypes.equals(p.instanceTypes)
                    && usage.equals(p.usage) && nodeCount == p.nodeCount;
        }

        @Override
        public int hashCode() {
            return Objects.hash(pool, instanceTypes, usage, nodeCount);
        }

        @Override
        public String toString() {
            return "PoolOffer[pool=" + pool + ", instanceTypes=" + instanceTypes + ", usage=" + usage + ", nodeCount=" + nodeCount + "]";
        }
    }
}
