package dev.gantry.cli.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Prints the live heap one Gantry solve holds at its peak, per {@link SchedulingBenchmark} case and size, and its
 * growth per extra pod over the previous size. Each point runs in a fresh JVM with the serial collector:
 * <ul>
 *   <li>"peak live": while the solve runs, a sampler thread forces a full collection every
 *       {@value #SAMPLE_MILLIS} ms; the heap used after the fullest of those collections, less the heap used after a
 *       full collection just before the solve (the input, the catalogue, the JVM's own). The sample can miss a peak
 *       shorter than the interval, so it is a lower bound.</li>
 *   <li>"kept": the same after the solve, with the result still referenced (what the result holds).</li>
 *   <li>"min Xmx" (with {@code --xmx}): the smallest {@code -Xmx}, to {@value #XMX_STEP_MB} MB, at which the solve
 *       completes within {@value #XMX_TIMEOUT_SECONDS} s, found by bisection. It bounds the whole peak live set, input
 *       and JVM included, from above.</li>
 * </ul>
 * The per-pod slope is taken between successive sizes of one case. Run:
 * {@code java -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.MemoryBenchmark [--case=part-of-name] [--xmx] [sizes...]}
 * (default case "real 250 plain + n", sizes 0 500 1000 2000 5000).
 */
public final class MemoryBenchmark {
    private static final int SAMPLE_MILLIS = 10;
    private static final int XMX_STEP_MB = 4;
    private static final int XMX_TIMEOUT_SECONDS = 180;
    private static final int CHILD_HEAP_MB = 2048;

    private MemoryBenchmark() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length == 3 && args[0].equals("--child")) {
            child(args[1], Integer.parseInt(args[2]));
            return;
        }
        String only = Arrays.stream(args).filter(a -> a.startsWith("--case=")).map(a -> a.substring("--case=".length())).findFirst()
                .orElse("real 250 plain + n");
        boolean xmx = Arrays.asList(args).contains("--xmx");
        int[] sizes = Arrays.stream(args).filter(a -> !a.startsWith("--")).mapToInt(Integer::parseInt).toArray();
        if (sizes.length == 0) {
            sizes = new int[]{0, 500, 1000, 2000, 5000};
        }
        System.out.printf("load average %.2f at start%n", loadAverage());
        System.out.printf("%-40s %6s %9s %9s %9s %9s %9s %9s %9s %9s %8s%n", "case", "pods", "base MB", "peak MB", "KB/pod", "kept MB",
                "KB/pod", "min Xmx", "KB/pod", "cpu ms", "samples");
        for (String name : SchedulingBenchmark.cases().keySet()) {
            if (!name.contains(only)) {
                continue;
            }
            double[] previous = null;
            int previousN = 0;
            for (int n : sizes) {
                double[] m = measure(name, n, CHILD_HEAP_MB);
                if (m == null) {
                    System.out.printf("%-40s %6d  failed at -Xmx%dm%n", name, n, CHILD_HEAP_MB);
                    continue;
                }
                double minXmx = xmx ? minXmx(name, n, m) : Double.NaN;
                System.out.printf("%-40s %6d %9.1f %9.1f %9s %9.1f %9s %9s %9s %9.0f %8.0f%n", name, n, m[0], m[1],
                        slope(previous == null ? Double.NaN : previous[1], m[1], n - previousN), m[2],
                        slope(previous == null ? Double.NaN : previous[2], m[2], n - previousN), xmx ? String.format("%.0f", minXmx) : "-",
                        slope(previous == null ? Double.NaN : previous[4], minXmx, n - previousN), m[3], m[5]);
                previous = new double[]{m[0], m[1], m[2], m[3], minXmx};
                previousN = n;
            }
        }
        System.out.printf("load average %.2f at end%n", loadAverage());
    }

    private static String slope(double before, double after, int pods) {
        return Double.isNaN(before) || Double.isNaN(after) || pods <= 0 ? "-" : String.format("%.2f", (after - before) * 1024 / pods);
    }

    /** Bisects the smallest heap, in {@value #XMX_STEP_MB} MB steps, between the measured peak and the child's default. */
    private static double minXmx(String name, int n, double[] measured) throws IOException, InterruptedException {
        int low = (int) Math.max(8, measured[0] + measured[1]) - 1; // below the measured live set nothing can complete
        int high = CHILD_HEAP_MB;
        while (high - low > XMX_STEP_MB) {
            int mid = (low + high) >>> 1;
            if (measure(name, n, mid) != null) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }

    /** Runs the child at {@code heapMb}: base, peak, kept (MB), CPU ms, then the heap size and the sample count; null if it failed. */
    private static double[] measure(String name, int n, int heapMb) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-XX:+UseSerialGC", "-Xmx" + heapMb + "m", "-cp", System.getProperty("java.class.path"),
                MemoryBenchmark.class.getName(), "--child", name, Integer.toString(n)).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the child died; its exit code says so
            }
        });
        if (!p.waitFor(XMX_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
            return null;
        }
        reader.join();
        if (p.exitValue() != 0 || lines.isEmpty()) {
            return null;
        }
        String[] parts = lines.get(lines.size() - 1).trim().split("\\s+");
        try {
            double[] out = new double[parts.length];
            for (int i = 0; i < parts.length; i++) {
                out[i] = Double.parseDouble(parts[i]);
            }
            return out;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The child: builds the input, collects, then solves once while a sampler thread forces a full collection every
     * {@value #SAMPLE_MILLIS} ms and a listener keeps the heap used after the fullest full collection. Prints base,
     * peak and kept MB, the solve's CPU ms, the max heap MB and the number of full collections during the solve.
     */
    private static void child(String name, int n) throws InterruptedException {
        SchedulingInput input = SchedulingBenchmark.cases().get(name).input(n);
        AtomicLong peak = new AtomicLong();
        AtomicLong fulls = new AtomicLong();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                if (info.getGcAction().contains("major")) {
                    long used = usedAfter(info.getGcInfo());
                    peak.accumulateAndGet(used, Math::max);
                    fulls.incrementAndGet();
                }
            }, null, null);
        }
        long base = settledUsed();
        peak.set(0);
        long before = fulls.get();
        var threads = ManagementFactory.getThreadMXBean();
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    System.gc();
                    Thread.sleep(SAMPLE_MILLIS);
                }
            } catch (InterruptedException e) {
                // the solve is done
            }
        });
        long c0 = threads.getCurrentThreadCpuTime();
        SchedulingResult result = Scheduler.solve(input, Scheduler.Strategy.GANTRY);
        double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
        sampler.interrupt();
        sampler.join();
        Thread.sleep(200); // the sampler's last notifications arrive on another thread
        long kept = settledUsed();
        long during = peak.get();
        long samples = fulls.get() - before;
        System.out.println(mb(base) + " " + mb(Math.max(0, during - base)) + " " + mb(Math.max(0, kept - base)) + " " + cpu + " "
                + (Runtime.getRuntime().maxMemory() >> 20) + " " + samples + " " + result.newClaims().size());
    }

    /**
     * The least heap used after three full collections, each read from its collector's last-collection record: the
     * serial collector's {@code System.gc()} returns when it is done, so that record is this collection's (the
     * notifications, on another thread, may still bring a sampler's earlier one).
     */
    private static long settledUsed() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            GcInfo latest = null;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                GcInfo info = ((com.sun.management.GarbageCollectorMXBean) gc).getLastGcInfo();
                if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
                    latest = info;
                }
            }
            least = Math.min(least, usedAfter(latest));
        }
        return least;
    }

    private static long usedAfter(GcInfo info) {
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
            if (!e.getKey().contains("Metaspace") && !e.getKey().contains("Code") && !e.getKey().contains("Class")) {
                used += e.getValue().getUsed();
            }
        }
        return used;
    }

    private static String mb(long bytes) {
        return String.format("%.2f", bytes / 1048576.0);
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
