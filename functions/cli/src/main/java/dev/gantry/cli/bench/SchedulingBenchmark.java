package dev.gantry.cli.bench;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.LowerBound;
import dev.gantry.core.scheduling.PackingBound;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Prints placement speed and cost per workload, for Gantry and for the Karpenter greedy reference on the same input.
 * Each case is solved until its solve time is stable (warm), then the median of at least five solves is reported;
 * the "cold" columns are the first solve in a fresh JVM (a child process per case and strategy). Three LP bounds are
 * printed: cpu and memory only ("old"), with pod slots, and with pod slots, the pods' sizes and their extended resources
 * such as GPUs ("new", the one the scheduler reports); then the packing bound ("pack LB", whole pods and whole nodes, see {@link #packingBound}), which
 * is never below the new one and shows how much of a gap is the LP's looseness. Run with a 512 MB heap:
 * {@code java -Xmx512m -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.SchedulingBenchmark [--no-cold] [--case=part-of-name] [sizes...]}.
 * The "real 250 plain + n ..." cases take n as the number of constrained replicas (anti-affinity or spread) beside 250
 * plain pods, on a pool open to the whole catalogue: run them with sizes 0 10 50 200 500. "alloc MB" is what the last
 * warm Gantry solve allocated on its thread.
 */
public final class SchedulingBenchmark {
    private static final int MIN_SAMPLES = 5;
    private static final int MAX_WARMUP = 40;

    private SchedulingBenchmark() {
    }

    /** A benchmark case: a name, the pool and catalogue, and the pods for a size. */
    record Case(String name, NodePool pool, List<InstanceType> types, IntFunction<List<Pod>> pods, List<DaemonSet> daemons) {
        Case(String name, NodePool pool, List<InstanceType> types, IntFunction<List<Pod>> pods) {
            this(name, pool, types, pods, List.of());
        }

        SchedulingInput input(int n) {
            return new SchedulingInput(pods.apply(n), List.of(), List.of(), daemons, List.of(new SchedulingInput.PoolOffer(pool, types)), Map.of());
        }
    }

    static Map<String, Case> cases() {
        Map<String, Case> out = new LinkedHashMap<>();
        List<InstanceType> synthetic = BenchWorkloads.syntheticTypes(400);
        out.put("karpenter-400types diverse", new Case("karpenter-400types diverse", pool(List.of()), synthetic, n -> BenchWorkloads.diversePods(n, 42)));
        out.put("karpenter-400types generic", new Case("karpenter-400types generic", pool(List.of()), synthetic, n -> BenchWorkloads.genericPods(n, 42)));
        List<InstanceType> real = BuiltInCatalog.load("us-east-1", BuiltInCatalog.defaultZones("us-east-1")).instanceTypes(defaultNodeClass());
        out.put("real mixed", new Case("real mixed", pool(List.of()), real, n -> BenchWorkloads.mixedRealPods(n, 42)));
        out.put("real mixed + daemonsets", new Case("real mixed + daemonsets", pool(List.of()), real, n -> BenchWorkloads.mixedRealPods(n, 42),
                BenchWorkloads.daemonSets()));
        out.put("real gpu mix", new Case("real gpu mix", pool(List.of()), real, n -> BenchWorkloads.gpuMix(n, 42)));
        out.put("real generic", new Case("real generic", pool(List.of()), real, n -> BenchWorkloads.genericPods(n, 42)));
        out.put("real generic on-demand cmr>4 amd64", new Case("real generic on-demand cmr>4 amd64", pool(List.of(
                Requirement.of(WellKnownLabels.INSTANCE_CATEGORY, Operator.In, "c", "m", "r"),
                Requirement.of(WellKnownLabels.INSTANCE_GENERATION, Operator.Gt, "4"),
                Requirement.of(WellKnownLabels.ARCH, Operator.In, "amd64"),
                Requirement.of(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand"))), real, n -> BenchWorkloads.genericPods(n, 42)));
        // The whole catalogue (both architectures, spot and on-demand): 250 plain pods plus n constrained replicas.
        for (BenchWorkloads.Constraint k : BenchWorkloads.Constraint.values()) {
            String name = "real 250 plain + n " + k.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            out.put(name, new Case(name, pool(List.of()), real, n -> BenchWorkloads.mixedPlus(250, n, k)));
        }
        return out;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length == 4 && args[0].equals("--cold")) {
            cold(args[1], Integer.parseInt(args[2]), Scheduler.Strategy.valueOf(args[3]));
            return;
        }
        boolean withCold = !Arrays.asList(args).contains("--no-cold");
        String only = Arrays.stream(args).filter(a -> a.startsWith("--case=")).map(a -> a.substring("--case=".length())).findFirst().orElse("");
        int[] sizes = Arrays.stream(args).filter(a -> !a.startsWith("--")).mapToInt(Integer::parseInt).toArray();
        if (sizes.length == 0) {
            sizes = new int[]{1, 100, 1000, 5000, 10000, 20000};
        }
        System.out.printf("load average %.2f at start%n", loadAverage());
        System.out.printf("%-36s %6s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s %10s %7s %7s %7s %7s %10s %9s %9s %7s %8s%n", "case", "pods", "old LP", "+slots LP",
                "new LP", "pack LB", "constr LB", "warm ms", "warm cpu", "cold ms", "cold cpu", "nodes", "$/h", "÷old", "÷new", "÷pack", "÷constr", "greedy $/h", "greedy ms",
                "g cold ms", "saving", "alloc MB");
        for (Case c : cases().values()) {
            if (!c.name().contains(only)) {
                continue;
            }
            for (int n : sizes) {
                run(c, n, withCold);
            }
        }
        Runtime rt = Runtime.getRuntime();
        System.out.printf("heap max %d MB, used %d MB; load average %.2f at end%n", rt.maxMemory() >> 20, (rt.totalMemory() - rt.freeMemory()) >> 20,
                loadAverage());
    }

    private static void run(Case c, int n, boolean withCold) throws IOException, InterruptedException {
        SchedulingInput input = c.input(n);
        Timed ours = time(input, Scheduler.Strategy.GANTRY);
        Timed greedy = time(input, Scheduler.Strategy.KARPENTER_GREEDY);
        SchedulingResult r = ours.result;
        double newBound = r.lowerBoundPerHour();
        double oldBound = oldBound(input, false);
        double slotsBound = oldBound(input, true);
        double packing = packingBound(input, r);
        double constrained = ConstrainedBound.of(input, r);
        double[] coldOurs = withCold ? coldInChild(c.name(), n, Scheduler.Strategy.GANTRY) : null;
        String cold = coldOurs != null ? String.format("%9.1f %9.1f", coldOurs[0], coldOurs[1]) : String.format("%9s %9s", "-", "-");
        String greedyCold = withCold ? String.format("%9.1f", coldInChild(c.name(), n, Scheduler.Strategy.KARPENTER_GREEDY)[0]) : String.format("%9s", "-");
        double price = r.totalPricePerHour();
        System.out.printf("%-36s %6d %9.3f %9.3f %9.3f %9.3f %9.3f %9.1f %9.1f %s %6d %10.3f %7.3f %7.3f %7.3f %7.3f %10.3f %9.1f %s %6.1f%% %8.1f%s%n", c.name(), n,
                oldBound, slotsBound, newBound, packing, constrained, ours.millis, ours.cpuMillis, cold, r.newClaims().size(), price, oldBound > 0 ? price / oldBound : 0,
                newBound > 0 ? price / newBound : 0, packing > 0 ? price / packing : 0, constrained > 0 ? price / constrained : 0, greedy.result.totalPricePerHour(), greedy.millis,
                greedyCold, 100 * (1 - price / Math.max(1e-9, greedy.result.totalPricePerHour())), ours.allocated / 1e6,
                r.unschedulable().isEmpty() ? "" : "  unschedulable " + r.unschedulable().size());
    }

    /**
     * The aggregate bound over the single pool: cpu and memory only (the old bound), or with pod slots too. The new
     * bound, which the scheduler reports, also knows the pods' sizes. The mixed workload's arm64 and GPU pods have
     * requirements of their own, so for it these two are rougher than the scheduler's per-group one.
     */
    private static double oldBound(SchedulingInput input, boolean slots) {
        Resources demand = Resources.ZERO;
        for (Pod p : input.pending()) {
            demand = demand.plus(p.requests());
        }
        SchedulingInput.PoolOffer offer = input.pools().get(0);
        Requirements reqs = offer.requirements();
        List<InstanceType> types = offer.instanceTypes().stream().filter(t -> reqs.compatible(t.requirements()) && t.cheapestOffering(reqs) != null).toList();
        return slots ? LowerBound.of(demand, types, reqs, t -> Resources.ZERO) : LowerBound.cpuAndMemory(demand, types, reqs, t -> Resources.ZERO);
    }

    /**
     * The packing bound ({@link PackingBound}: the LP with count rows, and whole nodes) over the same groups as the
     * scheduler's LP bound, each new claim's pods by pool and node-affinity term, on the room a type leaves after the
     * DaemonSets that land on every node of it. Like the LP bound it knows cpu, memory, pod slots and the extended
     * resources the pods request (GPUs, Neuron devices).
     */
    static double packingBound(SchedulingInput input, SchedulingResult r) {
        double total = 0;
        for (BoundGroup g : boundGroups(input, r)) {
            Map<Resources, Integer> shapes = new LinkedHashMap<>();
            g.pods().forEach(p -> shapes.merge(p.requests(), 1, Integer::sum));
            List<PackingBound.Column> columns = new ArrayList<>();
            for (InstanceType t : g.offer().instanceTypes()) {
                Offering o = g.requirements().compatible(t.requirements()) ? t.cheapestOffering(g.requirements()) : null;
                if (o != null) {
                    columns.add(new PackingBound.Column(room(input, t), o.pricePerHour()));
                }
            }
            total += PackingBound.of(shapes, columns);
        }
        return total;
    }

    /** One group of the bounds: a pool's offer, its requirements with the pods' node-affinity term, and those pods. */
    record BoundGroup(SchedulingInput.PoolOffer offer, Requirements requirements, List<Pod> pods) {
    }

    /** The new claims' pods by pool and first node-affinity term: the scheduler's LP bound's groups, which every bound here uses. */
    static List<BoundGroup> boundGroups(SchedulingInput input, SchedulingResult r) {
        Map<List<Object>, List<Pod>> groups = new LinkedHashMap<>();
        for (SchedulingResult.NodeClaimPlan c : r.newClaims()) {
            for (Pod p : c.pods()) {
                groups.computeIfAbsent(List.of(c.nodePool(), p.nodeRequirementTerms().get(0)), k -> new ArrayList<>()).add(p);
            }
        }
        List<BoundGroup> out = new ArrayList<>();
        for (var e : groups.entrySet()) {
            SchedulingInput.PoolOffer offer = input.pools().stream().filter(o -> o.pool().name().equals(e.getKey().get(0))).findFirst().orElseThrow();
            out.add(new BoundGroup(offer, offer.requirements().intersect((Requirements) e.getKey().get(1)), e.getValue()));
        }
        return out;
    }

    /** What a node of type {@code t} leaves its pods: allocatable less the DaemonSets whose node affinity admits the type. */
    static Resources room(SchedulingInput input, InstanceType t) {
        Resources overhead = Resources.ZERO;
        for (DaemonSet d : input.daemonSets()) {
            if (d.template().nodeRequirementTerms().stream().anyMatch(term -> term.compatible(t.requirements()))) {
                overhead = overhead.plus(d.template().requests());
            }
        }
        return t.allocatable().minus(overhead);
    }

    /**
     * A warm median of wall time and of the solving thread's CPU time (the steadier figure on a shared machine), and the
     * bytes the last solve allocated on its thread (what one solve costs the heap).
     */
    private record Timed(SchedulingResult result, double millis, double cpuMillis, long allocated) {
    }

    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * Solves until the time is stable (the last five within 10% of their median, or {@value #MAX_WARMUP} solves), then
     * returns the median of those last five.
     */
    private static Timed time(SchedulingInput input, Scheduler.Strategy s) {
        List<Double> ms = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        SchedulingResult r = null;
        long budget = System.nanoTime() + 60_000_000_000L;
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long allocated;
        while (true) {
            long a0 = threads.getCurrentThreadAllocatedBytes();
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            r = Scheduler.solve(input, s);
            ms.add((System.nanoTime() - t0) / 1e6);
            cpu.add((threads.getCurrentThreadCpuTime() - c0) / 1e6);
            allocated = threads.getCurrentThreadAllocatedBytes() - a0;
            if (ms.size() >= MIN_SAMPLES) {
                double[] last = ms.subList(ms.size() - MIN_SAMPLES, ms.size()).stream().mapToDouble(Double::doubleValue).sorted().toArray();
                double median = last[MIN_SAMPLES / 2];
                boolean stable = last[0] >= 0.9 * median && last[MIN_SAMPLES - 1] <= 1.1 * median;
                if (stable || ms.size() >= MAX_WARMUP || System.nanoTime() > budget) {
                    double[] lastCpu = cpu.subList(cpu.size() - MIN_SAMPLES, cpu.size()).stream().mapToDouble(Double::doubleValue).sorted().toArray();
                    return new Timed(r, median, lastCpu[MIN_SAMPLES / 2], allocated);
                }
            }
        }
    }

    /** Runs {@code --cold} in a fresh JVM with the same class path and heap, and reads the wall and CPU milliseconds it prints. */
    private static double[] coldInChild(String caseName, int n, Scheduler.Strategy strategy) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long heap = Runtime.getRuntime().maxMemory() >> 20;
        Process p = new ProcessBuilder(java, "-Xmx" + heap + "m", "-cp", System.getProperty("java.class.path"),
                SchedulingBenchmark.class.getName(), "--cold", caseName, Integer.toString(n), strategy.name()).redirectErrorStream(true).start();
        String last = null;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            for (String line; (line = in.readLine()) != null; ) {
                last = line;
            }
        }
        p.waitFor();
        try {
            String[] parts = last.trim().split("\\s+");
            return new double[]{Double.parseDouble(parts[0]), Double.parseDouble(parts[1])};
        } catch (RuntimeException e) {
            return new double[]{Double.NaN, Double.NaN};
        }
    }

    /** The child side: builds the input, solves once with the strategy, prints the wall and thread-CPU milliseconds. */
    private static void cold(String caseName, int n, Scheduler.Strategy strategy) {
        Case c = cases().get(caseName);
        SchedulingInput input = c.input(n);
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Scheduler.solve(input, strategy);
        System.out.println((System.nanoTime() - t0) / 1e6 + " " + (threads.getCurrentThreadCpuTime() - c0) / 1e6);
    }

    static NodePool pool(List<Requirement> requirements) {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), requirements,
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
        return new NodePool("default", Map.of(), t, null, Map.of(), null, null);
    }

    static NodeClass defaultNodeClass() {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", null,
                List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")), List.of(), List.of(), "KarpenterNodeRole", null,
                null, Map.of(), List.of(), null, null, null, null, null);
    }
}
