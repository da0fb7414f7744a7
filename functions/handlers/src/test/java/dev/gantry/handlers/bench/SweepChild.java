package dev.gantry.handlers.bench;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.staticcapacity.StaticCapacity;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepReport;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.InvocationReads;
import dev.gantry.handlers.InvocationScope;
import dev.gantry.handlers.SweepHandler;
import dev.gantry.kube.KubeClients;
import dev.gantry.kube.KubeCluster;
import dev.gantry.kube.objects.PodMapper;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The sweep side of {@link SweepScaleBenchmark}, in its own JVM with the sweep's deployed memory: the sweep handler
 * composed as the composition root composes it (termination, consolidation over the provisioner's offers, static
 * capacity), reading the cluster through {@link KubeCluster} over HTTP; a claim store holding one initialized claim per
 * node and a cloud listing their instances (both in memory and instant, so the figures are the sweep's own work and
 * the API server reads). Each run starts from the same state (the store is rebuilt; the client and the JVM stay warm).
 * Arguments: the server's URL, nodes, runs.
 */
final class SweepChild {
    private static final Instant START = Instant.parse("2026-06-01T12:00:00Z");

    private SweepChild() {
    }

    public static void main(String[] a) throws Exception {
        String url = a[0];
        int nodes = Integer.parseInt(a[1]);
        int runs = Integer.parseInt(a[2]);
        // The cluster's time: the objects' timestamps are from the morning of START; the clock ticks from there.
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), START));
        LoadResult config = ConfigLoader.load(List.of(Files.writeString(Files.createTempFile("pool", ".yaml"),
                ProvisionerScaleBenchmark.POOL)), LoadOptions.DEFAULT);
        List<String> zones = BuiltInCatalog.defaultZones("us-east-1");
        GantryConfig gantry = new GantryConfig(config.nodePools(), config.nodeClasses(), "us-east-1", zones);
        InstanceTypeProvider types = BuiltInCatalog.load("us-east-1", zones);
        Map<String, NodePool> pools = gantry.nodePools().stream().collect(Collectors.toMap(NodePool::name, Function.identity()));
        KubernetesClient client = KubeClients.forUrl(url);
        KubeCluster kube = new KubeCluster(client, clock);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("BENCH run    total ms  share  cpu ms  proc cpu ms  gc ms | read ms  (pods lists, node lists)  decide ms"
                + "  writes ms (calls)  other ms | candidates decided  queued | heap peak MB");
        // The pods each node held at the last sweep (one unmeasured read): the claims record them an hour back, as a running
        // Gantry's would, so consolidateAfter has passed and the measured sweeps can decide.
        Map<String, String> settled = new java.util.HashMap<>();
        kube.pods().stream().filter(p -> p.isBound() && !p.status().isTerminal())
                .collect(Collectors.groupingBy(dev.gantry.core.model.Pod::nodeName))
                .forEach((node, on) -> settled.put(node, dev.gantry.core.disruption.execution.PodEvents.fingerprint(on)));
        List<double[]> warm = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            InMemoryNodeClaimStore memory = new InMemoryNodeClaimStore();
            for (int i = 0; i < nodes; i++) {
                Instant at = Instant.parse("2026-06-01T09:00:00Z");
                memory.create(NodeClaim.launching("nc-" + i, "default", "h", List.of(), List.of("m6i.2xlarge"), List.of(), "m6i.2xlarge",
                        ScaleCluster.zone(i), "on-demand", 0.384, at).launched(ScaleCluster.instanceId(i), "m6i.2xlarge",
                        ScaleCluster.zone(i), "on-demand", 0.384, at).registered(ScaleCluster.nodeName(i), at).initialized(at)
                        .podEvent(Instant.parse("2026-06-01T11:00:00Z"), settled.getOrDefault(ScaleCluster.nodeName(i), dev.gantry.core.disruption.execution.PodEvents.NONE)));
            }
            TimedCluster timed = new TimedCluster(kube);
            AtomicInteger asked = new AtomicInteger();
            AtomicInteger reached = new AtomicInteger();
            // As the composition root wires the sweep's services (InvocationScope).
            InvocationScope scope = InvocationScope.over(timed, counting(memory, reached));
            InvocationReads cluster = scope.cluster();
            // The store's whole lists: those the sweep's steps ask for, and those that reach the store (InvocationClaims).
            dev.gantry.core.lifecycle.NodeClaimStore claims = counting(scope.claims(), asked);
            AtomicInteger queued = new AtomicInteger();
            WorkQueue queue = (body, group, dedup, delay) -> queued.incrementAndGet();
            ProvisioningHints hints = (reason, pod, node, at) -> { };
            CloudProvider cloud = new Instances(nodes);
            TerminationService termination = new TerminationService(cluster, cluster, claims, cloud, queue, pools, clock);
            Provisioner provisioner = new Provisioner(cluster, cluster, claims, cloud, types, gantry, clock);
            ConsolidationService consolidation = new ConsolidationService(cluster, cluster, claims, termination, hints, queue,
                    provisioner::poolOffers, provisioner::recordReplacement, ConsolidationSettings.DEFAULT, clock);
            SweepService sweep = new SweepService("bench", cluster, cluster, claims, cloud, termination, hints, pools,
                    type -> Optional.of(InstanceFacts.NONE), clock).withConsolidation(consolidation);
            sweep.withStaticCapacity(new StaticCapacity(gantry::nodePools, provisioner::recordFromTemplate, termination, hints));
            System.gc();
            ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
            long gc0 = gcMillis();
            long proc0 = os.getProcessCpuTime();
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            // The handler's budget: 70% of the 50 s timeout usable, less its reserves (SweepHandler, InvocationBudget).
            Instant usable = clock.instant().plus(Duration.ofMillis(35_000));
            SweepReport out = cluster.during(() -> sweep.sweep(usable.minus(SweepHandler.RESERVE), usable.minus(SweepHandler.START_RESERVE)));
            double total = (System.nanoTime() - t0) / 1e6;
            double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6;
            double proc = (os.getProcessCpuTime() - proc0) / 1e6;
            double gc = gcMillis() - gc0;
            long heap = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                    .mapToLong(p -> p.getPeakUsage().getUsed()).sum() >> 20;
            double read = timed.read.get() / 1e6;
            double writes = timed.write.get() / 1e6;
            double decide = out.consolidation().millis();
            System.out.printf("BENCH %-5s %9.0f %5.1f%% %7.0f %12.0f %6.0f | %7.0f  (%d, %d) %21.0f %10.0f (%d) %9.0f | %10s %7s %7d | %d%n",
                    r == 0 ? "cold" : "warm" + r, total, 100 * total / 50_000, cpu, proc, gc, read, timed.podLists.get(),
                    timed.nodeLists.get(), decide, writes, timed.writes.get(), total - read - writes, out.consolidation().candidates(),
                    out.consolidation().decided(), queued.get(), heap);
            if (r == 0) {
                // Why the nodes stay (the three commonest reasons), so a sweep that decides nothing says why.
                System.out.println("BENCH   store lists: " + asked.get() + " asked by the steps, " + reached.get() + " read from the store");
                System.out.println("BENCH   consolidation " + (out.consolidation().started() != null ? "started " + out.consolidation().started()
                        : "skipped: " + out.consolidation().skipped()) + "; kept " + out.consolidation().verdicts().stream()
                        .collect(Collectors.groupingBy(v -> v.kind() + " " + v.reason(), Collectors.counting())).entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(3).map(e -> e.getValue() + " × " + e.getKey())
                        .collect(Collectors.joining("; ")));
            }
            if (r > 0) {
                warm.add(new double[]{total, cpu, proc, gc, read, writes, heap});
            }
        }
        if (!warm.isEmpty()) {
            double[] med = new double[7];
            for (int i = 0; i < med.length; i++) {
                int k = i;
                double[] v = warm.stream().mapToDouble(w -> w[k]).sorted().toArray();
                med[i] = v[v.length / 2];
            }
            System.out.printf("BENCH median %8.0f %5.1f%% %7.0f %12.0f %6.0f | %7.0f %40.0f | heap peak %.0f MB%n", med[0],
                    100 * med[0] / 50_000, med[1], med[2], med[3], med[4], med[5], med[6]);
        }
        // The sweeps' resident peak, before the breakdown below holds every page at once.
        System.out.println("BENCH after the sweeps: " + Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmHWM") || l.startsWith("VmRSS")).map(l -> l.replaceAll("\\s+", " ")).collect(Collectors.joining(", "))
                + "; max heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MB; load average " + Files.readString(Path.of("/proc/loadavg")).trim());
        readBreakdown(url, client);
        client.close();
    }

    /**
     * One pod read taken apart on this thread: the pages' bytes fetched by a plain HTTP client (transfer), decoded into
     * fabric8's model by the cluster client's serialization, and mapped by {@link PodMapper}; each timed alone, CPU too.
     */
    private static void readBreakdown(String url, KubernetesClient client) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<byte[]> pages = new ArrayList<>();
        long t0 = System.nanoTime();
        String token = null;
        do {
            String uri = url + "/api/v1/pods?limit=500" + (token == null ? "" : "&continue=" + token);
            byte[] body = http.send(HttpRequest.newBuilder(URI.create(uri)).build(), HttpResponse.BodyHandlers.ofByteArray()).body();
            pages.add(body);
            PodList head = client.getKubernetesSerialization().unmarshal(new java.io.ByteArrayInputStream(body, 0, 0 + body.length), PodList.class);
            token = head.getMetadata().getContinue();
            head.getItems().clear();
        } while (token != null && !token.isEmpty());
        double transfer = (System.nanoTime() - t0) / 1e6; // includes one decode per page: subtracted below
        for (int round = 0; round < 3; round++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long d0 = System.nanoTime();
            long n = 0;
            double map = 0;
            double mapCpu = 0;
            for (byte[] page : pages) {
                PodList list = client.getKubernetesSerialization().unmarshal(new java.io.ByteArrayInputStream(page), PodList.class);
                long m0 = System.nanoTime();
                long mc0 = threads.getCurrentThreadCpuTime();
                for (var p : list.getItems()) {
                    n += PodMapper.pod(p).isProvisionable() ? 0 : 1;
                }
                map += (System.nanoTime() - m0) / 1e6;
                mapCpu += (threads.getCurrentThreadCpuTime() - mc0) / 1e6;
            }
            double all = (System.nanoTime() - d0) / 1e6;
            double allCpu = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
            System.out.printf("BENCH pod read apart (round %d, %d pods, %.1f MB): transfer+decode %.0f ms | decode %.0f ms (cpu %.0f) | map %.0f ms (cpu %.0f)%n",
                    round, n, pages.stream().mapToLong(p -> p.length).sum() / 1e6, transfer, all - map, allCpu - mapCpu, map, mapCpu);
        }
    }

    /** {@code store}, counting its whole lists in {@code lists}. */
    private static dev.gantry.core.lifecycle.NodeClaimStore counting(dev.gantry.core.lifecycle.NodeClaimStore store, AtomicInteger lists) {
        return (dev.gantry.core.lifecycle.NodeClaimStore) java.lang.reflect.Proxy.newProxyInstance(SweepChild.class.getClassLoader(),
                new Class<?>[] {dev.gantry.core.lifecycle.NodeClaimStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("list")) {
                        lists.incrementAndGet();
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(g -> Math.max(0, g.getCollectionTime())).sum();
    }

    /** The claims' instances, all running. */
    private record Instances(int nodes) implements CloudProvider {
        @Override
        public LaunchResult launch(LaunchRequest r) {
            return new LaunchResult(List.of(), List.of());
        }

        @Override public void terminate(List<String> ids) { }

        @Override
        public List<CloudInstance> listInstances() {
            List<CloudInstance> out = new ArrayList<>(nodes);
            for (int i = 0; i < nodes; i++) {
                out.add(new CloudInstance(ScaleCluster.instanceId(i), "m6i.2xlarge", ScaleCluster.zone(i), "on-demand", "running",
                        Instant.parse("2026-06-01T09:00:00Z"), null, Map.of(CloudInstance.TAG_CLUSTER, "bench",
                        CloudInstance.TAG_NODEPOOL, "default", CloudInstance.TAG_NODECLAIM, "nc-" + i)));
            }
            return out;
        }

        @Override
        public Optional<CloudInstance> describe(String id) {
            return listInstances().stream().filter(i -> i.instanceId().equals(id)).findFirst();
        }
    }
}
