package dev.gantry.handlers.attach;

import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;

/** Whether EKS Auto Mode runs its own Karpenter on the cluster: DescribeCluster's {@code computeConfig.enabled}. */
final class AutoMode {
    private AutoMode() {
    }

    /** @throws software.amazon.awssdk.services.eks.model.ResourceNotFoundException if there is no such cluster */
    static boolean computeEnabled(EksClient eks, String clusterName) {
        Cluster c = eks.describeCluster(b -> b.name(clusterName)).cluster();
        return c.computeConfig() != null && Boolean.TRUE.equals(c.computeConfig().enabled());
    }
}
