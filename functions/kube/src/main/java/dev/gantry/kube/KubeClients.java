package dev.gantry.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Builds fabric8 clients from explicit settings only: never a kubeconfig file, the environment or a service account,
 * because a Lambda has none of them and a stray {@code ~/.kube/config} on a developer machine must not leak in. Their
 * serialization skips what Gantry never reads while decoding ({@link KubeSerialization}).
 */
public final class KubeClients {
    /**
     * Lambda budgets are seconds; a hung API server must fail fast and be retried through SQS. The same figures are
     * {@code CallTimeouts.DEFAULT.kube()} (config module), which the simulator models; a handlers test keeps them equal.
     */
    public static final int CONNECT_TIMEOUT_MS = 3_000;
    public static final int REQUEST_TIMEOUT_MS = 10_000;
    /** One quick retry for a blip (a 5xx, a timed-out request); anything longer is the queue's job. */
    public static final int RETRY_BACKOFF_LIMIT = 1;
    public static final int RETRY_BACKOFF_INTERVAL_MS = 200;

    private KubeClients() {
    }

    /**
     * A client for an EKS cluster.
     *
     * @param endpoint     the API server URL from {@code DescribeCluster}
     * @param caDataBase64 the cluster's certificate authority data (base64 PEM) from {@code DescribeCluster}; the only CA trusted
     * @param bearerToken  asked for a token on every request, so a refreshed token is used as soon as it exists
     * @throws IllegalArgumentException when the endpoint is not https or the CA data is not base64
     */
    public static KubernetesClient forEks(String endpoint, String caDataBase64, Supplier<String> bearerToken) {
        return new KubernetesClientBuilder().withConfig(eksConfig(endpoint, caDataBase64, bearerToken))
                .withKubernetesSerialization(KubeSerialization.create()).build();
    }

    /** The configuration {@link #forEks} builds a client from. */
    static Config eksConfig(String endpoint, String caDataBase64, Supplier<String> bearerToken) {
        Objects.requireNonNull(bearerToken, "bearerToken");
        if (endpoint == null || !endpoint.startsWith("https://")) {
            throw new IllegalArgumentException("EKS endpoint must be an https URL, got '" + endpoint + "'");
        }
        if (caDataBase64 == null || caDataBase64.isBlank()) {
            throw new IllegalArgumentException("EKS certificate authority data is empty");
        }
        try {
            Base64.getMimeDecoder().decode(caDataBase64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("EKS certificate authority data is not base64: " + e.getMessage(), e);
        }
        return base(endpoint)
                .withCaCertData(caDataBase64.strip())
                .withOauthTokenProvider(bearerToken::get)
                .build();
    }

    /** A client for a plain URL without credentials: the fabric8 mock server and local tests. */
    public static KubernetesClient forUrl(String url) {
        Config config = base(url).withTrustCerts(true).build();
        return new KubernetesClientBuilder().withConfig(config).withKubernetesSerialization(KubeSerialization.create()).build();
    }

    private static ConfigBuilder base(String url) {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withConnectionTimeout(CONNECT_TIMEOUT_MS)
                .withRequestTimeout(REQUEST_TIMEOUT_MS)
                .withRequestRetryBackoffLimit(RETRY_BACKOFF_LIMIT)
                .withRequestRetryBackoffInterval(RETRY_BACKOFF_INTERVAL_MS);
    }
}
