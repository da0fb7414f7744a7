package dev.gantry.kube;

import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Clock;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One fabric8 mock API server per test class, in CRUD mode with expectations taking precedence (the mixed dispatcher).
 * The JUnit extension would also start a second server before every test; this starts exactly one.
 */
final class MockApi implements AutoCloseable {
    private static final Logger QUIET = Logger.getLogger("io.fabric8.mockwebserver");

    final KubernetesMockServer server;
    /** A plain client for setting the scene and checking results. */
    final NamespacedKubernetesClient client;

    MockApi() {
        QUIET.setLevel(Level.WARNING); // one INFO line per request otherwise
        // Expectations and the dispatcher must share one map, or expectations are never consulted.
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        client = server.createClient();
    }

    String url() {
        return client.getConfiguration().getMasterUrl();
    }

    /** The adapter under test, over its own client built the way production builds one. */
    KubeCluster cluster(Clock clock) {
        return new KubeCluster(KubeClients.forUrl(url()), clock);
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
