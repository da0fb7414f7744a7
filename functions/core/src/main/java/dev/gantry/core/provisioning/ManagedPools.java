package dev.gantry.core.provisioning;

import java.util.Set;

/**
 * The NodePools Gantry manages when another autoscaler (Karpenter, EKS Auto Mode) runs in the same cluster: the user
 * names them ({@code cdk deploy -c nodePools=a,b}, {@code GANTRY_NODE_POOLS}), and every other NodePool is the other
 * autoscaler's, so Gantry neither launches for it nor disrupts its nodes. Apply {@link #of} to the configuration each
 * run reads, before any decision; with no names, Gantry manages every NodePool.
 */
public final class ManagedPools {
    private ManagedPools() {
    }

    /** {@code config} with only the named NodePools (all of them when {@code names} is empty); all else kept, NodeOverlays too. */
    public static GantryConfig of(GantryConfig config, Set<String> names) {
        if (names.isEmpty()) {
            return config;
        }
        return config.withNodePools(config.nodePools().stream().filter(p -> names.contains(p.name())).toList());
    }
}
