package dev.gantry.handlers.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.Composition;
import dev.gantry.handlers.Environment;
import dev.gantry.handlers.SweepHandler;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The deployment's consolidation settings reach the decision: the function environment the CDK app writes
 * ({@code GANTRY_SPOT_TO_SPOT_CONSOLIDATION}, {@code GANTRY_CONSOLIDATION_STRATEGY}) is read by the composition root at
 * cold start, and what it reads decides whether the sweep replaces a spot node with a cheaper spot node.
 */
class DeployedConsolidationSettingsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final long GI = 1L << 30;
    static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    private static Composition composition(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        env.put(Environment.REGION, "us-east-1");
        return new Composition(Environment.of(env));
    }

    @Test
    void theCompositionRootReadsTheDeployedSettingsAndUnsetMeansTheDeploymentDefault() {
        assertThat(composition(Map.of()).consolidationSettings()).isEqualTo(DeploymentSettings.DEFAULT.consolidation());
        assertThat(composition(Map.of(Environment.SPOT_TO_SPOT_CONSOLIDATION, "true",
                Environment.CONSOLIDATION_STRATEGY, "karpenter")).consolidationSettings())
                .isEqualTo(new ConsolidationSettings(true, ConsolidationSettings.Strategy.KARPENTER));
    }

    @Test
    void aMalformedSettingFailsTheColdStartNamingTheVariable() {
        assertThatThrownBy(() -> composition(Map.of(Environment.SPOT_TO_SPOT_CONSOLIDATION, "on")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable GANTRY_SPOT_TO_SPOT_CONSOLIDATION: expected true or false, got 'on'");
        assertThatThrownBy(() -> composition(Map.of(Environment.CONSOLIDATION_STRATEGY, "cheapest")))
                .hasMessage("environment variable GANTRY_CONSOLIDATION_STRATEGY: expected gantry or karpenter, got 'cheapest'");
    }

    @Test
    void withSpotToSpotDeployedTheSweepReplacesASpotNodeByACheaperSpotNodeAndWithoutItKeepsIt() {
        assertThat(sweepDecisions(Map.of(Environment.SPOT_TO_SPOT_CONSOLIDATION, "true"))).isEqualTo(1);
        assertThat(sweepDecisions(Map.of(Environment.SPOT_TO_SPOT_CONSOLIDATION, "false"))).isEqualTo(0);
        assertThat(sweepDecisions(Map.of())).as("the deployment default: Karpenter's gate is off").isEqualTo(0);
    }

    /** One spot node of a big type running one small pod, twenty cheaper 2-vCPU spot types: what the sweep decides. */
    private static int sweepDecisions(Map<String, String> env) {
        ConsolidationSettings settings = composition(env).consolidationSettings();
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        InMemoryCluster cluster = new InMemoryCluster();
        InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
        WorkQueue queue = (body, group, dedup, delay) -> { };
        NodePool pool = new NodePool("default", Map.of(), new NodePool.Template(null, null, null, null, null,
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()),
                new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                        List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of()))), null, null, null);
        List<InstanceType> types = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            types.add(type("t" + i, 2, 0.10 + 0.01 * i));
        }
        InstanceType big = type("big", 16, 2.0);
        types.add(big);
        CloudProvider cloud = new CloudProvider() {
            public LaunchResult launch(LaunchRequest r) { throw new UnsupportedOperationException(); }
            public void terminate(List<String> ids) { }
            public List<CloudInstance> listInstances() { return List.of(); }
            public Optional<CloudInstance> describe(String id) { return Optional.empty(); }
        };
        TerminationService terminations = new TerminationService(cluster, cluster, store, cloud, queue,
                Map.of("default", pool), clock);
        ConsolidationService consolidation = new ConsolidationService(cluster, cluster, store, terminations,
                new QueueHints((b, g, d, delay) -> { }, new HintCodec(JSON), store, "demo"), queue,
                (view, at) -> List.of(new SchedulingInput.PoolOffer(pool, types, Resources.ZERO, 0)),
                (plan, name, t) -> { throw new AssertionError("the sweep only decides; validation records the replacement"); }, settings, clock);
        Instant at = NOW.minus(Duration.ofHours(1));
        store.create(NodeClaim.launching("a", "default", "h", List.of(), List.of("big"), List.of(), "big", "us-east-1a",
                "spot", 0.6, at).launched("i-a", "big", "us-east-1a", "spot", 0.6, at).registered("node-a", at).initialized(at));
        cluster.putNode(new Node("node-a", "aws:///us-east-1a/i-a", Map.of(WellKnownLabels.NODEPOOL, "default",
                WellKnownLabels.INSTANCE_TYPE, "big", WellKnownLabels.ZONE, "us-east-1a", WellKnownLabels.CAPACITY_TYPE, "spot",
                WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux", Node.INITIALIZED_LABEL, "true"), Map.of(), List.of(),
                big.allocatable(), true, false, false, at, List.of(Node.FINALIZER), null));
        cluster.putPod(Pod.builder("default", "web-a").uid("u-a").nodeName("node-a").owner("ReplicaSet", "web")
                .requests(Resources.of(500, GI)).status(new Pod.Status("Running", false, at, null, null)).build());
        SweepHandler sweep = new SweepHandler(new SweepService("demo", cluster, cluster, store, cloud, terminations,
                (reason, pod, node, t) -> { }, Map.of("default", pool), type -> Optional.of(InstanceFacts.NONE), clock)
                .withConsolidation(consolidation), new EmbeddedMetrics(JSON, "demo", new PrintStream(new ByteArrayOutputStream())),
                clock);
        return ((Number) sweep.handleRequest(Map.of(), null).get("consolidationDecided")).intValue();
    }

    /**
     * Spot at 30% of {@code price}, on-demand at ten times it: no on-demand node is cheaper than the spot node, so
     * without the gate nothing replaces it (Gantry replaces a spot node by a cheaper on-demand one: PriceRule).
     */
    private static InstanceType type(String name, int cpu, double price) {
        return new InstanceType(name, Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                new Resources(cpu * 1000L, cpu * 2 * GI, 100 * GI, 110, Map.of()), Resources.ZERO,
                List.of(Offering.of("us-east-1a", "on-demand", price * 10), Offering.of("us-east-1a", "spot", price * 0.3)));
    }
}
