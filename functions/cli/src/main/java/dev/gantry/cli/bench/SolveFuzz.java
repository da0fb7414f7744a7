package dev.gantry.cli.bench;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random scheduling inputs on the real catalogue, solved with both strategies, every Throwable caught and each result
 * checked ({@link SolveChecks}). An input is one to four groups (slices of the benchmark workloads, or generated
 * Deployment-like groups from 10m to 72 vCPU, with 1 to 8 GPUs or Neuron devices, arch, spot and zone requirements
 * (or two node-affinity terms), host ports,
 * ephemeral storage), each maybe under a required constraint (zonal or hostname spread with maxSkew 1 to 3, zonal or
 * hostname anti-affinity and affinity) on its own label or one shared with other groups, or all groups under one; pods
 * that fit no type; DaemonSets or none; the whole-catalogue pool or the on-demand cmr>4 amd64 one, maybe with a cpu
 * limit, maybe beside a tainted GPU pool; and in one case in four existing nodes and in-flight claims holding some pods.
 * Prints a line per seed and strategy ("FINDING" below it when a result breaks an invariant or the solve throws) and
 * the thread CPU of the run:
 * {@code java -XX:-OmitStackTraceInFastThrow -Xmx1g -cp functions/cli/target/gantry.jar dev.gantry.cli.bench.SolveFuzz [firstSeed] [seeds] [maxPods]}
 * (add {@code -Dfuzz.show=true} to print each input's groups and the unschedulable reasons, {@code -Dfuzz.together=0} to put
 * every group of every seed under one zonal spread, 0 to 7 for the other constraints of {@link #withConstraint}).
 */
public final class SolveFuzz {
    private static final long MI = 1L << 20;
    private static final long GI = 1L << 30;
    private static final String NS = "default";
    private static final List<String> ZONES = dev.gantry.config.catalog.BuiltInCatalog.defaultZones("us-east-1");

    private SolveFuzz() {
    }

    public static void main(String[] args) {
        long first = args.length > 0 ? Long.parseLong(args[0]) : 1;
        int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int maxPods = args.length > 2 ? Integer.parseInt(args[2]) : 3000;
        Map<String, SchedulingBenchmark.Case> cases = SchedulingBenchmark.cases();
        List<InstanceType> real = cases.get("real mixed").types();
        List<NodePool> pools = List.of(cases.get("real mixed").pool(), cases.get("real generic on-demand cmr>4 amd64").pool());
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        int findings = 0;
        for (long seed = first; seed < first + seeds; seed++) {
            SchedulingInput input = input(random(seed), real, pools, maxPods);
            // LAUNCH: Scheduler.solveForLaunch (the provisioner's call, which may absorb small existing nodes' pods), when nodes exist.
            List<String> runs = new ArrayList<>(List.of("GANTRY", "KARPENTER_GREEDY"));
            if (!input.nodes().isEmpty()) {
                runs.add("LAUNCH");
            }
            for (String s : runs) {
                long t0 = mx.getCurrentThreadCpuTime();
                String problem;
                String sizes = "";
                try {
                    SchedulingResult res = s.equals("LAUNCH") ? Scheduler.solveForLaunch(input) : Scheduler.solve(input, Scheduler.Strategy.valueOf(s));
                    sizes = String.format(" claims %d unschedulable %d $/h %.3f", res.newClaims().size(), res.unschedulable().size(), res.totalPricePerHour());
                    problem = SolveChecks.check(input, res);
                    if (Boolean.getBoolean("fuzz.show")) {
                        show(input, res);
                    }
                } catch (Throwable e) {
                    java.io.StringWriter w = new java.io.StringWriter();
                    e.printStackTrace(new java.io.PrintWriter(w));
                    problem = "THROWS " + w;
                }
                long ms = (mx.getCurrentThreadCpuTime() - t0) / 1_000_000;
                if (problem != null) {
                    findings++;
                }
                System.out.printf("seed %d %s pods %d nodes %d+%d pools %s cpu %d ms%s%s%n", seed, s, input.pending().size(), input.nodes().size(), input.inFlight().size(),
                        input.pools().stream().map(o -> o.pool().name() + (o.pool().limits().isEmpty() ? "" : "(limited)") + "/" + o.requirements().keys().size()).toList(), ms, sizes, problem == null ? "" : "\n  FINDING " + problem);
            }
        }
        System.out.printf("seeds %d..%d: %d findings, thread cpu %.1f s%n", first, first + seeds - 1, findings,
                (mx.getCurrentThreadCpuTime() - cpu0) / 1e9);
    }

    /** Each pod shape and constraint with its count, and the unschedulable reasons with theirs. */
    static void show(SchedulingInput input, SchedulingResult res) {
        Map<String, Integer> kinds = new java.util.TreeMap<>();
        for (Pod p : input.pending()) {
            kinds.merge(p.labels() + " " + p.requests() + " aff " + p.nodeRequirementTerms() + " spread " + p.topologySpread() + " anti " + p.podAntiAffinity()
                    + " podAff " + p.podAffinity(), 1, Integer::sum);
        }
        kinds.forEach((k, v) -> System.out.println("  " + v + " x " + k));
        Map<String, Integer> why = new java.util.TreeMap<>();
        res.unschedulable().forEach(u -> why.merge(u.pod().labels() + ": " + u.reason(), 1, Integer::sum));
        why.forEach((k, v) -> System.out.println("  unschedulable " + v + " x " + k));
    }

    /** The seed's own generator (sequential seeds give java.util.Random correlated first draws: mix them). */
    static Random random(long seed) {
        return new Random(new java.util.SplittableRandom(seed).nextLong());
    }

    /** A random input: a few groups of pods (workload slices with constraints added, or generated), a pool, DaemonSets or none. */
    static SchedulingInput input(Random r, List<InstanceType> real, List<NodePool> pools, int maxPods) {
        int total = Math.max(1, (int) Math.round(Math.exp(r.nextDouble() * Math.log(maxPods))));
        int groups = 1 + r.nextInt(4);
        // One in four: every group in one Deployment-like group under one constraint (as the zonal GPU bag was).
        int together = r.nextInt(4) == 0 ? (r.nextBoolean() ? 0 : r.nextInt(8)) : -1;
        together = Integer.getInteger("fuzz.together", together); // e.g. 0: every seed one zonal spread over all groups
        List<Pod> pods = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int n = Math.max(1, total / groups);
            List<Pod> group = r.nextInt(3) == 0 ? workloadSlice(r, n) : generated(r, n, g);
            if (together >= 0) {
                group = withConstraint(r, group, "together", together);
            } else if (r.nextInt(3) == 0) {
                group = withConstraint(r, group, "shared-" + r.nextInt(2), -1);
            }
            for (Pod p : group) {
                pods.add(renamed(p, "g" + g + "-" + pods.size()));
            }
        }
        if (r.nextInt(6) == 0) { // pods that fit no type
            for (int i = 0; i < 1 + r.nextInt(3); i++) {
                Resources req = r.nextBoolean() ? Resources.of(1_000_000, 4 * GI) : Resources.of(1000, GI).with(Resources.NVIDIA_GPU, 64);
                pods.add(Pod.builder(NS, "huge-" + i).labels(Map.of("tier", "huge")).requests(req)
                        .tolerations(List.of(Toleration.exists(null))).build());
            }
        }
        List<DaemonSet> daemons = r.nextBoolean() ? BenchWorkloads.daemonSets() : List.of();
        NodePool pool = pools.get(r.nextInt(4) == 0 ? 1 : 0);
        List<SchedulingInput.PoolOffer> offers = new ArrayList<>();
        if (r.nextInt(5) == 0) { // a cpu limit on the pool
            pool = new NodePool(pool.name(), Map.of(), pool.template(), null,
                    Map.of("cpu", new dev.gantry.core.model.Quantity(java.math.BigDecimal.valueOf(8 + r.nextInt(400)))), null, null);
        }
        offers.add(new SchedulingInput.PoolOffer(pool, real));
        if (r.nextInt(4) == 0) { // a weighted GPU pool, tainted, beside it
            NodePool.Template t = new NodePool.Template(Map.of(), Map.of(),
                    List.of(new dev.gantry.core.model.Taint("nvidia.com/gpu", "", dev.gantry.core.model.Taint.Effect.NoSchedule)), List.of(),
                    List.of(dev.gantry.core.requirements.Requirement.of(WellKnownLabels.INSTANCE_CATEGORY, dev.gantry.core.requirements.Operator.In, "g", "p")),
                    new NodePool.NodeClassRef(null, null, "default"), java.util.Optional.empty(), java.util.Optional.empty());
            offers.add(r.nextBoolean() ? 0 : offers.size(), new SchedulingInput.PoolOffer(new NodePool("gpu", Map.of(), t, null, Map.of(), 10, null), real));
        }
        if (r.nextInt(4) != 0) {
            return new SchedulingInput(pods, List.of(), List.of(), daemons, offers, Map.of());
        }
        return withCapacity(r, pods, daemons, offers, real);
    }

    /**
     * Some existing nodes and in-flight claims of random real types (zone and capacity type of a random offering), with
     * some of the pods bound or nominated to them where they fit, the rest pending.
     */
    private static SchedulingInput withCapacity(Random r, List<Pod> pods, List<DaemonSet> daemons, List<SchedulingInput.PoolOffer> offers,
                                                List<InstanceType> real) {
        List<Resources> room = new ArrayList<>();
        List<Map<String, String>> labels = new ArrayList<>();
        List<List<Pod>> on = new ArrayList<>();
        List<InstanceType> types = new ArrayList<>();
        int hosts = 1 + r.nextInt(6);
        String pool = offers.stream().filter(o -> o.pool().template().taints().isEmpty()).findFirst().orElseThrow().pool().name();
        for (int i = 0; i < hosts; i++) {
            InstanceType t = real.get(r.nextInt(real.size()));
            while (t.offerings().isEmpty()) {
                t = real.get(r.nextInt(real.size()));
            }
            Offering o = t.offerings().get(r.nextInt(t.offerings().size()));
            Map<String, String> l = new HashMap<>(t.labels());
            l.put(WellKnownLabels.ZONE, o.zone());
            l.put(WellKnownLabels.CAPACITY_TYPE, o.capacityType());
            l.put(WellKnownLabels.HOSTNAME, "host-" + i);
            l.put(WellKnownLabels.NODEPOOL, pool);
            l.put(dev.gantry.core.model.Node.REGISTERED_LABEL, "true");
            l.put(dev.gantry.core.model.Node.INITIALIZED_LABEL, "true");
            labels.add(l);
            types.add(t);
            room.add(t.allocatable());
            on.add(new ArrayList<>());
        }
        List<Pod> pending = new ArrayList<>();
        for (Pod p : pods) {
            int h = r.nextInt(hosts);
            Resources after = room.get(h).minus(p.requests());
            if (r.nextInt(3) == 0 && after.isNonNegative() && Requirements.fromLabels(labels.get(h)).compatible(p.nodeRequirementTerms().get(0))) {
                room.set(h, after);
                on.get(h).add(h % 2 == 0 ? p.toBuilder().nodeName("host-" + h).owner("ReplicaSet", "rs-" + p.labels().hashCode()).status(new Pod.Status("Running", false, null, null, null)).build() : p);
            } else {
                pending.add(p);
            }
        }
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        List<SchedulingInput.InFlightClaim> inFlight = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            Resources alloc = types.get(h).allocatable();
            if (h % 2 == 0) {
                nodes.add(new SchedulingInput.ExistingNode(new dev.gantry.core.model.Node("host-" + h, "aws:///" + h, labels.get(h), Map.of(), List.of(), alloc,
                        true, false, false, java.time.Instant.EPOCH), on.get(h)));
            } else {
                inFlight.add(new SchedulingInput.InFlightClaim("host-" + h, pool, labels.get(h), List.of(), alloc, on.get(h)));
            }
        }
        return new SchedulingInput(pending, nodes, inFlight, daemons, offers, Map.of());
    }

    private static List<Pod> workloadSlice(Random r, int n) {
        long seed = r.nextInt(1000);
        List<Pod> all = switch (r.nextInt(4)) {
            case 0 -> BenchWorkloads.mixedRealPods(n, seed);
            case 1 -> BenchWorkloads.gpuMix(n, seed);
            case 2 -> BenchWorkloads.genericPods(n, seed);
            default -> BenchWorkloads.mixedPlus(n / 2, n - n / 2, BenchWorkloads.Constraint.values()[r.nextInt(3)]);
        };
        List<Pod> out = new ArrayList<>();
        for (Pod p : all) {
            if (r.nextInt(4) != 0) {
                out.add(p);
            }
        }
        return out.isEmpty() ? all.subList(0, 1) : out;
    }

    /** One Deployment-like group: a shape, maybe GPUs, an arch or spot requirement, maybe a constraint on its own label. */
    private static List<Pod> generated(Random r, int n, int g) {
        Map<String, String> labels = Map.of("app", "gen-" + g);
        int gpus = r.nextInt(5) == 0 ? 1 << r.nextInt(4) : 0;
        long cpu = switch (r.nextInt(4)) {
            case 0 -> 10 + r.nextInt(200);
            case 1 -> 250 + 250L * r.nextInt(8);
            case 2 -> 2000 + 1000L * r.nextInt(14);
            default -> 16000 + 8000L * r.nextInt(8);
        };
        long mem = Math.max(16, (long) (cpu * (0.25 + 8 * r.nextDouble()))) * MI;
        Resources req = r.nextInt(20) == 0 ? Resources.ZERO : Resources.of(cpu, mem);
        if (r.nextInt(8) == 0) {
            req = new Resources(req.cpuMillis(), req.memoryBytes(), (1L + r.nextInt(200)) * GI, 0, Map.of());
        }
        String accel = new String[]{Resources.NVIDIA_GPU, Resources.NVIDIA_GPU, Resources.NVIDIA_GPU, Resources.AMD_GPU, Resources.NEURON}[r.nextInt(5)];
        if (gpus > 0) {
            req = req.with(accel, gpus);
        }
        boolean ports = r.nextInt(10) == 0;
        boolean preferred = r.nextInt(6) == 0;
        Requirements node = Requirements.NONE;
        List<Requirements> terms = null; // several node-affinity terms (ORed), when set
        int k = r.nextInt(8);
        if (k == 0) {
            node = node.with(WellKnownLabels.ARCH, ValueSet.in(r.nextBoolean() ? "arm64" : "amd64"));
        } else if (k == 1) {
            node = node.with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("spot"));
        } else if (k == 2) {
            node = node.with(WellKnownLabels.ARCH, ValueSet.in("amd64")).with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("spot"));
        } else if (k == 3) { // one or two of the zones
            node = node.with(WellKnownLabels.ZONE, ValueSet.in(ZONES.subList(r.nextInt(2), 2 + r.nextInt(2))));
        } else if (k == 4) { // arm64 anywhere, or one zone on spot
            terms = List.of(Requirements.NONE.with(WellKnownLabels.ARCH, ValueSet.in("arm64")),
                    Requirements.NONE.with(WellKnownLabels.ZONE, ValueSet.in(ZONES.get(r.nextInt(3)))).with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("spot")));
        }
        List<Pod> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Pod.Builder b = Pod.builder(NS, "x").labels(labels).requests(req);
            if (terms != null) {
                b.requiredNodeAffinity(terms);
            } else if (!node.isEmpty()) {
                b.requiredNodeAffinity(List.of(node));
            }
            if (gpus > 0) {
                b.tolerations(List.of(Toleration.exists(accel)));
            }
            if (ports) {
                b.hostPorts(List.of(new dev.gantry.core.model.HostPort(8080, "TCP", null)));
            }
            if (preferred) {
                b.preferredPodAntiAffinity(List.of(new PodAffinityTerm(LabelSelector.of(labels), WellKnownLabels.HOSTNAME, List.of(), null, 50)))
                        .preferredNodeAffinity(List.of(new Pod.WeightedRequirements(10, Requirements.NONE.with(WellKnownLabels.ARCH, ValueSet.in("arm64")))));
            }
            out.add(b.build());
        }
        return r.nextInt(3) == 0 ? out : withConstraint(r, out, null, -1);
    }

    /**
     * The group's pods with one required constraint added, selecting {@code shared} (a label added to the pods, so
     * groups share it) or the pods' own labels; of kind {@code forced} unless it is negative.
     */
    static List<Pod> withConstraint(Random r, List<Pod> pods, String shared, int forced) {
        int kind = forced >= 0 ? forced : r.nextInt(8);
        int skew = 1 + r.nextInt(3);
        boolean hard = r.nextInt(5) != 0;
        Integer minDomains = r.nextInt(5) == 0 ? 2 + r.nextInt(5) : null;
        List<Pod> out = new ArrayList<>(pods.size());
        for (Pod p : pods) {
            Map<String, String> labels = new HashMap<>(p.labels());
            if (shared != null) {
                labels.put("shared", shared);
            }
            LabelSelector sel = LabelSelector.of(shared != null ? Map.of("shared", shared) : p.labels());
            Pod.Builder b = p.toBuilder().labels(Map.copyOf(labels));
            List<TopologySpread> spreads = new ArrayList<>(p.topologySpread());
            List<PodAffinityTerm> anti = new ArrayList<>(p.podAntiAffinity());
            List<PodAffinityTerm> aff = new ArrayList<>(p.podAffinity());
            switch (kind) {
                case 0, 1 -> spreads.add(new TopologySpread(skew, WellKnownLabels.ZONE, hard, sel, hard ? minDomains : null, List.of(), true, false));
                case 2 -> spreads.add(new TopologySpread(skew, WellKnownLabels.HOSTNAME, hard, sel, null, List.of(), true, false));
                case 7 -> {
                    spreads.add(new TopologySpread(skew, WellKnownLabels.ZONE, hard, sel, null, List.of(), true, false));
                    anti.add(PodAffinityTerm.required(sel, WellKnownLabels.HOSTNAME));
                }
                case 3 -> anti.add(PodAffinityTerm.required(sel, WellKnownLabels.HOSTNAME));
                case 4 -> anti.add(PodAffinityTerm.required(sel, WellKnownLabels.ZONE));
                case 5 -> aff.add(PodAffinityTerm.required(sel, WellKnownLabels.ZONE));
                default -> aff.add(PodAffinityTerm.required(sel, WellKnownLabels.HOSTNAME));
            }
            out.add(b.topologySpread(spreads).podAntiAffinity(anti).podAffinity(aff).build());
        }
        return out;
    }

    static Pod renamed(Pod p, String name) {
        return new Pod(p.namespace(), name, p.uid(), p.labels(), p.annotations(), p.requests(), p.nodeSelector(), p.requiredNodeAffinity(),
                p.preferredNodeAffinity(), p.tolerations(), p.topologySpread(), p.podAffinity(), p.preferredPodAffinity(), p.podAntiAffinity(),
                p.preferredPodAntiAffinity(), p.hostPorts(), p.nodeName(), p.ownerKind(), p.ownerName(), p.priority(), p.priorityClassName(), p.status());
    }
}
