package dev.gantry.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Assertions that read like the domain: where did a pod go, and why not. */
final class Outcomes {
    private Outcomes() {
    }

    /** The new claim holding the pod, failing the test if the pod is elsewhere or unplaced. */
    static SchedulingResult.NodeClaimPlan claimOf(SchedulingResult r, String podName) {
        for (SchedulingResult.NodeClaimPlan c : r.newClaims()) {
            for (Pod p : c.pods()) {
                if (p.name().equals(podName)) {
                    return c;
                }
            }
        }
        return fail("pod %s is on no new claim; unschedulable: %s", podName, r.unschedulable());
    }

    static String nodeOf(SchedulingResult r, String podName) {
        for (var e : r.existingNodes().entrySet()) {
            if (e.getValue().stream().anyMatch(p -> p.name().equals(podName))) {
                return e.getKey();
            }
        }
        for (var e : r.inFlightClaims().entrySet()) {
            if (e.getValue().stream().anyMatch(p -> p.name().equals(podName))) {
                return e.getKey();
            }
        }
        return null;
    }

    static String reasonFor(SchedulingResult r, String podName) {
        return r.unschedulable().stream().filter(u -> u.pod().name().equals(podName)).map(SchedulingResult.Unschedulable::reason)
                .findFirst().orElseGet(() -> fail("pod %s was placed", podName));
    }

    static void assertAllScheduled(SchedulingResult r) {
        assertThat(r.unschedulable()).as("unschedulable pods").isEmpty();
    }

    static String zoneOf(SchedulingResult.NodeClaimPlan c) {
        return c.offering().zone();
    }

    /** Pods per zone of their new claims. */
    static Map<String, Long> podsPerZone(SchedulingResult r) {
        return r.newClaims().stream().flatMap(c -> c.pods().stream().map(p -> zoneOf(c)))
                .collect(Collectors.groupingBy(z -> z, java.util.TreeMap::new, Collectors.counting()));
    }

    static String label(SchedulingResult.NodeClaimPlan c, String key) {
        return switch (key) {
            case WellKnownLabels.ZONE -> c.offering().zone();
            case WellKnownLabels.CAPACITY_TYPE -> c.offering().capacityType();
            case WellKnownLabels.INSTANCE_TYPE -> c.instanceType().name();
            default -> c.instanceType().labels().getOrDefault(key, c.requirements().get(key).singleValue());
        };
    }

    static List<String> podNames(SchedulingResult.NodeClaimPlan c) {
        return c.pods().stream().map(Pod::name).sorted().toList();
    }

    /** Pods per capacity type of their new claims. */
    static Map<String, Long> podsPerCapacityType(SchedulingResult r) {
        return r.newClaims().stream().flatMap(c -> c.pods().stream().map(p -> c.offering().capacityType()))
                .collect(Collectors.groupingBy(z -> z, java.util.TreeMap::new, Collectors.counting()));
    }

    /** How many of the named pods share each new claim, largest first (a hostname spread's shape). */
    static List<Integer> podsPerClaim(SchedulingResult r) {
        return r.newClaims().stream().map(c -> c.pods().size()).sorted(java.util.Comparator.reverseOrder()).toList();
    }

    static List<String> unschedulableNames(SchedulingResult r) {
        return r.unschedulable().stream().map(u -> u.pod().name()).sorted().toList();
    }

    static void assertScheduled(SchedulingResult r, String... podNames) {
        for (String name : podNames) {
            boolean placed = r.newClaims().stream().anyMatch(c -> c.pods().stream().anyMatch(p -> p.name().equals(name)))
                    || nodeOf(r, name) != null;
            assertThat(placed).as("pod %s placed; unschedulable: %s", name, r.unschedulable()).isTrue();
        }
    }

    static void assertNotScheduled(SchedulingResult r, String... podNames) {
        assertThat(unschedulableNames(r)).as("unschedulable pods").contains(podNames);
    }

    /** The zone a pod landed in, whether on a new claim, an existing node or an in-flight claim (given their zones). */
    static String zoneOfPod(SchedulingResult r, String podName, Map<String, String> slotZones) {
        String slot = nodeOf(r, podName);
        return slot != null ? slotZones.get(slot) : zoneOf(claimOf(r, podName));
    }
    /** Pods per value of {@code key} over the new claims (a claim without the label is left out): Karpenter's ExpectSkew. */
    static Map<String, Long> podsPerDomain(SchedulingResult r, String key) {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (SchedulingResult.NodeClaimPlan c : r.newClaims()) {
            String v = label(c, key);
            if (v != null) {
                out.merge(v, (long) c.pods().size(), Long::sum);
            }
        }
        return out;
    }
}
