package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.mockwebserver.MockWebServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * One whole sweep at scale, by phase (issue #27 §3: 5,000 nodes and 100,000 pods within the sweep's deployed 1 GB and
 * at most 30% of its 50 s timeout). This JVM builds the cluster ({@link ScaleCluster}: full objects, as the API server
 * sends them, managedFields and image lists included; 20 pods a node, the nodes 38% to 99% used, so consolidation has
 * work) and serves it in pages over HTTP; a child JVM ({@link SweepChild}) runs the sweep as deployed, with
 * {@code -Xmx1g} and the sweep's JVM flags (Lambda's serial collector; C1 then C2, the CDK app's {@code Jit.FULL_TIERS}
 * for the sweep; {@code -Dbench.jvmArgs} to compare, e.g. with {@code -XX:TieredStopAtLevel=1}), so the server's work is not the
 * child's and the child's memory is the sweep's. The child prints each run's wall time, the CPU time of the sweeping
 * thread and of its whole process, GC time, the time in cluster reads (and how many whole pod and node lists a sweep
 * makes), the consolidation decision, the writes, and the heap's peak; then one pod read taken apart (transfer,
 * decode, mapping) and its RSS. The first run is cold; the median is of the warm runs. With {@code --lambda-cpu[=MB]}
 * the child runs under the CPU quota Lambda gives a function of that memory (1,024 MB, the sweep's, by default: one vCPU
 * at 1,769 MB, in proportion, so 0.579 of a vCPU), through a Linux cgroup (v1 {@code cpu.cfs_quota_us} or v2 {@code cpu.max}); where
 * none can be made it says so and runs without. Off by default:
 * <pre>
 * mvn -B -o -pl functions/handlers -am test -Dtest=SweepScaleBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgantry.bench=true [-Dgantry.bench.args="5000 100000 --runs 4 --lean --lambda-cpu[=2048]"] [-Dbench.jvmArgs="-Xmx1g ..."]
 * </pre>
 */
@Tag("bench")
@EnabledIfSystemProperty(named = "gantry.bench", matches = "true")
class SweepScaleBenchmark {
    /** Held so the level sticks (the log manager keeps loggers weakly): a line per request would swamp the figures. */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");
    private static final String JVM_ARGS = "-Xmx1g -XX:+UseSerialGC -XX:+TieredCompilation";
    /** Lambda's memory for one full vCPU; the CPU share is in proportion (AWS Lambda developer guide, "memory"). */
    static final double LAMBDA_MB_PER_VCPU = 1769;

    @Test
    void printsAWholeSweepsPhasesAtFiveThousandNodes() throws Exception {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        String[] a = System.getProperty("gantry.bench.args", "5000 100000").trim().split("\\s+");
        int runs = 4;
        boolean full = true;
        int lambdaMb = 0;
        List<Integer> n = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            switch (a[i]) {
                case "--runs" -> runs = Integer.parseInt(a[++i]);
                case "--lean" -> full = false;
                case "--lambda-cpu" -> lambdaMb = 1024;
                default -> {
                    if (a[i].startsWith("--lambda-cpu=")) {
                        lambdaMb = Integer.parseInt(a[i].substring("--lambda-cpu=".length()));
                    } else {
                        n.add(Integer.parseInt(a[i]));
                    }
                }
            }
        }
        int nodes = n.size() > 0 ? n.get(0) : 5000;
        int pods = n.size() > 1 ? n.get(1) : 100_000;
        boolean f = full;
        System.out.printf("BENCH sweep: %,d nodes, %,d pods, %s objects; load average %s%n", nodes, pods, full ? "full" : "lean",
                Files.readString(Path.of("/proc/loadavg")).trim());
        long t0 = System.nanoTime();
        ScaleCluster.Api api = new ScaleCluster.Api(pods, i -> ScaleCluster.runningPod(i, i % nodes, cpu(i % nodes), f), i -> i % nodes,
                nodes, i -> ScaleCluster.node(i, f));
        System.out.printf("BENCH pages built in %.1f s: pods %.1f MB in %d pages, nodes %.1f MB in %d pages%n", (System.nanoTime() - t0) / 1e9,
                api.podMegabytes(), api.podPages.size(), api.nodeMegabytes(), api.nodePages.size());
        MockWebServer server = new MockWebServer();
        server.setDispatcher(api);
        server.start();
        try {
            List<String> cmd = new ArrayList<>();
            if (lambdaMb > 0) {
                System.out.printf("BENCH Lambda CPU share of a %d MB function%n", lambdaMb);
                cmd.addAll(CpuQuota.wrap(lambdaMb / LAMBDA_MB_PER_VCPU));
            }
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(List.of(System.getProperty("bench.jvmArgs", JVM_ARGS).trim().split("\\s+")));
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SweepChild.class.getName(),
                    "http://localhost:" + server.getPort(), Integer.toString(nodes), Integer.toString(runs)));
            Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            List<String> log = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("BENCH")) {
                        System.out.println(line);
                    } else {
                        log.add(line);
                    }
                }
            }
            int exit = child.waitFor();
            if (exit != 0) {
                System.out.println(String.join("\n", log.subList(Math.max(0, log.size() - 60), log.size())));
            }
            System.out.printf("BENCH server: %d pod lists, %d node lists, %d writes; load average %s%n", api.podLists.get(),
                    api.nodeLists.get(), api.writes.get(), Files.readString(Path.of("/proc/loadavg")).trim());
            assertThat(exit).isZero();
        } finally {
            server.shutdown();
        }
    }

    /** The app container's request on node {@code node}: with the 50m sidecar, 20 pods use 38% to 99% of a node's 7,910m. */
    static String cpu(int node) {
        return (100 + 60 * (node % 5)) + "m";
    }
}
