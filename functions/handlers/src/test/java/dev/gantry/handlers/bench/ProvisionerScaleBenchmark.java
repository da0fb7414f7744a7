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
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.MockWebServer;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * One whole provisioning run at scale, by phase: a cluster of 1,000 nodes running 20,000 pods, with 2,000 pods pending
 * (the size issue #27 names), read by {@link KubeCluster} over HTTP from a server that pages as the API server does
 * (500 a page, continue tokens; {@link ScaleCluster}: full objects as the API server sends them, managedFields and the
 * kubelet's image lists included, or with {@code --lean} the objects s4 measured), planned against the built-in us-east-1 catalogue, launched on a cloud that answers at
 * once, and told to the pods by Nominated Events that the server accepts. Phases: cluster read (HTTP, JSON into
 * fabric8's model and {@link PodMapper} together, the server's side in this JVM too; "decode" is the pod pages' JSON
 * into the model alone and "mapping" the mapping alone, each timed again on the same input after the run), launch and
 * Events (the span from the first call to the last: they run 8 at a time), and the plan (the rest of the run: store
 * reads, inputs, solve, batching). The share is of the provisioner's deployed 60 s timeout; the target is 25% at
 * this size. No latency is modelled for EC2
 * or the API server, so the share is the run's own work: add the real round trips (one CreateFleet per batch, 8 at a
 * time) to read it against a real cluster. The first run is cold (fresh JVM), the median is of the warm runs after it.
 * "cpu" is the provisioning thread's CPU time, "proc cpu" the whole JVM's (the HTTP client's threads, GC, and the
 * server's writes of its ready pages too), beside the wall times that stretch on a shared machine.
 * Off by default:
 * <pre>
 * mvn -B -o -pl functions/handlers -am test -Dtest=ProvisionerScaleBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgantry.bench=true [-Dgantry.bench.args="1000 20000 2000 --runs 4 --lean"]
 * </pre>
 */
@Tag("bench")
@EnabledIfSystemProperty(named = "gantry.bench", matches = "true")
class ProvisionerScaleBenchmark {
    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    static final String POOL = """
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
        boolean full = true;
        List<Integer> n = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            if (a[i].equals("--runs")) {
                runs = Integer.parseInt(a[++i]);
            } else if (a[i].equals("--lean")) {
                full = false;
            } else {
                n.add(Integer.parseInt(a[i]));
            }
        }
        run(n.size() > 0 ? n.get(0) : 1000, n.size() > 1 ? n.get(1) : 20_000, n.size() > 2 ? n.get(2) : 2000, runs, full);
    }

    private static void run(int nodes, int bound, int pending, int runs, boolean full) throws Exception {
        Path loadavg = Path.of("/proc/loadavg");
        System.out.printf("BENCH provisioner: %,d nodes, %,d running pods, %,d pending, %s objects; load average %s%n", nodes, bound,
                pending, full ? "full" : "lean", Files.isReadable(loadavg) ? Files.readString(loadavg).trim() : "unknown");
        List<io.fabric8.kubernetes.api.model.Pod> pods = new ArrayList<>();
        IntStream.range(0, bound).forEach(i -> pods.add(ScaleCluster.runningPod(i, i % nodes, "330m", full)));
        IntStream.range(0, pending).forEach(i -> pods.add(ScaleCluster.pendingPod(i, full)));
        ScaleCluster.Api api = new ScaleCluster.Api(pods.size(), pods::get, i -> i < bound ? i % nodes : -1, nodes,
                i -> ScaleCluster.node(i, full));
        MockWebServer server = new MockWebServer();
        server.setDispatcher(api);
        server.start();
        LoadResult config = ConfigLoader.load(List.of(Files.writeString(Files.createTempFile("pool", ".yaml"), POOL)), LoadOptions.DEFAULT);
        assertThat(config.errors()).isEmpty();
        List<String> zones = BuiltInCatalog.defaultZones("us-east-1");
        GantryConfig gantry = new GantryConfig(config.nodePools(), config.nodeClasses(), "us-east-1", zones);
        InstanceTypeProvider types = BuiltInCatalog.load("us-east-1", zones);
        System.out.printf("BENCH pod pages: %.1f MB of JSON in %d pages; node pages %.1f MB%n", api.podMegabytes(), api.podPages.size(),
                api.nodeMegabytes());
        System.out.println("BENCH run    total ms  share  cpu ms  proc cpu ms |  read ms (decode) (mapping)  plan ms  launch ms  events ms | launched  nominated");
        List<double[]> warm = new ArrayList<>();
        try {
            var client = KubeClients.forUrl("http://localhost:" + server.getPort());
            KubeCluster cluster = new KubeCluster(client, Clock.systemUTC());
            for (int r = 0; r < runs; r++) {
                TimedCluster reader = new TimedCluster(cluster);
                TimedCloud cloud = new TimedCloud();
                Provisioner p = new Provisioner(reader, reader, new InMemoryNodeClaimStore(), cloud, types, gantry,
                        Clock.fixed(NOW, ZoneOffset.UTC));
                long c0 = THREADS.getCurrentThreadCpuTime();
                long p0 = OS.getProcessCpuTime();
                long t0 = System.nanoTime();
                ProvisioningOutcome out = p.provision(NOW);
                double total = (System.nanoTime() - t0) / 1e6;
                double cpu = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
                double proc = (OS.getProcessCpuTime() - p0) / 1e6;
                double mapping = mapping(pods);
                double decoding = decoding(api, client.getKubernetesSerialization());
                double read = reader.read.get() / 1e6;
                double launch = cloud.span.millis();
                double events = reader.events.millis();
                double plan = total - read - launch - events;
                assertThat(out.pendingPods()).isEqualTo(pending);
                assertThat(out.unschedulable()).isEmpty();
                System.out.printf("BENCH %-5s %9.0f %5.1f%% %7.0f %12.0f | %8.0f %8.0f %9.0f  %7.0f  %9.0f  %9.0f | %8d  %9d%n",
                        r == 0 ? "cold" : "warm" + r, total, 100 * total / Duration.ofSeconds(60).toMillis(), cpu, proc, read, decoding, mapping, plan,
                        launch, events, out.launched().size(), out.nominations().size());
                if (r > 0) {
                    warm.add(new double[]{total, read, decoding, mapping, plan, launch, events, cpu, proc});
                }
            }
        } finally {
            server.shutdown();
        }
        if (!warm.isEmpty()) {
            double[] med = new double[9];
            for (int i = 0; i < med.length; i++) {
                int k = i;
                double[] v = warm.stream().mapToDouble(w -> w[k]).sorted().toArray();
                med[i] = v[v.length / 2];
            }
            System.out.printf("BENCH median %8.0f %5.1f%% %7.0f %12.0f | %8.0f %8.0f %9.0f  %7.0f  %9.0f  %9.0f%n", med[0],
                    100 * med[0] / 60_000, med[7], med[8], med[1], med[2], med[3], med[4], med[5], med[6]);
        }
    }

    /** Decoding alone: the pod pages' JSON into fabric8's model by the client's serialization, as after each page's reply. */
    private static double decoding(ScaleCluster.Api api, KubernetesSerialization json) {
        long t0 = System.nanoTime();
        long n = 0;
        for (byte[] page : api.podPages) {
            n += json.unmarshal(new java.io.ByteArrayInputStream(page), io.fabric8.kubernetes.api.model.PodList.class).getItems().size();
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
