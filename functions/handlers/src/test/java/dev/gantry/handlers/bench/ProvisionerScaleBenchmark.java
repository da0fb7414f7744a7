package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.provisioning.ProvisioningOutcome;
import dev.gantry.kube.KubeClients;
import dev.gantry.kube.KubeCluster;
import dev.gantry.kube.objects.PodMapper;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * One whole provisioning run at scale, by phase: a cluster of 1,000 nodes running 20,000 pods, with 2,000 pods pending
 * (the size issue #27 names), read by {@link KubeCluster} over HTTP from a server that pages as the API server does
 * (500 a page, continue tokens), planned against the built-in us-east-1 catalogue, launched on a cloud that answers at
 * once, and told to the pods by Nominated Events that the server accepts. Phases: cluster read (HTTP, JSON into
 * fabric8's model and {@link PodMapper} together, the server's side in this JVM too; "decode" is the pod pages' JSON
 * into the model alone and "mapping" the mapping alone, each timed again on the same input after the run), launch and
 * Events (the span from the first call to the last: they run 8 at a time), and the plan (the rest of the run: store
 * reads, inputs, solve, batching). The share is of the provisioner's deployed 60 s timeout; the target is 25% at
 * this size. No latency is modelled for EC2
 * or the API server, so the share is the run's own work: add the real round trips (one CreateFleet per batch, 8 at a
 * time) to read it against a real cluster. The first run is cold (fresh JVM), the median is of the warm runs after it.
 * Off by default:
 * <pre>
 * mvn -B -o -pl functions/handlers -am test -Dtest=ProvisionerScaleBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgantry.bench=true [-Dgantry.bench.args="1000 20000 2000 --runs 4"]
 * </pre>
 */
@Tag("bench")
@EnabledIfSystemProperty(named = "gantry.bench", matches = "true")
class ProvisionerScaleBenchmark {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final int PAGE = 500;
    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final String POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: default}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                    - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}
                    - {key: kubernetes.io/arch, operator: In, values: [amd64]}
                    - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}
                    - {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["5"]}
              disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 1m}
            ---
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: default}
            spec:
              amiSelectorTerms: [{alias: al2023@latest}]
              role: KarpenterNodeRole
              subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
              securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
            """;

    @Test
    void printsTheProvisionersPhasesAtAThousandNodes() throws Exception {
        String[] a = System.getProperty("gantry.bench.args", "1000 20000 2000").trim().split("\\s+");
        int runs = 4;
        List<Integer> n = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            if (a[i].equals("--runs")) {
                runs = Integer.parseInt(a[++i]);
            } else {
                n.add(Integer.parseInt(a[i]));
            }
        }
        run(n.size() > 0 ? n.get(0) : 1000, n.size() > 1 ? n.get(1) : 20_000, n.size() > 2 ? n.get(2) : 2000, runs);
    }

    private static void run(int nodes, int bound, int pending, int runs) throws Exception {
        Path loadavg = Path.of("/proc/loadavg");
        System.out.printf("BENCH provisioner: %,d nodes, %,d running pods, %,d pending; load average %s%n", nodes, bound, pending,
                Files.isReadable(loadavg) ? Files.readString(loadavg).trim() : "unknown");
        List<io.fabric8.kubernetes.api.model.Pod> pods = new ArrayList<>();
        IntStream.range(0, bound).forEach(i -> pods.add(runningPod(i, nodes)));
        IntStream.range(0, pending).forEach(i -> pods.add(pendingPod(i)));
        Api api = new Api(pods, IntStream.range(0, nodes).mapToObj(ProvisionerScaleBenchmark::node).toList());
        MockWebServer server = new MockWebServer();
        server.setDispatcher(api);
        server.start();
        LoadResult config = ConfigLoader.load(List.of(Files.writeString(Files.createTempFile("pool", ".yaml"), POOL)), LoadOptions.DEFAULT);
        assertThat(config.errors()).isEmpty();
        List<String> zones = BuiltInCatalog.defaultZones("us-east-1");
        GantryConfig gantry = new GantryConfig(config.nodePools(), config.nodeClasses(), "us-east-1", zones);
        InstanceTypeProvider types = BuiltInCatalog.load("us-east-1", zones);
        System.out.printf("BENCH pod pages: %.1f MB of JSON in %d pages%n", api.podPages.stream().mapToLong(String::length).sum() / 1e6,
                api.podPages.size());
        System.out.println("BENCH run    total ms  share  |  read ms (decode) (mapping)  plan ms  launch ms  events ms | launched  nominated");
        List<double[]> warm = new ArrayList<>();
        try {
            KubeCluster cluster = new KubeCluster(KubeClients.forUrl("http://localhost:" + server.getPort()), Clock.systemUTC());
            for (int r = 0; r < runs; r++) {
                Timed reader = new Timed(cluster);
                TimedCloud cloud = new TimedCloud();
                Provisioner p = new Provisioner(reader, reader, new InMemoryNodeClaimStore(), cloud, types, gantry,
                        Clock.fixed(NOW, ZoneOffset.UTC));
                long t0 = System.nanoTime();
                ProvisioningOutcome out = p.provision(NOW);
                double total = (System.nanoTime() - t0) / 1e6;
                double mapping = mapping(pods);
                double decoding = decoding(api);
                double read = reader.read.get() / 1e6;
                double launch = cloud.span.millis();
                double events = reader.events.millis();
                double plan = total - read - launch - events;
                assertThat(out.pendingPods()).isEqualTo(pending);
                assertThat(out.unschedulable()).isEmpty();
                System.out.printf("BENCH %-5s %9.0f %5.1f%%  | %8.0f %8.0f %9.0f  %7.0f  %9.0f  %9.0f | %8d  %9d%n",
                        r == 0 ? "cold" : "warm" + r, total, 100 * total / Duration.ofSeconds(60).toMillis(), read, decoding, mapping, plan,
                        launch, events, out.launched().size(), out.nominations().size());
                if (r > 0) {
                    warm.add(new double[]{total, read, decoding, mapping, plan, launch, events});
                }
            }
        } finally {
            server.shutdown();
        }
        if (!warm.isEmpty()) {
            double[] med = new double[7];
            for (int i = 0; i < 7; i++) {
                int k = i;
                double[] v = warm.stream().mapToDouble(w -> w[k]).sorted().toArray();
                med[i] = v[v.length / 2];
            }
            System.out.printf("BENCH median %8.0f %5.1f%%  | %8.0f %8.0f %9.0f  %7.0f  %9.0f  %9.0f%n", med[0], 100 * med[0] / 60_000,
                    med[1], med[2], med[3], med[4], med[5], med[6]);
        }
    }

    /** Decoding alone: the pod pages' JSON into fabric8's model, as the client does after each page's HTTP reply. */
    private static double decoding(Api api) {
        long t0 = System.nanoTime();
        long n = 0;
        for (String page : api.podPages) {
            n += JSON.unmarshal(page, io.fabric8.kubernetes.api.model.PodList.class).getItems().size();
        }
        assertThat(n).isPositive();
        return (System.nanoTime() - t0) / 1e6;
    }

    /** The mapping alone: the fabric8 objects the read gave, mapped again. */
    private static double mapping(List<io.fabric8.kubernetes.api.model.Pod> pods) {
        long t0 = System.nanoTime();
        long provisionable = pods.stream().map(PodMapper::pod).filter(Pod::isProvisionable).count();
        assertThat(provisionable).isPositive();
        return (System.nanoTime() - t0) / 1e6;
    }

    static String nodeName(int i) {
        return "ip-10-0-" + (i / 250) + "-" + (i % 250) + ".ec2.internal";
    }

    static io.fabric8.kubernetes.api.model.Node node(int i) {
        String name = nodeName(i);
        return new NodeBuilder().withNewMetadata().withName(name).withUid("node-" + i).withResourceVersion(Integer.toString(i + 1))
                .withCreationTimestamp("2026-06-01T09:00:00Z")
                .addToLabels(Map.of("kubernetes.io/hostname", name, "node.kubernetes.io/instance-type", "m6i.2xlarge",
                        "topology.kubernetes.io/zone", "us-east-1" + "abc".charAt(i % 3), "karpenter.sh/nodepool", "default",
                        "karpenter.sh/capacity-type", i % 2 == 0 ? "spot" : "on-demand", "kubernetes.io/arch", "amd64",
                        "kubernetes.io/os", "linux", "karpenter.sh/registered", "true", "karpenter.sh/initialized", "true"))
                .endMetadata()
                .withNewSpec().withProviderID("aws:///us-east-1a/i-" + String.format("%017x", i)).endSpec()
                .withNewStatus().addToAllocatable(Map.of("cpu", new Quantity("7910m"), "memory", new Quantity("31300Mi"),
                        "pods", new Quantity("58"), "ephemeral-storage", new Quantity("18242267924")))
                .addToCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("58")))
                .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withLastTransitionTime("2026-06-01T09:01:00Z").withLastHeartbeatTime("2026-06-01T11:59:30Z").endCondition()
                .endStatus().build();
    }

    /** A Deployment pod as the API server lists it: two containers, requests, default tolerations, a full status. */
    static io.fabric8.kubernetes.api.model.Pod runningPod(int i, int nodes) {
        return base("app-" + (i / 20), i, "330m").editSpec().withNodeName(nodeName(i % nodes)).endSpec()
                .withNewStatus().withPhase("Running").withPodIP("10.1." + (i / 250 % 250) + "." + (i % 250)).withHostIP("10.0.0.1")
                .withStartTime("2026-06-01T10:00:05Z")
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime("2026-06-01T10:00:09Z").endCondition()
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime("2026-06-01T10:00:01Z").endCondition()
                .addNewContainerStatus().withName("app").withReady(true).withRestartCount(0).withImage("app:1.2.3")
                .withImageID("sha256:" + "a".repeat(64)).withContainerID("containerd://" + "b".repeat(64)).endContainerStatus()
                .addNewContainerStatus().withName("envoy").withReady(true).withRestartCount(0).withImage("envoy:v1.30")
                .withImageID("sha256:" + "c".repeat(64)).withContainerID("containerd://" + "d".repeat(64)).endContainerStatus()
                .endStatus().build();
    }

    /** A pod kube-scheduler gave up on (no node has 500m left), of one of 20 new Deployments. */
    static io.fabric8.kubernetes.api.model.Pod pendingPod(int i) {
        return base("burst-" + (i % 20), 1_000_000 + i, "450m").withNewStatus().withPhase("Pending")
                .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                .withMessage("0/1000 nodes are available: 1000 Insufficient cpu.").withLastTransitionTime("2026-06-01T11:59:58Z")
                .endCondition().endStatus().build();
    }

    /** {@code cpu}: the app container's request (with the 50m sidecar, 20 running pods fill a node's 7,910m). */
    private static PodBuilder base(String app, int i, String cpu) {
        return new PodBuilder().withNewMetadata().withName(app + "-7d9c6b8f5-" + i).withNamespace("team-" + (i % 40))
                .withUid("0b9e2f5c-1111-4a8e-9c6f-" + String.format("%012d", i)).withResourceVersion(Integer.toString(1000 + i))
                .withCreationTimestamp("2026-06-01T10:00:00Z")
                .addToLabels(Map.of("app", app, "pod-template-hash", "7d9c6b8f5", "team", "team-" + (i % 40)))
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName(app + "-7d9c6b8f5")
                .withUid("rs-" + app).withController(true).withBlockOwnerDeletion(true).endOwnerReference().endMetadata()
                .withNewSpec().withServiceAccountName("default").withTerminationGracePeriodSeconds(30L)
                .addNewContainer().withName("app").withImage("123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1.2.3")
                .addNewPort().withContainerPort(8080).withProtocol("TCP").endPort()
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("512Mi"))
                .addToLimits("memory", new Quantity("1Gi")).endResources()
                .addNewEnv().withName("JAVA_OPTS").withValue("-XX:MaxRAMPercentage=75").endEnv().endContainer()
                .addNewContainer().withName("envoy").withImage("envoyproxy/envoy:v1.30")
                .withNewResources().addToRequests("cpu", new Quantity("50m")).addToRequests("memory", new Quantity("64Mi")).endResources()
                .endContainer()
                .addNewToleration().withKey("node.kubernetes.io/not-ready").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration()
                .addNewToleration().withKey("node.kubernetes.io/unreachable").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration()
                .withPriority(0).endSpec();
    }

    /** Pods and nodes in pages with continue tokens; empty lists of everything else; any write accepted. */
    static final class Api extends Dispatcher {
        private final List<String> podPages = new ArrayList<>();
        private final List<String> nodePages = new ArrayList<>();
        private static final Pattern CONTINUE = Pattern.compile("continue=(\\d+)");

        Api(List<io.fabric8.kubernetes.api.model.Pod> pods, List<io.fabric8.kubernetes.api.model.Node> nodes) {
            for (int from = 0; from < pods.size(); from += PAGE) {
                int to = Math.min(pods.size(), from + PAGE);
                podPages.add(JSON.asJson(new PodListBuilder().withMetadata(new ListMetaBuilder().withResourceVersion("9")
                        .withContinue(to < pods.size() ? Integer.toString(podPages.size() + 1) : null).build())
                        .withItems(pods.subList(from, to)).build()));
            }
            for (int from = 0; from < nodes.size(); from += PAGE) {
                int to = Math.min(nodes.size(), from + PAGE);
                nodePages.add(JSON.asJson(new NodeListBuilder().withMetadata(new ListMetaBuilder().withResourceVersion("9")
                        .withContinue(to < nodes.size() ? Integer.toString(nodePages.size() + 1) : null).build())
                        .withItems(nodes.subList(from, to)).build()));
            }
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            if (!"GET".equals(request.getMethod())) {
                return new MockResponse().setResponseCode(201).addHeader("Content-Type", "application/json").setBody("{}");
            }
            List<String> pages = path.startsWith("/api/v1/pods") ? podPages : path.startsWith("/api/v1/nodes") ? nodePages : null;
            if (pages == null) {
                return new MockResponse().setResponseCode(200).addHeader("Content-Type", "application/json")
                        .setBody("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[]}");
            }
            Matcher m = CONTINUE.matcher(path);
            return new MockResponse().setResponseCode(200).addHeader("Content-Type", "application/json")
                    .setBody(pages.get(m.find() ? Integer.parseInt(m.group(1)) : 0));
        }
    }

    /**
     * The wall time from the first call's start to the last call's end, for calls that run side by side (launches and
     * Events, 8 at a time): the phase as the run waits for it.
     */
    static final class Span {
        private long first = Long.MAX_VALUE;
        private long last = Long.MIN_VALUE;

        synchronized void add(long start, long end) {
            first = Math.min(first, start);
            last = Math.max(last, end);
        }

        synchronized double millis() {
            return first == Long.MAX_VALUE ? 0 : (last - first) / 1e6;
        }
    }

    /** The cluster, with the time spent reading it and the span of the Events. */
    static final class Timed implements ClusterReader, ClusterWriter {
        private final KubeCluster c;
        final AtomicLong read = new AtomicLong();
        final Span events = new Span();

        Timed(KubeCluster c) {
            this.c = c;
        }

        private <T> T time(AtomicLong into, java.util.function.Supplier<T> s) {
            long t0 = System.nanoTime();
            try {
                return s.get();
            } finally {
                into.addAndGet(System.nanoTime() - t0);
            }
        }

        @Override public List<Pod> pods() { return time(read, c::pods); }
        @Override public List<Pod> podsOn(String node) { return time(read, () -> c.podsOn(node)); }
        @Override public List<Node> nodes() { return time(read, c::nodes); }
        @Override public Optional<Node> findNode(String name) { return time(read, () -> c.findNode(name)); }
        @Override public List<DaemonSet> daemonSets() { return time(read, c::daemonSets); }
        @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return time(read, c::podDisruptionBudgets); }
        @Override public java.util.Set<String> nodesWithVolumeAttachments() { return time(read, c::nodesWithVolumeAttachments); }
        @Override public Map<String, Map<String, String>> namespaceLabels() { return time(read, c::namespaceLabels); }
        @Override public void patchNode(String name, dev.gantry.core.cluster.NodePatch patch) { c.patchNode(name, patch); }
        @Override public dev.gantry.core.cluster.EvictionResult evict(Pod pod) { return c.evict(pod); }
        @Override public void deletePod(Pod pod) { c.deletePod(pod); }
        @Override public void deleteNode(String name) { c.deleteNode(name); }

        @Override
        public void event(String kind, String namespace, String name, String type, String reason, String message) {
            long t0 = System.nanoTime();
            c.event(kind, namespace, name, type, reason, message);
            events.add(t0, System.nanoTime());
        }
    }

    /** Launches every request at once, in its first option's cheapest offering; the span of the calls is the launch phase. */
    static final class TimedCloud implements CloudProvider {
        final Span span = new Span();
        private final AtomicLong ids = new AtomicLong();

        @Override
        public LaunchResult launch(LaunchRequest r) {
            long t0 = System.nanoTime();
            var t = r.options().getFirst();
            var o = t.cheapestOffering(r.requirements());
            List<CloudInstance> out = new ArrayList<>();
            for (int i = 0; i < r.count(); i++) {
                out.add(new CloudInstance(String.format("i-%017x", ids.incrementAndGet()), t.name(), o.zone(), o.capacityType(),
                        "pending", NOW, null, Map.of(r.count() == 1 ? CloudInstance.TAG_NODECLAIM : CloudInstance.TAG_LAUNCH,
                        r.clientToken())));
            }
            span.add(t0, System.nanoTime());
            return new LaunchResult(out, List.of());
        }

        @Override public void terminate(List<String> ids) { }
        @Override public List<CloudInstance> listInstances() { return List.of(); }
        @Override public Optional<CloudInstance> describe(String id) { return Optional.empty(); }
    }
}
