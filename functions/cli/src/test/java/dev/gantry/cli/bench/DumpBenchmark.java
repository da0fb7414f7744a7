package dev.gantry.cli.bench;

import dev.gantry.cli.Gantry;
import dev.gantry.testing.dumps.ClusterDumpGenerator;
import dev.gantry.testing.dumps.KubeDump;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Prints how long {@code gantry consolidate} takes to load and decide a generated cluster dump
 * ({@link ClusterDumpGenerator}: about 20 pods a node), as YAML and JSON, as kubectl prints it by default and with
 * {@code --show-managed-fields} ({@code +mf}), as a user runs it: a fresh JVM per run
 * ({@code java -Xmx2g -jar functions/cli/target/gantry.jar}), timed from outside. Every run is therefore cold (class
 * loading and JIT warm-up included, as a user waits for them): the figures are medians of cold runs, not warm medians
 * after a warm-up. For each size and format: the median and the slowest wall time, the median of the read-and-map time
 * the command reports (it reports it only past two seconds: "&lt;2s" otherwise), the median decide time, the median
 * user + system CPU and the largest peak RSS (from {@code /usr/bin/time} when present), and the peak heap of one more
 * run inside this JVM (each heap pool's peak, summed: an upper bound). The load average is printed first: on a shared
 * machine, compare CPU seconds, or runs of one benchmark against each other. Off by default; after
 * {@code mvn -B -DskipTests package}:
 * <pre>
 * mvn -B -o -pl functions/cli -am test -Dtest=DumpBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgantry.bench=true -Dgantry.bench.args="100 1000 --runs 5"
 * </pre>
 */
@Tag("bench")
@EnabledIfSystemProperty(named = "gantry.bench", matches = "true")
class DumpBenchmark {
    private static final Pattern READ = Pattern.compile("read and mapped [\\d,]+ objects \\(([\\d.]+ [KM]B)\\) in ([\\d.]+) s");
    private static final Pattern DECIDED = Pattern.compile("\"decisionMillis\" : (\\d+)");
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
    void printsLoadAndDecideFigures() throws Exception {
        main(System.getProperty("gantry.bench.args", "100 1000").trim().split("\\s+"));
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            } else {
                sizes.add(Integer.parseInt(args[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes = List.of(100, 1000);
        }
        Path jar = Path.of("target/gantry.jar").toAbsolutePath();
        if (!Files.exists(jar)) {
            jar = Path.of("functions/cli/target/gantry.jar").toAbsolutePath();
        }
        Path dir = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "gantry-dump-bench"));
        Path pool = Files.writeString(dir.resolve("pool.yaml"), POOL);
        boolean time = Files.isExecutable(Path.of("/usr/bin/time"));
        Path loadavg = Path.of("/proc/loadavg");
        System.out.println("cold runs (a fresh JVM each), " + runs + " per row; load average at start: "
                + (Files.isReadable(loadavg) ? Files.readString(loadavg).trim() : "unknown"));
        System.out.printf("%-6s %-8s %7s %7s | %9s %9s %9s %9s %9s %10s %10s%n", "nodes", "form", "pods", "MB", "wall med", "wall max",
                "read med", "decide", "cpu med", "RSS max", "heap peak");
        for (int n : sizes) {
            KubeDump full = ClusterDumpGenerator.generate(n, 42);
            long pods = full.items().stream().filter(o -> "Pod".equals(o.get("kind"))).count();
            // As kubectl prints by default (no managedFields), and with --show-managed-fields.
            for (KubeDump dump : List.of(full.withoutManagedFields(), full)) {
                String variant = dump == full ? "+mf" : "";
                for (String form : List.of("yaml", "json")) {
                    Path file = dir.resolve("cluster-" + n + variant + "." + form);
                    if (form.equals("yaml")) {
                        dump.writeYaml(file);
                    } else {
                        dump.writeJson(file);
                    }
                    measure(n, form + variant, pods, file, pool, jar, runs, time);
                }
            }
        }
    }

    private static void measure(int n, String form, long pods, Path file, Path pool, Path jar, int runs, boolean time) throws Exception {
        double[] wall = new double[runs];
        double[] read = new double[runs];
        double[] decide = new double[runs];
        double[] cpu = new double[runs];
        long rss = 0;
        for (int r = 0; r < runs; r++) {
            List<String> cmd = new ArrayList<>();
            if (time) {
                cmd.addAll(List.of("/usr/bin/time", "-f", "TIME %U %S %M"));
            }
            cmd.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx2g", "-jar", jar.toString(),
                    "consolidate", "--nodepools", pool.toString(), "--cluster", file.toString(), "--output", "json"));
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).start();
            String out = new String(p.getInputStream().readAllBytes());
            String err = new String(p.getErrorStream().readAllBytes());
            int code = p.waitFor();
            wall[r] = (System.nanoTime() - t0) / 1e9;
            if (code != 0) {
                throw new IllegalStateException("gantry consolidate failed: " + err);
            }
            Matcher m = READ.matcher(err);
            read[r] = m.find() ? Double.parseDouble(m.group(2)) : Double.NaN;
            Matcher d = DECIDED.matcher(out);
            decide[r] = d.find() ? Long.parseLong(d.group(1)) / 1000.0 : Double.NaN;
            Matcher t = Pattern.compile("TIME ([\\d.]+) ([\\d.]+) (\\d+)").matcher(err);
            if (t.find()) {
                cpu[r] = Double.parseDouble(t.group(1)) + Double.parseDouble(t.group(2));
                rss = Math.max(rss, Long.parseLong(t.group(3)) / 1024);
            }
        }
        double readMedian = median(read);
        System.out.printf("%-6d %-8s %7d %7.1f | %8.1fs %8.1fs %9s %8.1fs %8.1fs %8dMB %8dMB%n", n, form, pods,
                Files.size(file) / 1048576.0, median(wall), Arrays.stream(wall).max().orElse(0),
                Double.isNaN(readMedian) ? "<2s" : String.format("%.1fs", readMedian), median(decide), median(cpu), rss,
                heapPeak(pool, file));
    }

    /** The peak heap of one run of the command in this JVM (all heap pools' peaks, summed). */
    private static long heapPeak(Path pool, Path file) {
        System.gc();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream().filter(b -> b.getType() == MemoryType.HEAP).toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        var cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        cl.execute("consolidate", "--nodepools", pool.toString(), "--cluster", file.toString(), "--output", "json");
        return heap.stream().mapToLong(b -> b.getPeakUsage().getUsed()).sum() >> 20;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? 0 : s[s.length / 2];
    }
}
