package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import java.util.List;
import java.util.TreeSet;

/**
 * Why a pod does not fit a {@link Claim}, in the words a user reads in the pod's FailedScheduling Event. Worked out
 * only when a reason is asked for ({@link ClaimFit#failure()}), from the claim as it is then.
 */
final class ClaimMisfit {
    private ClaimMisfit() {
    }

    /** The values of {@code key} the claim allows: its own, or else those its options carry. */
    static String allowed(Claim claim, String key) {
        ValueSet own = claim.requirements.get(key);
        if (own.isFinite()) {
            return own.values().toString();
        }
        TreeSet<String> vals = new TreeSet<>();
        for (InstanceType t : claim.options) {
            ValueSet s = t.requirements().get(key);
            if (s.isFinite()) {
                vals.addAll(s.values());
            }
        }
        return vals.isEmpty() ? own.describe() : vals.toString();
    }

    /**
     * No option holds {@code total} (the claim's pods and the new one) under {@code next}, some of them because of the
     * pool's limits: the limit in the way ({@link #limitReason}) when there is one, else {@link #nothingFits}.
     */
    static String overLimits(Claim claim, PodConstraints c, Requirements next, Resources total) {
        String reason = limitReason(claim, total);
        return reason != null ? reason : nothingFits(claim, c, next, total);
    }

    /**
     * No option holds {@code total} under {@code next}: no pool type satisfies {@code next}, none offers enough of a
     * resource the pod (or, once the claim has pods, the claim) needs, or none fits it all with the requirements.
     */
    static String nothingFits(Claim claim, PodConstraints c, Requirements next, Resources total) {
        PoolContext pool = claim.pool;
        Resources need = claim.pods.isEmpty() ? c.requests() : total;
        List<InstanceType> compatible = pool.compatibleTypes(next);
        if (compatible.isEmpty()) {
            return "no instance type in NodePool " + pool.name() + " satisfies " + next;
        }
        for (String resource : need.asMap().keySet()) {
            long amount = need.get(resource);
            if (compatible.stream().noneMatch(t -> t.allocatable().get(resource) - pool.daemonOverhead(t).get(resource) >= amount)) {
                return "no instance type offers " + Resources.format(resource, amount) + " " + resource;
            }
        }
        return "no instance type in NodePool " + pool.name() + " fits " + need + " with its requirements";
    }

    /**
     * Why no option that holds {@code total} fits the pool's limits, with the figures of the limited resource in the
     * way: what the pool's nodes and in-flight claims use ({@code in use}), what the claims of this plan are counted at
     * (each at the largest type it may launch, Karpenter's accounting, and at its expected type) and the smallest node
     * that holds the pod. When the limit only binds because of that accounting (at their expected types the claims
     * leave room for that node), the pod is "waiting for capacity to be confirmed": the next run counts the launched
     * nodes at their real types. Otherwise the limit is reached: "would exceed its ... limit".
     */
    private static String limitReason(Claim claim, Resources total) {
        PoolContext pool = claim.pool;
        Resources reserved = claim.reserved;
        InstanceType smallest = null;
        String resource = null;
        for (InstanceType t : claim.options) {
            if (total.plus(pool.daemonOverhead(t)).fitsIn(t.allocatable())) {
                String r = pool.exceededResource(t.capacity(), reserved);
                if (r != null && (smallest == null || t.capacity().get(r) < smallest.capacity().get(r))) {
                    smallest = t;
                    resource = r;
                }
            }
        }
        if (smallest == null) {
            return null;
        }
        long limit = pool.limit(resource);
        String head = "NodePool " + pool.name() + " would exceed its " + resource + " limit (" + Resources.format(resource, limit) + ")";
        if (limit == 0) {
            return head;
        }
        long inUse = pool.offer.usage().get(resource);
        long counted = pool.committed.get(resource) - inUse - reserved.get(resource);
        long expectedNew = pool.expectedNew.get(resource) - claim.expected().get(resource);
        long need = smallest.capacity().get(resource);
        String newNodes = Resources.format(resource, counted) + " counted at most for new nodes ("
                + Resources.format(resource, expectedNew) + " expected)";
        if (counted > expectedNew && inUse + expectedNew + need <= limit) {
            return "NodePool " + pool.name() + " is waiting for capacity to be confirmed: " + resource + " "
                    + Resources.format(resource, inUse) + " in use, " + newNodes + ", limit " + Resources.format(resource, limit)
                    + "; a node for the pod (" + Resources.format(resource, need) + ") fits once their types are known";
        }
        return head + ": " + Resources.format(resource, inUse) + " in use, "
                + (counted == 0 ? "" : counted > expectedNew ? newNodes + ", " : Resources.format(resource, counted) + " for new nodes, ")
                + "a node for the pod adds at least " + Resources.format(resource, need);
    }
}
