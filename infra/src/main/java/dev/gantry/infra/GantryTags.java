package dev.gantry.infra;

/**
 * The AWS tag keys Gantry writes on what it launches, and which IAM conditions key on. They live under
 * {@code gantry.dev/} so that a cluster can run Karpenter next to Gantry: Karpenter's policy keys on
 * {@code karpenter.sh/*} and {@code kubernetes.io/cluster/*}, so neither controller can touch the other's instances.
 */
public final class GantryTags {
    /** Value: the EKS cluster name. Required on every instance, fleet and launch template Gantry creates. */
    public static final String CLUSTER = "gantry.dev/cluster";
    /** Value: the NodePool name. */
    public static final String NODEPOOL = "gantry.dev/nodepool";
    /**
     * Value: the NodeClaim name. The three tags are written at launch; on a running instance only by adoption, on this
     * cluster's Karpenter's instances ({@link ControllerPolicy#adopt()}).
     */
    public static final String NODECLAIM = "gantry.dev/nodeclaim";

    private GantryTags() {
    }
}
