package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class KubeClientsTest {
    static final String ENDPOINT = "https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com";
    static MockApi api;
    static String ca;

    @BeforeAll
    static void start() throws IOException {
        api = new MockApi();
        try (InputStream in = KubeClientsTest.class.getResourceAsStream("/eks-ca.b64")) {
            ca = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @Test
    void buildsAnEksConfigFromExplicitSettingsOnly() {
        Config c = KubeClients.eksConfig(ENDPOINT, ca, () -> "k8s-aws-v1.token");
        assertThat(c.getMasterUrl()).startsWith(ENDPOINT);
        assertThat(c.getCaCertData()).isEqualTo(ca);
        assertThat(c.isTrustCerts()).isFalse();
        assertThat(c.getOauthTokenProvider().getToken()).isEqualTo("k8s-aws-v1.token");
        assertThat(c.getConnectionTimeout()).isEqualTo(3_000);
        assertThat(c.getRequestTimeout()).isEqualTo(10_000);
        assertThat(c.getRequestRetryBackoffLimit()).isEqualTo(1);
        // Nothing leaks in from a kubeconfig, the environment or a service account.
        assertThat(c.getUsername()).isNull();
        assertThat(c.getClientCertData()).isNull();
        assertThat(c.getClientCertFile()).isNull();
        assertThat(c.getOauthToken()).isNull();
    }

    @Test
    void buildsAClientThatTrustsTheClusterCa() {
        try (KubernetesClient client = KubeClients.forEks(ENDPOINT, ca, () -> "t")) {
            assertThat(client.getConfiguration().getMasterUrl()).startsWith(ENDPOINT);
        }
    }

    @Test
    void asksForTheTokenOnEveryRequestSoARefreshedOneIsUsed() throws InterruptedException {
        AtomicReference<String> token = new AtomicReference<>("k8s-aws-v1.first");
        Config eks = KubeClients.eksConfig(ENDPOINT, ca, token::get);
        // Same settings and token provider, aimed at the plain-http mock server.
        Config local = new ConfigBuilder(eks).withMasterUrl(api.url()).withCaCertData(null).build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(local).build()) {
            client.nodes().list();
            assertThat(api.server.getLastRequest().getHeader("Authorization")).isEqualTo("Bearer k8s-aws-v1.first");
            token.set("k8s-aws-v1.second");
            client.nodes().list();
            assertThat(api.server.getLastRequest().getHeader("Authorization")).isEqualTo("Bearer k8s-aws-v1.second");
        }
    }

    @Test
    void rejectsAnEndpointThatIsNotHttps() {
        assertThatThrownBy(() -> KubeClients.forEks("http://cluster.example", ca, () -> "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("https");
    }

    @Test
    void rejectsMissingOrMalformedCaData() {
        assertThatThrownBy(() -> KubeClients.forEks(ENDPOINT, " ", () -> "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> KubeClients.forEks(ENDPOINT, "not*base64!", () -> "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not base64");
    }
}
