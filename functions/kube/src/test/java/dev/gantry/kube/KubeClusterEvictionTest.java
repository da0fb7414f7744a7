package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Eviction API's answers. CRUD mode answers every eviction with 409, so each test sets an expectation; the
 * server never deletes the pod itself (a real API server would), which is the caller's concern, not the adapter's.
 */
class KubeClusterEvictionTest {
    static MockApi api;
    static KubeCluster cluster;

    @BeforeAll
    static void start() {
        api = new MockApi();
        cluster = api.cluster(Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static Pod pod(String name) {
        return Pod.builder("shop", name).uid("5f1c-" + name).build();
    }

    private static Status status(int code, String reason, String message) {
        return new StatusBuilder().withStatus(code < 300 ? "Success" : "Failure").withCode(code).withReason(reason)
                .withMessage(message).build();
    }

    private static void answer(String pod, int code, Status body) {
        api.server.expect().post().withPath("/api/v1/namespaces/shop/pods/" + pod + "/eviction").andReturn(code, body).once();
    }

    @Test
    void evictsThroughPolicyV1WithTheUidAsPrecondition() throws InterruptedException {
        answer("web-1", 201, status(201, null, null));
        assertThat(cluster.evict(pod("web-1"))).isEqualTo(EvictionResult.EVICTED);
        RecordedRequest sent = api.server.getLastRequest();
        String body = sent.getBody().readUtf8();
        assertThat(body).contains("\"apiVersion\":\"policy/v1\"", "\"kind\":\"Eviction\"", "\"name\":\"web-1\"",
                "\"namespace\":\"shop\"", "\"uid\":\"5f1c-web-1\"");
    }

    @Test
    void answersBlockedByPdbAtOnceWithoutRetrying() {
        answer("web-2", 429, status(429, "TooManyRequests",
                "Cannot evict pod as it would violate the pod's disruption budget."));
        int before = api.server.getRequestCount();
        long start = System.nanoTime();
        assertThat(cluster.evict(pod("web-2"))).isEqualTo(EvictionResult.BLOCKED_BY_PDB);
        // fabric8's default would back off for ~19 s; the product retries through SQS instead.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(api.server.getRequestCount() - before).isEqualTo(1);
    }

    @Test
    void answersNotFoundForAPodAlreadyGone() {
        answer("gone", 404, status(404, "NotFound", "pods \"gone\" not found"));
        assertThat(cluster.evict(pod("gone"))).isEqualTo(EvictionResult.NOT_FOUND);
    }

    @Test
    void answersNotFoundWhenTheUidPreconditionMeetsASuccessorPod() {
        answer("db-0", 409, status(409, "Conflict", "Precondition failed: UID in precondition: 5f1c-db-0, UID in object meta: 77aa"));
        assertThat(cluster.evict(pod("db-0"))).isEqualTo(EvictionResult.NOT_FOUND);
    }

    @Test
    void surfacesAServerErrorAsARetryableClusterExceptionAfterOneTry() {
        answer("web-3", 500, status(500, "InternalError", "This pod has more than one PodDisruptionBudget"));
        int before = api.server.getRequestCount();
        assertThatThrownBy(() -> cluster.evict(pod("web-3"))).isInstanceOfSatisfying(ClusterException.class, e -> {
            assertThat(e.status()).isEqualTo(500);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).contains("evict pod shop/web-3", "more than one PodDisruptionBudget");
        });
        assertThat(api.server.getRequestCount() - before).isEqualTo(1);
    }

    @Test
    void leavesOutThePreconditionForAPodNotReadFromTheCluster() throws InterruptedException {
        answer("manifest", 201, status(201, null, null));
        assertThat(cluster.evict(Pod.builder("shop", "manifest").build())).isEqualTo(EvictionResult.EVICTED);
        assertThat(api.server.getLastRequest().getBody().readUtf8()).doesNotContain("preconditions");
    }

    @Test
    void reportsAnUnreachableApiServerAsStatusZero() {
        KubeCluster down = new KubeCluster(KubeClients.forUrl("http://127.0.0.1:9"), Clock.systemUTC());
        assertThatThrownBy(down::nodes).isInstanceOfSatisfying(ClusterException.class, e -> {
            assertThat(e.status()).isZero();
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).startsWith("list nodes failed");
        });
    }
}
