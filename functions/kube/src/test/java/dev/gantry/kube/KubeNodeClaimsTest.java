package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.crd.KarpenterCrd;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.status.ClaimProjection;
import dev.gantry.core.status.NodeClaimObjects;
import dev.gantry.core.status.NodeClaimProjector;
import dev.gantry.core.status.ObservedNodeClaim;
import dev.gantry.core.termination.TerminationRequest;
import dev.gantry.core.termination.TerminationService;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NodeClaim projection through {@link KubeNodeClaims} on the fabric8 mock server in CRUD mode with Gantry's CRDs
 * installed: what {@code kubectl get nodeclaims -o wide} shows, {@code kubectl delete nodeclaim} ending in a graceful
 * termination and the finalizer's removal, and every written object checked against the CRD's schema (which the mock
 * does not enforce).
 */
class KubeNodeClaimsTest {
    private static final Instant T0 = Instant.parse("2026-04-01T12:00:00Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private final Deque<String> queue = new ArrayDeque<>();
    private final Map<String, String> instances = new HashMap<>(); // id -> state
    private MockApi api;
    private InMemoryNodeClaimStore store;
    private TerminationService termination;
    private NodeClaimProjector projector;
    private GantryConfig config;

    @BeforeEach
    void start() {
        api = new MockApi();
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            api.client.apiextensions().v1().customResourceDefinitions()
                    .resource(Serialization.unmarshal(crd.manifest(), CustomResourceDefinition.class)).create();
        }
        LoadResult loaded = ConfigLoader.load(List.of(Path.of("../../samples/nodepools/seed000-v1.yaml")), LoadOptions.DEFAULT);
        config = new GantryConfig(loaded.nodePools(), loaded.nodeClasses(), "us-east-1", List.of());
        store = new InMemoryNodeClaimStore();
        KubeCluster cluster = api.cluster(clock);
        termination = new TerminationService(cluster, cluster, store, cloud(), (body, group, dedup, delay) -> queue.add(body),
                Map.of("seed000", config.nodePools().getFirst()), clock);
        ClaimProjection projection = new ClaimProjection(type -> Optional.of(new ClaimProjection.Capacity(
                Resources.of(2000, 8L << 30).with(Resources.PODS, 35), Resources.of(1930, 7L << 30).with(Resources.PODS, 35))),
                ClaimProjection.Drift.NONE);
        projector = new NodeClaimProjector(new KubeNodeClaims(KubeClients.forUrl(api.url())), projection, termination,
                () -> config);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void kubectlGetNodeclaimsWideShowsEveryColumnOfAnInitializedClaim() {
        store.create(initialized("seed000-abcde", "i-0abc"));

        NodeClaimProjector.Report r = projector.sync(store.list(now.get()), now.get());

        assertThat(r.created()).isEqualTo(1);
        GenericKubernetesResource o = object("seed000-abcde");
        Map<String, Object> json = asMap(o);
        CrdSchema crd = new CrdSchema(KarpenterCrd.NODE_CLAIM);
        Map<String, Object> columns = new java.util.LinkedHashMap<>();
        crd.printerColumns().forEach((name, path) -> columns.put(name, CrdSchema.select(json, path)));
        assertThat(columns).containsEntry("Type", "t3a.large").containsEntry("Capacity", "on-demand")
                .containsEntry("Zone", "us-east-1a").containsEntry("Node", "ip-10-0-1-5.ec2.internal")
                .containsEntry("Ready", "True").containsEntry("ID", "aws:///us-east-1a/i-0abc")
                .containsEntry("NodePool", "seed000").containsEntry("NodeClass", "seed000");
        assertThat(columns.get("Age")).isNotNull();
        // Not known to Gantry once the launch is recorded, nor drifted: empty columns, as kubectl prints <none>.
        assertThat(columns.get("ImageID")).isNull();
        assertThat(columns.get("Drifted")).isNull();
        assertThat(crd.violations(json)).isEmpty();
        assertThat(o.getMetadata().getFinalizers()).containsExactly("karpenter.sh/termination");
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) json.get("status");
        assertThat(status).containsEntry("capacity", Map.of("cpu", "2", "memory", "8Gi", "pods", "35"));
        assertThat(conditionTypes(json)).containsExactly("Launched", "Registered", "Initialized", "Ready", "Consolidatable");
    }

    @Test
    void aDriftedClaimShowsItsImageItsHashesAndDriftedTrue() {
        NodeClaim claim = store.create(initialized("seed000-drift", "i-0d1").withDrift(
                dev.gantry.core.lifecycle.DriftStamp.launched("np1", "gantry-1", "nc1", "gantry-1").drift("AMIDrift", now.get())));
        NodeClaimProjector withDrift = new NodeClaimProjector(new KubeNodeClaims(KubeClients.forUrl(api.url())),
                new ClaimProjection(ClaimProjection.CapacityOf.NONE, ClaimProjection.Drift.FROM_STAMP), termination, () -> config);

        withDrift.sync(List.of(claim), Map.of("i-0d1", "ami-0new"), now.get(), () -> true);

        GenericKubernetesResource o = object("seed000-drift");
        Map<String, Object> json = asMap(o);
        CrdSchema crd = new CrdSchema(KarpenterCrd.NODE_CLAIM);
        Map<String, Object> columns = new java.util.LinkedHashMap<>();
        crd.printerColumns().forEach((name, path) -> columns.put(name, CrdSchema.select(json, path)));
        assertThat(columns).containsEntry("ImageID", "ami-0new").containsEntry("Drifted", "True");
        assertThat(o.getMetadata().getAnnotations()).containsEntry("karpenter.sh/nodepool-hash", "np1")
                .containsEntry("karpenter.sh/nodepool-hash-version", "gantry-1")
                .containsEntry("karpenter.k8s.aws/ec2nodeclass-hash", "nc1")
                .containsEntry("karpenter.k8s.aws/ec2nodeclass-hash-version", "gantry-1")
                .containsKey(dev.gantry.core.status.NodeClaimObject.DIGEST_ANNOTATION);
        assertThat(crd.violations(json)).isEmpty();
    }

    /**
     * A NodeClaim carries its pool's template annotations, as Karpenter creates it with them (its nodes get them at
     * registration); the hash annotations are Gantry's own and win over a template that names one.
     */
    @Test
    void aClaimCarriesItsPoolsTemplateAnnotationsUnderItsOwnHashes() {
        NodePool seed = config.nodePools().getFirst();
        NodePool.Template t = seed.template();
        NodePool annotated = new NodePool(seed.name(), seed.annotations(), new NodePool.Template(t.labels(),
                Map.of("example.com/owner", "platform", "karpenter.sh/nodepool-hash", "mine"), t.taints(),
                t.startupTaints(), t.requirements(), t.nodeClassRef(), t.expireAfter(), t.terminationGracePeriod()),
                seed.disruption(), seed.limits(), seed.weight(), seed.convertedFrom());
        config = new GantryConfig(List.of(annotated), config.nodeClasses(), "us-east-1", List.of());
        store.create(initialized("seed000-annot", "i-0an").withDrift(
                dev.gantry.core.lifecycle.DriftStamp.launched("np1", "gantry-1", "nc1", "gantry-1")));

        projector.sync(store.list(now.get()), now.get());

        GenericKubernetesResource o = object("seed000-annot");
        assertThat(o.getMetadata().getAnnotations()).containsEntry("example.com/owner", "platform")
                .containsEntry("karpenter.sh/nodepool-hash", "np1");
        assertThat(new CrdSchema(KarpenterCrd.NODE_CLAIM).violations(asMap(o))).isEmpty();
    }

    @Test
    void aSecondSweepOverUnchangedClaimsWritesNothing() {
        for (int i = 0; i < 5; i++) {
            store.create(initialized("seed000-c" + i, "i-0c" + i));
        }
        projector.sync(store.list(now.get()), now.get());
        int before = api.server.getRequestCount();

        NodeClaimProjector.Report r = projector.sync(store.list(now.get()), now.get());

        assertThat(r.writes()).isZero();
        assertThat(api.server.getRequestCount() - before).as("one list, no write").isEqualTo(1);
    }

    @Test
    void aClaimMovingOnIsRewrittenAndKeepsValidatingAgainstTheSchema() {
        NodeClaim launching = NodeClaim.launching("seed000-fresh", "seed000", null, requirements(), List.of("t3a.large"),
                List.of("default/web-1"), "t3a.large", "us-east-1a", "on-demand", 0.0752, T0);
        store.create(launching);
        projector.sync(store.list(now.get()), now.get());
        CrdSchema crd = new CrdSchema(KarpenterCrd.NODE_CLAIM);
        assertThat(crd.violations(asMap(object("seed000-fresh")))).isEmpty();
        assertThat(CrdSchema.select(asMap(object("seed000-fresh")), ".status.conditions[?(@.type==\"Launched\")].status"))
                .isEqualTo("Unknown");

        NodeClaim stored = store.get("seed000-fresh", T0).orElseThrow();
        store.update(stored.launched("i-0f", "t3a.large", "us-east-1a", "on-demand", 0.0752, T0.plusSeconds(5)));
        NodeClaimProjector.Report r = projector.sync(store.list(now.get()), now.get());

        assertThat(r.updated()).isEqualTo(1);
        Map<String, Object> json = asMap(object("seed000-fresh"));
        assertThat(CrdSchema.select(json, ".status.conditions[?(@.type==\"Launched\")].status")).isEqualTo("True");
        assertThat(CrdSchema.select(json, ".status.providerID")).isEqualTo("aws:///us-east-1a/i-0f");
        assertThat(crd.violations(json)).isEmpty();
    }

    /** Karpenter's termination controller sets Drained Unknown ("Draining") as the drain begins (awaitDrain). */
    @Test
    void aDrainingClaimShowsDrainedUnknownAndStillValidatesAgainstTheSchema() {
        store.create(initialized("seed000-drain", "i-0c"));
        projector.sync(store.list(now.get()), now.get());
        store.update(store.get("seed000-drain", T0).orElseThrow().draining("expired", T0));

        NodeClaimProjector.Report r = projector.sync(store.list(now.get()), now.get());

        assertThat(r.updated()).isEqualTo(1);
        Map<String, Object> json = asMap(object("seed000-drain"));
        assertThat(CrdSchema.select(json, ".status.conditions[?(@.type==\"Drained\")].status")).isEqualTo("Unknown");
        assertThat(CrdSchema.select(json, ".status.conditions[?(@.type==\"Drained\")].reason")).isEqualTo("Draining");
        assertThat(new CrdSchema(KarpenterCrd.NODE_CLAIM).violations(json)).isEmpty();
        assertThat(projector.sync(store.list(now.get()), now.get()).updated()).as("nothing moves while it drains").isZero();
    }

    @Test
    void kubectlDeleteNodeclaimTerminatesTheClaimGracefullyThenTheFinalizerComesOff() {
        store.create(initialized("seed000-gone", "i-0d"));
        instances.put("i-0d", "running");
        projector.sync(store.list(now.get()), now.get());

        api.client.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).withName("seed000-gone").delete();
        assertThat(object("seed000-gone").getMetadata().getDeletionTimestamp()).as("held by the finalizer").isNotNull();

        NodeClaimProjector.Report started = projector.sync(store.list(now.get()), now.get());
        assertThat(started.deletionsStarted()).isEqualTo(1);
        assertThat(store.get("seed000-gone", now.get()).orElseThrow().deletionReason()).isEqualTo("deleted");
        runTerminationQueue();
        assertThat(store.get("seed000-gone", now.get()).orElseThrow().state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(instances).containsEntry("i-0d", "terminated");
        assertThat(object("seed000-gone")).as("the finalizer stays until the instance is gone").isNotNull();

        NodeClaimProjector.Report released = projector.sync(store.list(now.get()), now.get());

        assertThat(released.released()).isEqualTo(1);
        assertThat(object("seed000-gone")).isNull();
    }

    @Test
    void aSecondSweepDoesNotStartTheSameDeletionTwice() {
        store.create(initialized("seed000-twice", "i-0e"));
        instances.put("i-0e", "running");
        projector.sync(store.list(now.get()), now.get());
        api.client.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).withName("seed000-twice").delete();
        projector.sync(store.list(now.get()), now.get());
        int queued = queue.size();

        NodeClaimProjector.Report again = projector.sync(store.list(now.get()), now.get());

        assertThat(again.deletionsStarted()).isZero();
        assertThat(queue).hasSize(queued);
    }

    @Test
    void anObjectWhoseClaimIsGoneIsDeletedButKarpentersOwnObjectsAreLeftAlone() {
        store.create(initialized("seed000-old", "i-0o"));
        projector.sync(store.list(now.get()), now.get());
        GenericKubernetesResource karpenters = Serialization.unmarshal("""
                apiVersion: karpenter.sh/v1
                kind: NodeClaim
                metadata: {name: default-x7k2p, finalizers: [karpenter.sh/termination]}
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]
                """, GenericKubernetesResource.class);
        api.client.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).resource(karpenters).create();

        now.set(T0.plus(Duration.ofHours(3)));
        store.update(store.get("seed000-old", T0).orElseThrow().draining("expiry", T0).terminated(T0, Duration.ofHours(1)));
        projector.sync(store.list(now.get()), now.get()); // the Terminated claim has expired from the table

        assertThat(object("seed000-old")).isNull();
        assertThat(object("default-x7k2p")).isNotNull();
    }

    @Test
    void aWriteFromAStaleReadIsRefusedAndLeftForTheNextSweep() {
        store.create(initialized("seed000-race", "i-0r"));
        projector.sync(store.list(now.get()), now.get());
        KubeNodeClaims objects = new KubeNodeClaims(KubeClients.forUrl(api.url()));
        ObservedNodeClaim read = objects.list().getFirst();
        api.client.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).withName("seed000-race")
                .edit(o -> { o.getMetadata().getLabels().put("team", "web"); return o; });

        assertThatThrownBy(() -> objects.removeFinalizer(read)).isInstanceOf(NodeClaimObjects.Stale.class);
        assertThat(object("seed000-race").getMetadata().getFinalizers()).containsExactly("karpenter.sh/termination");
    }

    // --- fixtures ---

    private static List<Requirement> requirements() {
        return List.of(Requirement.of("karpenter.sh/capacity-type", Operator.In, "on-demand"),
                Requirement.of("node.kubernetes.io/instance-type", Operator.In, "t3a.large", "t3a.xlarge"),
                Requirement.of("kubernetes.io/arch", Operator.In, "amd64"),
                Requirement.of("kubernetes.io/hostname", Operator.Exists),
                Requirement.of("karpenter.sh/nodepool", Operator.In, "seed000"));
    }

    private static NodeClaim initialized(String name, String instance) {
        return NodeClaim.launching(name, "seed000", null, requirements(), List.of("t3a.large"), List.of(), "t3a.large",
                        "us-east-1a", "on-demand", 0.0752, T0.minusSeconds(300))
                .launched(instance, "t3a.large", "us-east-1a", "on-demand", 0.0752, T0.minusSeconds(290))
                .registered("ip-10-0-1-5.ec2.internal", T0.minusSeconds(250))
                .initialized(T0.minusSeconds(240));
    }

    private GenericKubernetesResource object(String name) {
        return api.client.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).withName(name).get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(GenericKubernetesResource o) {
        return Serialization.unmarshal(Serialization.asJson(o), Map.class);
    }

    @SuppressWarnings("unchecked")
    private static List<String> conditionTypes(Map<String, Object> json) {
        List<Map<String, Object>> conditions = (List<Map<String, Object>>) ((Map<String, Object>) json.get("status")).get("conditions");
        return conditions.stream().map(c -> (String) c.get("type")).toList();
    }

    /** Runs the termination queue's messages in order, as the termination handler would (delays not waited for). */
    @SuppressWarnings("unchecked")
    private void runTerminationQueue() {
        for (int i = 0; i < 50 && !queue.isEmpty(); i++) {
            Map<String, Object> body = Serialization.unmarshal(queue.poll(), Map.class);
            now.set(now.get().plusSeconds(15));
            termination.slice(new TerminationRequest((String) body.get("claim"), ((Number) body.get("step")).intValue()));
        }
    }

    private CloudProvider cloud() {
        return new CloudProvider() {
            @Override
            public LaunchResult launch(LaunchRequest request) {
                throw new UnsupportedOperationException("no launches here");
            }

            @Override
            public void terminate(List<String> ids) {
                ids.forEach(id -> instances.put(id, "terminated"));
            }

            @Override
            public List<CloudInstance> listInstances() {
                return List.of();
            }

            @Override
            public Optional<CloudInstance> describe(String id) {
                return Optional.ofNullable(instances.get(id)).map(state -> new CloudInstance(id, "t3a.large", "us-east-1a",
                        "on-demand", state, T0, null, Map.of()));
            }
        };
    }
}
