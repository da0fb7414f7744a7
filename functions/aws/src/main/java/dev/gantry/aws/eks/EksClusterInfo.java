package dev.gantry.aws.eks;

import java.net.URI;
import java.util.Base64;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;

/**
 * What a client needs to reach an EKS cluster's API server, and what node user data needs to join it.
 *
 * @param endpoint                 the API server URL ({@code https://...eks.amazonaws.com})
 * @param certificateAuthorityData the cluster CA bundle, PEM, base64-encoded exactly as EKS returns it
 * @param kubernetesVersion        {@code major.minor}, such as {@code 1.33}
 * @param serviceCidr              the Service CIDR (kubelet's cluster DNS derives from it): IPv4, or IPv6 on an IPv6
 *                                 cluster (EKS gives one or the other)
 * @param arn                      the cluster's ARN, or null when not known
 */
public record EksClusterInfo(String name, String endpoint, String certificateAuthorityData, String kubernetesVersion,
                             String serviceCidr, String arn) {
    public EksClusterInfo(String name, String endpoint, String certificateAuthorityData, String kubernetesVersion,
                          String serviceCidr) {
        this(name, endpoint, certificateAuthorityData, kubernetesVersion, serviceCidr, null);
    }

    public EksClusterInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(certificateAuthorityData, "certificateAuthorityData");
        Objects.requireNonNull(kubernetesVersion, "kubernetesVersion");
        Base64.getDecoder().decode(certificateAuthorityData); // fails fast on a corrupt CA rather than at TLS time
    }

    /**
     * Reads the cluster with {@code DescribeCluster}.
     *
     * @throws IllegalStateException if the cluster has no endpoint or CA yet (it is still being created)
     * @throws software.amazon.awssdk.services.eks.model.ResourceNotFoundException if there is no such cluster
     */
    public static EksClusterInfo describe(EksClient eks, String clusterName) {
        Cluster c = eks.describeCluster(b -> b.name(clusterName)).cluster();
        if (c.endpoint() == null || c.certificateAuthority() == null || c.certificateAuthority().data() == null) {
            throw new IllegalStateException("EKS cluster " + clusterName + " is " + c.statusAsString()
                    + " and has no endpoint or CA yet");
        }
        // An IPv6 cluster has serviceIpv6Cidr and no IPv4 one; Karpenter reads them in this order too.
        var network = c.kubernetesNetworkConfig();
        String cidr = network == null ? null
                : network.serviceIpv4Cidr() != null ? network.serviceIpv4Cidr() : network.serviceIpv6Cidr();
        return new EksClusterInfo(c.name(), c.endpoint(), c.certificateAuthority().data(), c.version(), cidr, c.arn());
    }

    /** The CA bundle as PEM text. */
    public String certificateAuthorityPem() {
        return new String(Base64.getDecoder().decode(certificateAuthorityData), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A production client: URL-connection HTTP with {@code CallTimeouts.DEFAULT.control()}, the given region, the default credentials chain. */
    public static EksClient client(Region region) {
        dev.gantry.config.deployment.CallTimeouts.Budget b = dev.gantry.config.deployment.CallTimeouts.DEFAULT.control();
        return EksClient.builder().region(region).httpClient(dev.gantry.aws.client.ClientTimeouts.http(b))
                .overrideConfiguration(dev.gantry.aws.client.ClientTimeouts.override(b)).build();
    }

    /** A client for a stub or LocalStack at {@code endpoint}, with explicit credentials. */
    public static EksClient client(Region region, URI endpoint, AwsCredentialsProvider credentials) {
        return EksClient.builder().region(region).endpointOverride(endpoint).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create()).build();
    }
}
