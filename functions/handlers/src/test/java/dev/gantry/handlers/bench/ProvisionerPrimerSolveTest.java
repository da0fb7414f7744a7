package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.handlers.PrimingWorkload;
import dev.gantry.handlers.ProvisionerPrimer;
import dev.gantry.handlers.ProvisioningQueueHandler;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The provisioner's SnapStart priming runs the representative solve ({@link PrimingWorkload}) over the configured
 * pools, and leaves the world as it found it: the same in-memory ports then serve a real invocation that does launch.
 * (Here, beside the priming benchmark that measures what the solve buys.)
 */
class ProvisionerPrimerSolveTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:10Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");

    private final ObjectMapper json = new ObjectMapper();
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final List<LaunchRequest> launches = new ArrayList<>();
    private final List<String> reads = new ArrayList<>();

    @Test
    void primingSolvesTheRepresentativeProblemOverEveryPoolAndLaunchesAndWritesNothing() {
        LoadResult loaded = ConfigLoader.loadString("GANTRY_CONFIG", ProvisionerWorld.CONFIG, LoadOptions.DEFAULT);
        assertThat(loaded.ok()).as("%s", loaded.errors()).isTrue();
        GantryConfig config = new GantryConfig(loaded.nodePools(), loaded.nodeClasses(), "us-east-1", ZONES);
        InstanceTypeProvider types = BuiltInCatalog.load("us-east-1", ZONES);
        cluster.putPod(Pod.builder("default", "web").uid("uid-web").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(30), null, null)).build());
        ProvisionerPrimer primer = new ProvisionerPrimer(new HintCodec(json), config, types, () -> {
            reads.add("store " + store.list(NOW).size());
            reads.add("pods " + cluster.pods().size());
        }, () -> { });
        ProvisioningQueueHandler handler = new ProvisioningQueueHandler(new HintBatchService(new Provisioner(cluster, cluster, store,
                new RecordingCloud(), types, config, CLOCK), cluster, store, n -> { }, CLOCK), new HintCodec(json),
                new EmbeddedMetrics(json, "test-cluster", new PrintStream(new ByteArrayOutputStream(), true)), CLOCK, primer);

        handler.beforeCheckpoint(null);

        assertThat(primer.representativeSolves()).isEqualTo(1);
        assertThat(primer.representativePlaced()).as("pods the representative solve placed")
                .isGreaterThan(PrimingWorkload.PODS / 2).isLessThanOrEqualTo(PrimingWorkload.PODS);
        assertThat(primer.primingNanos()).isPositive();
        assertThat(reads).containsExactly("store 0", "pods 1");
        assertThat(launches).isEmpty();
        assertThat(store.list(NOW)).isEmpty();
        assertThat(cluster.events()).isEmpty();
        assertThat(cluster.pod("default/web").nodeName()).isNull();

        SQSEvent hint = new SQSEvent();
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId("m1");
        m.setBody("{\"reason\":\"pod-created\",\"namespace\":\"default\",\"name\":\"web\",\"uid\":\"uid-web\",\"at\":\"2025-06-01T12:00:00Z\"}");
        hint.setRecords(List.of(m));
        assertThat(handler.handleRequest(hint, null).getBatchItemFailures()).isEmpty();
        assertThat(launches).as("the same ports launch for a real hint").hasSize(1);
    }

    /** Launches the cheapest allowed offering of the first option, and records every request. */
    private final class RecordingCloud implements CloudProvider {
        @Override
        public LaunchResult launch(LaunchRequest r) {
            launches.add(r);
            var t = r.options().getFirst();
            var o = t.cheapestOffering(r.requirements());
            return new LaunchResult(new CloudInstance("i-0000000000000001", t.name(), o.zone(), o.capacityType(), "pending", NOW, null,
                    Map.of(CloudInstance.TAG_NODECLAIM, r.clientToken())), List.of());
        }

        @Override public void terminate(List<String> ids) { }
        @Override public List<CloudInstance> listInstances() { return List.of(); }
        @Override public Optional<CloudInstance> describe(String id) { return Optional.empty(); }
    }
}
