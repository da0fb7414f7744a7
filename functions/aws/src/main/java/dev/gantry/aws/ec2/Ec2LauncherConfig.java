package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.NodeRoles;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * What the EC2 launcher knows about the cluster and deployment, from EKS DescribeCluster and the environment.
 *
 * @param clusterName            the EKS cluster name (also the value of the {@code gantry.dev/cluster} tag)
 * @param kubernetesVersion      {@code 1.33}: picks the EKS-optimized AMI parameters
 * @param endpoint               the API server URL
 * @param certificateAuthority   the cluster CA as EKS returns it: base64 of the PEM
 * @param serviceCidr            the service CIDR, IPv4 or (on an IPv6 cluster) IPv6; the cluster DNS is its tenth
 *                               address
 * @param defaultInstanceProfile the deployment's node instance profile: for a NodeClass that names neither a role nor
 *                               a profile (EKS Auto Mode's), or a role the deployment cannot pass ({@link NodeRoles})
 * @param clock                  the only source of time (caches, marks)
 * @param nodeRoleProfiles       the node roles the deployment can pass to EC2, by role name, each with the instance
 *                               profile made for it at deploy (the deployment's own role and those named with
 *                               {@code -c nodeRoles=})
 */
public record Ec2LauncherConfig(String clusterName, String kubernetesVersion, String endpoint,
                                String certificateAuthority, String serviceCidr, String defaultInstanceProfile,
                                Clock clock, Map<String, String> nodeRoleProfiles) {
    /** A deployment whose only node role is the one behind {@code defaultInstanceProfile}. */
    public Ec2LauncherConfig(String clusterName, String kubernetesVersion, String endpoint, String certificateAuthority,
                             String serviceCidr, String defaultInstanceProfile, Clock clock) {
        this(clusterName, kubernetesVersion, endpoint, certificateAuthority, serviceCidr, defaultInstanceProfile, clock,
                Map.of());
    }

    public Ec2LauncherConfig {
        nodeRoleProfiles = Map.copyOf(nodeRoleProfiles == null ? Map.of() : nodeRoleProfiles);
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(kubernetesVersion, "kubernetesVersion");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(certificateAuthority, "certificateAuthority");
        Objects.requireNonNull(serviceCidr, "serviceCidr");
        Objects.requireNonNull(clock, "clock");
        if (!kubernetesVersion.matches("\\d+\\.\\d+")) {
            throw new IllegalArgumentException("kubernetesVersion must be major.minor, got " + kubernetesVersion);
        }
    }

    /**
     * The cluster DNS address: the tenth address of the service CIDR, as EKS assigns kube-dns ({@code 10.100.0.10};
     * {@code fd30:1c53:5f8a::a} on an IPv6 cluster).
     */
    public String clusterDnsIp() {
        return ServiceCidr.tenthAddress(serviceCidr);
    }

    /** Whether the cluster is IPv6: its pods and services have IPv6 addresses, and its nodes an IPv6 primary address. */
    public boolean ipv6() {
        return serviceCidr.contains(":");
    }

    /** The node roles the deployment can pass, and so each NodeClass's instance profile ({@link NodeRoles#of}). */
    public NodeRoles nodeRoles() {
        return new NodeRoles(defaultInstanceProfile, nodeRoleProfiles);
    }
}
