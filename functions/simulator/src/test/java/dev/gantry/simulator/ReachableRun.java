package dev.gantry.simulator;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.LowerBound;
import dev.gantry.core.scheduling.PackingBound;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What a day of one deployment rescaled in steps (the diurnal scenarios) could cost, against both bounds: a model
 * with a perfect provisioner (each scale-up's extra pods go to free slots, then onto the cheapest whole fleet for the
 * rest), the ReplicaSet's scale-down (pods leave the fullest nodes first; empty nodes go at once), and a perfect
 * integer re-pack of the whole fleet a fixed delay after each change. Transitions are free, or cost the new nodes'
 * price for an overlap (boot and drain). With {@code --sim} it also runs the scenario and prints, per step, the
 * simulator's $/h beside the packing bound, to show where the money goes.
 * <p>
 * Arguments: scenario file, then optional {@code --sim}. The pods' shape and the DaemonSets are the diurnal
 * scenario's (web: 500m/1Gi; aws-node and kube-proxy: 125m/64Mi and two pod slots on every node).
 */
public final class ReachableRun {
    static final Resources POD = new Resources(500, 1L << 30, 0, 1, Map.of());
    static final Resources DAEMONS = new Resources(125, 64L << 20, 0, 2, Map.of());

    private ReachableRun() {
    }

    record Kind(String name, long holds, double price) {
    }

    public static void main(String[] args) {
        Scenario s = ScenarioReader.read(Path.of(args[0]));
        Simulation sim = new Simulation(s, x -> { }, Progress.none());
        NodePool pool = sim.config.nodePools().getFirst();
        List<InstanceType> types = sim.catalog.instanceTypes(sim.config.nodeClassOf(pool).orElseThrow()).stream()
                .filter(t -> pool.requirements().compatible(t.requirements()) && t.cheapestOffering(pool.requirements()) != null).toList();
        List<Kind> kinds = new ArrayList<>();
        for (InstanceType t : types) {
            Resources room = t.allocatable().minus(DAEMONS);
            long holds = PackingBoundHolds.of(room);
            if (holds > 0) {
                kinds.add(new Kind(t.name(), holds, t.cheapestOffering(pool.requirements()).pricePerHour()));
            }
        }
        // The steps: (start second, replicas) from the scenario's apply (20 replicas) and scale events.
        List<long[]> steps = new ArrayList<>();
        for (Scenario.Event e : s.events()) {
            if (e.action() instanceof Scenario.Apply) {
                steps.add(new long[] {e.at().toSeconds(), 20});
            } else if (e.action() instanceof Scenario.Scale sc) {
                steps.add(new long[] {e.at().toSeconds(), sc.replicas()});
            }
        }
        long end = s.run().duration().toSeconds();
        double fractional = 0;
        double packing = 0;
        for (int k = 0; k < steps.size(); k++) {
            double hours = ((k + 1 < steps.size() ? steps.get(k + 1)[0] : end) - steps.get(k)[0]) / 3600.0;
            int n = (int) steps.get(k)[1];
            fractional += hours * LowerBound.of(POD.times(n), types, pool.requirements(), t -> Resources.ZERO);
            packing += hours * PackingBound.of(Map.of(POD, n), types.stream()
                    .map(t -> new PackingBound.Column(t.allocatable().minus(DAEMONS), t.cheapestOffering(pool.requirements()).pricePerHour())).toList());
        }
        System.out.printf("%s: fractional bound $%.2f, packing bound $%.2f%n", s.name(), fractional, packing);
        System.out.println("re-pack delay   overlap   cost     ÷fractional  ÷packing");
        for (long overlap : new long[] {0, 120}) {
            for (long delayMin : new long[] {0, 1, 5, 10, 15, 30}) {
                double c = day(steps, end, kinds, delayMin * 60, overlap);
                System.out.printf("%8d min %7d s   $%6.2f   %6.3f×    %6.3f×%n", delayMin, overlap, c, c / fractional, c / packing);
            }
        }
        kinds.stream().sorted(Comparator.comparingDouble(kd -> kd.price() / kd.holds())).limit(8)
                .forEach(kd -> System.out.printf("  %-14s holds %3d  $%.4f/h  $%.4f a pod%n", kd.name(), kd.holds(), kd.price(), kd.price() / kd.holds()));
        for (int n : new int[] {4, 20, 80}) {
            System.out.println("  cheapest fleet for " + n + ": " + fleet(n, kinds).stream().map(Kind::name).toList());
        }
        if (args.length > 1 && args[1].equals("--sim")) {
            timeline(s, steps, end);
        }
    }

    /** How many diurnal pods a node's room holds. */
    static final class PackingBoundHolds {
        static long of(Resources room) {
            return Math.max(0, Math.min(room.pods(), Math.min(room.cpuMillis() / POD.cpuMillis(), room.memoryBytes() / POD.memoryBytes())));
        }
    }

    /** The cheapest whole fleet holding {@code n} pods (an exact cover by dynamic programming), as kinds. */
    static List<Kind> fleet(int n, List<Kind> kinds) {
        double[] best = new double[n + 1];
        int[] pick = new int[n + 1];
        for (int k = 1; k <= n; k++) {
            best[k] = Double.POSITIVE_INFINITY;
            for (int j = 0; j < kinds.size(); j++) {
                double c = kinds.get(j).price() + best[(int) Math.max(0, k - kinds.get(j).holds())];
                if (c < best[k]) {
                    best[k] = c;
                    pick[k] = j;
                }
            }
        }
        List<Kind> out = new ArrayList<>();
        for (int k = n; k > 0; k = (int) Math.max(0, k - kinds.get(pick[k]).holds())) {
            out.add(kinds.get(pick[k]));
        }
        return out;
    }

    private static final class Node {
        final Kind kind;
        long pods;

        Node(Kind kind) {
            this.kind = kind;
        }
    }

    /** The model's day: per step, the provisioner's and ReplicaSet's fleet until the re-pack, then the re-packed fleet. */
    static double day(List<long[]> steps, long end, List<Kind> kinds, long delay, long overlap) {
        List<Node> fleet = new ArrayList<>();
        double cost = 0;
        long pods = 0;
        for (int k = 0; k < steps.size(); k++) {
            long at = steps.get(k)[0];
            long until = k + 1 < steps.size() ? steps.get(k + 1)[0] : end;
            long want = steps.get(k)[1];
            if (want > pods) {
                long extra = want - pods;
                for (Node n : fleet) {
                    long take = Math.min(extra, n.kind.holds() - n.pods);
                    n.pods += take;
                    extra -= take;
                }
                for (Kind kd : fleet((int) extra, kinds)) {
                    Node n = new Node(kd);
                    n.pods = Math.min(kd.holds(), extra);
                    extra -= n.pods;
                    fleet.add(n);
                }
            } else {
                for (long gone = pods - want; gone > 0; gone--) {
                    fleet.stream().max(Comparator.comparingLong(n -> n.pods)).orElseThrow().pods--;
                }
                fleet.removeIf(n -> n.pods == 0);
            }
            pods = want;
            double rate = fleet.stream().mapToDouble(n -> n.kind.price()).sum();
            long repackAt = at + delay;
            if (repackAt >= until) {
                cost += rate * (until - at) / 3600.0;
                continue;
            }
            List<Kind> best = fleet((int) want, kinds);
            double bestRate = best.stream().mapToDouble(Kind::price).sum();
            if (bestRate < rate) {
                cost += rate * (repackAt - at) / 3600.0 + bestRate * overlap / 3600.0 + bestRate * (until - repackAt) / 3600.0;
                fleet.clear();
                long left = want;
                for (Kind kd : best) {
                    Node n = new Node(kd);
                    n.pods = Math.min(kd.holds(), left);
                    left -= n.pods;
                    fleet.add(n);
                }
            } else {
                cost += rate * (until - at) / 3600.0;
            }
        }
        return cost;
    }

    /** Runs the scenario and prints each step's average $/h beside the packing bound's. */
    private static void timeline(Scenario s, List<long[]> steps, long end) {
        Simulation sim = new Simulation(s, x -> { }, Progress.none());
        List<double[]> marks = new ArrayList<>();
        List<String> fleets = new ArrayList<>();
        for (long[] st : steps) {
            sim.loop.at(sim.start.plus(Duration.ofSeconds(st[0])), "mark", () -> {
                marks.add(new double[] {sim.recorder.cost(), sim.recorder.packingBoundCost(), sim.recorder.lowerBoundCost(), sim.liveInstances().size()});
                // The fleet just before this step's change: each node's type and how many of the deployment's pods it runs.
                java.util.Map<String, Long> perNode = new java.util.TreeMap<>();
                sim.cluster.pods().stream().filter(p -> !p.isDaemon() && p.isBound()).forEach(p -> perNode.merge(p.nodeName(), 1L, Long::sum));
                java.util.Map<String, Integer> byTypeAndLoad = new java.util.TreeMap<>();
                for (SimulatedInstance i : sim.liveInstances()) {
                    byTypeAndLoad.merge(i.type().name() + ":" + perNode.getOrDefault(i.dnsName(), 0L), 1, Integer::sum);
                }
                fleets.add(byTypeAndLoad.toString());
            });
        }
        sim.run();
        marks.add(new double[] {sim.recorder.cost(), sim.recorder.packingBoundCost(), sim.recorder.lowerBoundCost(), sim.liveInstances().size()});
        System.out.println("step   replicas  nodes  $/h     packing $/h  over   (money over the bound, $)");
        for (int k = 0; k < steps.size(); k++) {
            double hours = ((k + 1 < steps.size() ? steps.get(k + 1)[0] : end) - steps.get(k)[0]) / 3600.0;
            double c = (marks.get(k + 1)[0] - marks.get(k)[0]) / hours;
            double b = (marks.get(k + 1)[1] - marks.get(k)[1]) / hours;
            System.out.printf("%5s  %8d  %5.0f  %6.3f  %6.3f       %5.2f×  %5.2f%n", VirtualClock.format(steps.get(k)[0]), steps.get(k)[1],
                    marks.get(k + 1)[3], c, b, b > 0 ? c / b : 0, (c - b) * hours);
        }
        System.out.println(sim.recorder.cost() + " total; packing bound " + sim.recorder.packingBoundCost());
        System.out.println("fleet before each step (type:pods × nodes):");
        for (int k = 0; k < fleets.size(); k++) {
            System.out.println("  " + VirtualClock.format(steps.get(k)[0]) + " " + fleets.get(k));
        }
    }
}
