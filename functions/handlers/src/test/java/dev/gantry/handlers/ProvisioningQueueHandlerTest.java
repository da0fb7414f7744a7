package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProvisioningQueueHandlerTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:10Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String HINT = "{\"reason\":\"pod-created\",\"namespace\":\"default\",\"name\":\"web\",\"uid\":\"u1\",\"at\":\"2025-06-01T12:00:00Z\"}";
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final FirstOfferingCloud cloud = new FirstOfferingCloud();
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ObjectMapper json = new ObjectMapper();

    static NodeClass nodeClass() {
        return new NodeClass("default", null, null, "AL2023", List.of(), List.of(), List.of(), "NodeRole", null, null, Map.of(),
                List.of(), null, null, null, null, null);
    }

    static NodePool pool() {
        return new NodePool("default", Map.of(), new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), null, null), null, Map.of(), null, null);
    }

    private static final GantryConfig CONFIG = new GantryConfig(List.of(pool()), List.of(nodeClass()), "us-east-1",
            List.of("us-east-1a", "us-east-1b"));
    private static final InstanceTypeProvider TYPES = BuiltInCatalog.load("us-east-1", List.of("us-east-1a", "us-east-1b"));

    private ProvisioningQueueHandler handler(ClusterReader reader) {
        Provisioner p = new Provisioner(reader, cluster, store, cloud, TYPES, CONFIG, CLOCK);
        HintBatchService service = new HintBatchService(p, reader, store, n -> { }, CLOCK);
        return new ProvisioningQueueHandler(service, new HintCodec(json),
                new EmbeddedMetrics(json, "test-cluster", new PrintStream(stdout, true, StandardCharsets.UTF_8)), CLOCK,
                SnapStartPrimer.NONE);
    }

    private static SQSEvent batch(String... bodies) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (int i = 0; i < bodies.length; i++) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId("m" + (i + 1));
            m.setBody(bodies[i]);
            records.add(m);
        }
        SQSEvent e = new SQSEvent();
        e.setRecords(records);
        return e;
    }

    private static List<String> failed(SQSBatchResponse r) {
        return r.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    @Test
    void malformedRecordFailsAloneAndTheRestProvisionOnce() {
        cluster.putPod(Pod.builder("default", "web").uid("u1").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(10), null, null)).build());

        SQSBatchResponse r = handler(cluster).handleRequest(batch(HINT, "{not json", "{\"reason\":\"nope\"}", HINT), null);

        assertThat(failed(r)).containsExactly("m2", "m3");
        assertThat(cloud.requests).hasSize(1);
        assertThat(store.marker(SweepService.LAST_HINT)).hasValue(NOW);
        assertThat(stdout.toString(StandardCharsets.UTF_8)).contains(
                "\"PendingPods\":1.0", "\"PendingPodAgeSeconds\":10.0", "\"NodesLaunched\":1.0",
                "\"Namespace\":\"Gantry\"", "\"ClusterName\":\"test-cluster\"");
    }

    @Test
    void failedRunReportsEveryRecordSoTheBatchIsRedelivered() {
        SQSBatchResponse r = handler(new Unreachable()).handleRequest(batch(HINT, "garbage", HINT), null);

        assertThat(failed(r)).containsExactlyInAnyOrder("m1", "m2", "m3");
        assertThat(cloud.requests).isEmpty();
    }

    @Test
    void batchOfOnlyMalformedRecordsDoesNotProvision() {
        SQSBatchResponse r = handler(new Unreachable()).handleRequest(batch("[]"), null);

        assertThat(failed(r)).containsExactly("m1");
        assertThat(store.marker(SweepService.LAST_HINT)).isEmpty();
    }

    @Test
    void emptyBatchSucceeds() {
        assertThat(failed(handler(cluster).handleRequest(new SQSEvent(), null))).isEmpty();
    }

    @Test
    void primerWarmsCodecCatalogueAndSchedulerWithoutTouchingTheWorld() {
        List<String> calls = new ArrayList<>();
        ProvisionerPrimer primer = new ProvisionerPrimer(new HintCodec(json), CONFIG, TYPES, () -> calls.add("read"),
                () -> calls.add("refresh"));
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(
                new HintBatchService(new Provisioner(cluster, cluster, store, cloud, TYPES, CONFIG, CLOCK), cluster, store,
                        n -> { }, CLOCK), new HintCodec(json), new EmbeddedMetrics(json, "c", System.out), CLOCK, primer);

        h.beforeCheckpoint(null);
        h.afterRestore(null);

        assertThat(primer.primedPods()).isEqualTo(1);
        assertThat(calls).containsExactly("read", "refresh");
        assertThat(cloud.requests).isEmpty();
        assertThat(store.list(NOW)).isEmpty();
        assertThat(cluster.events()).isEmpty();
    }

    /** An API server that does not answer. */
    private static final class Unreachable implements ClusterReader {
        private static ClusterException down() {
            return new ClusterException(0, "connection refused", null);
        }

        @Override public List<Pod> pods() { throw down(); }
        @Override public List<Node> nodes() { throw down(); }
        @Override public List<DaemonSet> daemonSets() { throw down(); }
        @Override public List<PodDisruptionBudget> podDisruptionBudgets() { throw down(); }
        @Override public Set<String> nodesWithVolumeAttachments() { throw down(); }
        @Override public Map<String, Map<String, String>> namespaceLabels() { throw down(); }
    }
}
