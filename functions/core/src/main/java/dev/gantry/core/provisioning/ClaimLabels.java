package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The labels of a claim's node, in one place: what its launch asks the node to register with ({@link #launch}), and
 * every label the node carries once registered and labelled ({@link #node}). A claim in flight, a claim just planned
 * and a node that has just registered are all planned with {@link #node}, so that the scheduler sees them as the pods
 * will: a claim planned without the labels of its pool's requirements ({@code workload In [batch]}) looked unsuitable
 * to the pods selecting them, and every run launched again while it booted.
 */
final class ClaimLabels {
    private ClaimLabels() {
    }

    /**
     * What the node registers with: every label the requirements pin to one value (the pool's custom labels such as
     * {@code workload In [batch]}, a capacity type when only one is allowed…), then the template's labels and the pool.
     * Instance-specific labels (type, zone) are the launcher's to add, and the hostname belongs to the kubelet.
     *
     * @param reqs the claim's requirements: its pool's, narrowed by the pods planned onto it
     */
    static Map<String, String> launch(NodePool pool, Requirements reqs) {
        Map<String, String> labels = new TreeMap<>(reqs.singleValuedLabels());
        labels.keySet().removeAll(Set.of(WellKnownLabels.HOSTNAME, WellKnownLabels.INSTANCE_TYPE, WellKnownLabels.ZONE,
                WellKnownLabels.ZONE_ID));
        labels.putAll(pool.template().labels());
        labels.put(WellKnownLabels.NODEPOOL, pool.name());
        return labels;
    }

    /**
     * Every label the node will carry: its instance type's (the sweep adds the {@code karpenter.k8s.aws/instance-*}
     * ones within a minute of registration), its launch labels ({@link #launch}), and the instance type, zone,
     * capacity type and hostname it gets.
     *
     * @param zone         the zone, or null while unknown
     * @param capacityType the capacity type, or null while unknown
     * @param hostname     the node's name, or the claim's while it has none
     */
    static Map<String, String> node(NodePool pool, Requirements reqs, InstanceType type, String zone, String capacityType,
                                    String hostname) {
        Map<String, String> labels = new HashMap<>(type.labels());
        labels.putAll(launch(pool, reqs));
        labels.putAll(dev.gantry.core.capacity.CostLimit.labels(pool.name(), type.name(), zone, capacityType)); // the offering's, as priced
        labels.put(WellKnownLabels.HOSTNAME, hostname);
        return labels;
    }
}
