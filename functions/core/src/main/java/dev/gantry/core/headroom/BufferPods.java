package dev.gantry.core.headroom;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a buffer into the virtual pods that stand for its capacity. A virtual pod is a copy of the chunk's pod
 * (requests, selectors, affinities, tolerations, topology spread) that exists only in memory, marked as Karpenter
 * marks its own: annotation {@value #FAKE_POD} {@code "true"} with the buffer's name and namespace, the lowest priority,
 * and owner kind {@value #OWNER_KIND}; pending and unschedulable as kube-scheduler would leave it. {@link #isVirtual}
 * is how the scheduler and sweep recognise one.
 */
public final class BufferPods {
    /** The owner kind of every virtual pod. */
    public static final String OWNER_KIND = "CapacityBuffer";
    /** Karpenter's marker of a virtual buffer pod (value {@code "true"}). */
    public static final String FAKE_POD = "karpenter.sh/capacity-buffer-fake-pod";
    /** Karpenter's annotation naming a virtual pod's buffer. */
    public static final String BUFFER_NAME = "karpenter.sh/capacity-buffer-name";
    /** Karpenter's annotation naming a virtual pod's buffer's namespace. */
    public static final String BUFFER_NAMESPACE = "karpenter.sh/capacity-buffer-namespace";
    /** The priority of every virtual pod, as Karpenter stamps it: below any real pod. */
    public static final int PRIORITY = Integer.MIN_VALUE;

    private BufferPods() {
    }

    /** Whether a pod is a buffer's virtual pod (never to be bound, evicted or counted as a workload). */
    public static boolean isVirtual(Pod pod) {
        return "true".equals(pod.annotations().get(FAKE_POD));
    }

    /** A static buffer (or a predicted one without history) at {@code now}. */
    public static BufferExpansion expand(CapacityBuffer buffer, BufferTargets targets, Instant now, Duration bootLead) {
        return expand(buffer, targets, DemandHistory.EMPTY, now, bootLead);
    }

    /**
     * The buffer's virtual pods at {@code now}: none outside its window (which opens {@code bootLead} early, see
     * {@link BufferWindow}), else as many chunks as the API's rules give, predicted demand for the hour containing
     * {@code now + bootLead} included in predicted mode, within the buffer's limits.
     */
    public static BufferExpansion expand(CapacityBuffer buffer, BufferTargets targets, DemandHistory history,
                                         Instant now, Duration bootLead) {
        if (!buffer.isActiveCapacity()) {
            return new BufferExpansion(buffer, BufferExpansion.State.IGNORED, null, 0, List.of(), null,
                    "provisioning strategy " + buffer.strategy() + " is not " + CapacityBuffer.ACTIVE_CAPACITY);
        }
        Optional<BufferTargets.Target> target = targets.resolve(buffer);
        if (target.isEmpty()) {
            return new BufferExpansion(buffer, BufferExpansion.State.UNRESOLVED, null, 0, List.of(), null,
                    buffer.target().label() + " not found in namespace " + buffer.namespace());
        }
        Pod template = target.get().template();
        Resources chunk = template.requests();
        if (!BufferWindow.isActive(buffer.schedule(), now, bootLead)) {
            Instant next = BufferWindow.nextOpening(buffer.schedule(), now, bootLead).orElse(null);
            return new BufferExpansion(buffer, BufferExpansion.State.INACTIVE, chunk, 0, List.of(), next,
                    "outside its schedule" + (next == null ? "" : ", opens " + next));
        }
        Count c = count(buffer, target.get(), chunk, history, now.plus(bootLead));
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < c.chunks; i++) {
            pods.add(virtualPod(buffer, template, i, now));
        }
        return new BufferExpansion(buffer, BufferExpansion.State.ACTIVE, chunk, c.wanted, pods, null, c.reason);
    }

    private record Count(int wanted, int chunks, String reason) {
    }

    private static Count count(CapacityBuffer b, BufferTargets.Target target, Resources chunk, DemandHistory history,
                               Instant readyAt) {
        List<String> why = new ArrayList<>();
        long wanted = 0;
        if (b.replicas() != null) {
            wanted = b.replicas();
            why.add("replicas " + b.replicas());
        }
        if (b.percentage() != null) {
            long pct = ceilDiv((long) b.percentage() * target.replicas(), 100);
            wanted = Math.max(wanted, pct);
            why.add(b.percentage() + "% of " + target.replicas() + " = " + pct);
        }
        if (b.prediction() != null) {
            CapacityBuffer.Prediction p = b.prediction();
            Resources demand = history.quantile(p.nodePool(), readyAt, p.quantile());
            long predicted = chunksFor(demand, chunk);
            wanted = Math.max(wanted, predicted);
            why.add("predicted " + demand + " for " + p.nodePool() + " at hour " + DemandHistory.hourOfWeek(readyAt)
                    + " of the week (p" + Math.round(p.quantile() * 100) + " of "
                    + history.weeksObserved(p.nodePool(), readyAt) + " weeks) = " + predicted);
        }
        long fit = fitInLimits(b.limits(), chunk);
        if (b.replicas() == null && b.percentage() == null && b.prediction() == null) {
            wanted = fit == Long.MAX_VALUE ? 0 : fit;
            why.add("as many as fit in the limits");
        }
        long chunks = Math.min(wanted, fit);
        String reason = String.join(", ", why) + " -> " + chunks + (chunks == 1 ? " chunk" : " chunks") + " of " + chunk
                + (chunks < wanted ? " (capped by limits " + b.limitsText() + ")" : "");
        return new Count((int) Math.min(wanted, Integer.MAX_VALUE), (int) Math.min(chunks, Integer.MAX_VALUE), reason);
    }

    /** Chunks needed to cover {@code demand} in every resource it names (cpu and memory). */
    static long chunksFor(Resources demand, Resources chunk) {
        long n = 0;
        if (demand.cpuMillis() > 0 && chunk.cpuMillis() > 0) {
            n = Math.max(n, ceilDiv(demand.cpuMillis(), chunk.cpuMillis()));
        }
        if (demand.memoryBytes() > 0 && chunk.memoryBytes() > 0) {
            n = Math.max(n, ceilDiv(demand.memoryBytes(), chunk.memoryBytes()));
        }
        return n;
    }

    /**
     * How many chunks fit within every limit on a resource the chunk requests; {@link Long#MAX_VALUE} when nothing
     * limits them. As in Karpenter, {@code pods} is not a request, so a {@code pods} limit bounds nothing.
     */
    static long fitInLimits(Map<String, Quantity> limits, Resources chunk) {
        long fit = Long.MAX_VALUE;
        Resources ceiling = Resources.fromQuantities(limits);
        for (String r : limits.keySet()) {
            long per = r.equals(Resources.PODS) ? 0 : chunk.get(r);
            if (per > 0) {
                fit = Math.min(fit, ceiling.get(r) / per);
            }
        }
        return fit;
    }

    private static Pod virtualPod(CapacityBuffer b, Pod t, int i, Instant now) {
        Map<String, String> annotations = new HashMap<>(t.annotations());
        annotations.put(FAKE_POD, "true");
        annotations.put(BUFFER_NAME, b.name());
        annotations.put(BUFFER_NAMESPACE, b.namespace());
        return new Pod(b.namespace(), b.name() + "-buffer-" + i, "capacitybuffer:" + b.key() + "/" + i, t.labels(),
                annotations, t.requests(), t.nodeSelector(), t.requiredNodeAffinity(), t.preferredNodeAffinity(),
                t.tolerations(), t.topologySpread(), t.podAffinity(), t.preferredPodAffinity(), t.podAntiAffinity(),
                t.preferredPodAntiAffinity(), t.hostPorts(), null, OWNER_KIND, b.name(), PRIORITY,
                null, new Pod.Status("Pending", true, now, null, null));
    }

    private static long ceilDiv(long a, long b) {
        return Math.floorDiv(a + b - 1, b);
    }
}
