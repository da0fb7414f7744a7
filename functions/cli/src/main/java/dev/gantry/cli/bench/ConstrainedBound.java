package dev.gantry.cli.bench;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.PackingBound;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The packing bound of {@link SchedulingBenchmark#packingBound}, told about the constraints that make it loose: a lower
 * bound on any placement that keeps them, so that "Gantry ÷ this" is packing and "this ÷ the LP" is the constraints'
 * own cost. Each constraint becomes an extra resource of {@link PackingBound}, which counts extended resources in its
 * rows and covers:
 * <ul>
 *   <li><b>Required hostname anti-affinity</b> of a pod against its own selector: the pod asks one unit of
 *       {@code bench/host-<selector>}, and every node has one. No node holds two.</li>
 *   <li><b>Hostname spread</b> ({@code DoNotSchedule}, maxSkew k) on its own selector: a node holds at most k of them
 *       (a new node is a domain with none, as Karpenter counts hostname domains), so every node has k units.</li>
 *   <li><b>Zonal spread</b> ({@code DoNotSchedule}, maxSkew k) on its own selector, over the Z zones the group's
 *       types are offered in: no zone holds fewer than m = ⌊(n − (Z−1)k) / Z⌋ of the group's n pods, so m pods per zone
 *       ask one unit of {@code bench/zone-<z>}, which only that zone's nodes have (a column per type and zone, at the
 *       zone's cheapest offering); the rest go anywhere. Fewer pods pinned than any real split pins, so still a bound.</li>
 * </ul>
 * Groups are those of the packing bound (each new claim's pods by pool and node-affinity term). Benchmark code: it
 * measures the scheduler and is not used by it.
 */
final class ConstrainedBound {
    private ConstrainedBound() {
    }

    static double of(SchedulingInput input, SchedulingResult r) {
        double total = 0;
        for (SchedulingBenchmark.BoundGroup g : SchedulingBenchmark.boundGroups(input, r)) {
            total += group(input, g.offer(), g.requirements(), g.pods());
        }
        return total;
    }

    private static double group(SchedulingInput input, SchedulingInput.PoolOffer offer, Requirements reqs, List<Pod> pods) {
        Set<String> zones = new TreeSet<>();
        List<InstanceType> types = new ArrayList<>();
        for (InstanceType t : offer.instanceTypes()) {
            if (reqs.compatible(t.requirements()) && t.cheapestOffering(reqs) != null) {
                types.add(t);
                t.offerings().stream().filter(Offering::available).forEach(o -> zones.add(o.zone()));
            }
        }
        // Per-node limits (anti-affinity and hostname spread) and the zonal groups, by their selectors.
        Map<String, Long> perNode = new LinkedHashMap<>();
        Map<String, List<Pod>> zonal = new LinkedHashMap<>();
        Map<String, Integer> zonalSkew = new LinkedHashMap<>();
        Map<Pod, Resources> shape = new LinkedHashMap<>();
        for (Pod p : pods) {
            Resources s = p.requests();
            for (PodAffinityTerm t : p.podAntiAffinity()) {
                if (WellKnownLabels.HOSTNAME.equals(t.topologyKey()) && t.selector().matches(p.labels())) {
                    String key = "bench/host-" + name(t.selector());
                    perNode.put(key, 1L);
                    s = s.with(key, 1);
                }
            }
            for (TopologySpread t : p.topologySpread()) {
                if (!t.doNotSchedule() || !t.selector().matches(p.labels())) {
                    continue;
                }
                if (WellKnownLabels.HOSTNAME.equals(t.topologyKey())) {
                    String key = "bench/host-" + name(t.selector());
                    perNode.merge(key, (long) t.maxSkew(), Math::min);
                    s = s.with(key, 1);
                } else if (WellKnownLabels.ZONE.equals(t.topologyKey())) {
                    zonal.computeIfAbsent(name(t.selector()), k -> new ArrayList<>()).add(p);
                    zonalSkew.merge(name(t.selector()), t.maxSkew(), Math::max);
                }
            }
            shape.put(p, s);
        }
        // Pin m pods of each zonal group to each zone (a pod is pinned by one group only).
        Set<Pod> pinned = new LinkedHashSet<>();
        int z = zones.size();
        for (var g : zonal.entrySet()) {
            List<Pod> free = g.getValue().stream().filter(p -> !pinned.contains(p)).toList();
            int m = z == 0 ? 0 : Math.max(0, (free.size() - (z - 1) * zonalSkew.get(g.getKey())) / z);
            int i = 0;
            for (String zone : zones) {
                for (int k = 0; k < m; k++, i++) {
                    Pod p = free.get(i);
                    pinned.add(p);
                    shape.put(p, shape.get(p).with("bench/zone-" + zone, 1));
                }
            }
        }
        Map<Resources, Integer> shapes = new LinkedHashMap<>();
        shape.values().forEach(s -> shapes.merge(s, 1, Integer::sum));
        List<PackingBound.Column> columns = new ArrayList<>();
        for (InstanceType t : types) {
            Resources room = SchedulingBenchmark.room(input, t);
            for (var limit : perNode.entrySet()) {
                room = room.with(limit.getKey(), limit.getValue());
            }
            if (pinned.isEmpty()) {
                columns.add(new PackingBound.Column(room, t.cheapestOffering(reqs).pricePerHour()));
                continue;
            }
            for (String zone : zones) {
                Offering o = t.withOfferings(t.offerings().stream().filter(x -> x.zone().equals(zone)).toList()).cheapestOffering(reqs);
                if (o != null) {
                    // As many as the node has pod slots (no more can land on it; a larger figure only spoils the LP's scale).
                    columns.add(new PackingBound.Column(room.with("bench/zone-" + zone, room.pods()), o.pricePerHour()));
                }
            }
        }
        return PackingBound.of(shapes, columns);
    }

    private static String name(LabelSelector s) {
        return Integer.toHexString(s.hashCode());
    }
}
