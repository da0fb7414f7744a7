package dev.gantry.core.cloud;

import java.util.Map;

/**
 * The tags Karpenter v1 (the AWS provider) puts on the instances it launches, as Gantry reads them to adopt those
 * instances. At launch: the NodeClass's tags, then {@code kubernetes.io/cluster/<cluster>=owned},
 * {@code eks:eks-cluster-name=<cluster>}, {@code karpenter.sh/nodepool} and {@code karpenter.k8s.aws/ec2nodeclass};
 * once the node registered, its tagging controller adds {@code karpenter.sh/nodeclaim} (the NodeClaim's name) and
 * {@code Name} (the node's). Instances launched before v1 may also carry {@code karpenter.sh/managed-by=<cluster>},
 * which v1 no longer writes or reads.
 *
 * <p>Karpenter's own IAM policy scopes its writes on {@code kubernetes.io/cluster/<cluster>=owned} plus the presence of
 * {@code karpenter.sh/nodepool}; Gantry recognises Karpenter's instances by exactly that pair, so what it lists is what
 * its adoption grant lets it retag.
 */
public final class KarpenterTags {
    public static final String NODEPOOL = "karpenter.sh/nodepool";
    public static final String NODECLAIM = "karpenter.sh/nodeclaim";
    public static final String NODECLASS = "karpenter.k8s.aws/ec2nodeclass";
    public static final String EKS_CLUSTER_NAME = "eks:eks-cluster-name";
    /** The value of {@link #clusterKey} on an instance a cluster's Karpenter launched. */
    public static final String OWNED = "owned";

    private KarpenterTags() {
    }

    /** {@code kubernetes.io/cluster/<cluster>}: {@value #OWNED} on what this cluster's Karpenter launched. */
    public static String clusterKey(String cluster) {
        return "kubernetes.io/cluster/" + cluster;
    }

    /** Whether {@code tags} say this cluster's Karpenter launched the instance for a NodePool. */
    public static boolean launchedFor(String cluster, Map<String, String> tags) {
        return OWNED.equals(tags.get(clusterKey(cluster))) && tags.get(NODEPOOL) != null;
    }

    /** The tags Karpenter v1.14 puts on an instance it launched and whose node registered (for tests and seeds). */
    public static Map<String, String> ofRegistered(String cluster, String nodePool, String nodeClass, String nodeClaim,
                                                   String nodeName) {
        return Map.of(clusterKey(cluster), OWNED, EKS_CLUSTER_NAME, cluster, NODEPOOL, nodePool, NODECLASS, nodeClass,
                NODECLAIM, nodeClaim, "Name", nodeName);
    }
}
