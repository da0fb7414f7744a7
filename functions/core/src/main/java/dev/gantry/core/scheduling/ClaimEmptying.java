package dev.gantry.core.scheduling;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plan's last pass: its cheapest claims are emptied, where they can be, into room the plan already pays for (other
 * claims' slack at the type they are expected to launch, free room on nodes and claims in flight), and dropped.
 *
 * <p>The packing passes before it re-pack one claim group (pool and requirements) at a time and keep each zone's count
 * of a spread's pods, which the greedy loop decides pod by pod. That loop can leave a zone's last pod on a node of its
 * own while another zone's node has room for it: the drift scenario's subnet change planned 7, 5 and 7 + 1 pods of a
 * zonal spread (maxSkew 2, 7/7/6 already running) on three nodes and a fourth, $0.05/h one, where the second node had
 * room for a sixth pod and 14/13/13 keeps the spread. Here a pod moves across zones only where every count group it is
 * in stays at least as even ({@link Topology#mayMove}) and its own constraints still hold there ({@link Topology#check}),
 * and into a claim only where the claim's expected price does not rise.
 *
 * <p>A claim is emptied whole or not at all, each of its pods into a different target (so each target's fit, computed
 * against the target as it is, stays valid until all are committed); a claim emptied gives back what it counted
 * against its pool's limits ({@link Claim#release}). So the pass only drops claims: the plan's price only falls, and
 * every pod stays placed.
 */
final class ClaimEmptying {
    /** Claims holding more pods are not tried: the gain is in the small claims a zone's last pods get. */
    static final int MAX_PODS = 8;
    /** At most this many claims are tried, the cheapest first. */
    static final int MAX_TRIED = 64;
    /** Each pod is checked in full against at most this many targets, those it fits most tightly. */
    static final int TIGHTEST = 16;
    /** Each pod looks at most at this many rooms, from the first that weighs as much as the pod. */
    static final int SCANNED = 2_048;

    private ClaimEmptying() {
    }

    /** One pod's way out of the claim being emptied: into a node's free room or a claim's, as fitted. */
    private record Move(Pod pod, Slot to, ClaimFit fit) {
        void commit() {
            if (to instanceof Claim claim) {
                claim.commit(pod, fit);
            } else {
                ((NodeSlot) to).place(pod);
            }
        }
    }

    static void run(Packer packer) {
        if (packer.claims.size() + packer.slots.size() < 2) {
            return;
        }
        List<Claim> tried = packer.claims.stream()
                .filter(c -> !c.pods.isEmpty() && c.pods.size() <= MAX_PODS)
                .sorted(Comparator.comparingDouble(Claim::price).thenComparingInt(c -> c.index))
                .limit(MAX_TRIED).toList();
        if (tried.isEmpty()) {
            return;
        }
        Targets targets = null;
        Set<Claim> emptied = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Claim donor : tried) {
            if (!donor.pods.stream().allMatch(packer.topology::mayMove)) {
                continue; // some pod's place matters beyond its zone's count (anti-affinity, a hostname spread)
            }
            if (targets == null) {
                targets = new Targets(packer);
            }
            if (empty(packer, donor, targets)) {
                emptied.add(donor);
                targets.drop(donor);
                targets.sort();
            }
        }
        if (!emptied.isEmpty()) {
            packer.claims.removeAll(emptied);
            emptied.forEach(Claim::release);
        }
    }

    /**
     * Every slot a pod may move into, with the room it has left (a node's free room, a claim's room at its expected type
     * less what it holds), ordered by that room's weight: a pod's tightest rooms are the first from the point its own
     * weight reaches.
     */
    private static final class Targets {
        final List<Slot> slots = new ArrayList<>();
        final List<Resources> free = new ArrayList<>();
        final Map<Slot, Integer> index = new IdentityHashMap<>();
        /** Slot indexes by the weight of their room, ascending, and those weights; dropped slots are left out. */
        int[] order;
        long[] weights;

        Targets(Packer packer) {
            for (NodeSlot s : packer.slots) {
                add(s, s.free);
            }
            for (Claim c : packer.claims) {
                if (!c.pods.isEmpty()) {
                    add(c, room(c));
                }
            }
            sort();
        }

        /** A claim's room at the type it is expected to launch, less what it holds. */
        static Resources room(Claim c) {
            return c.pool.room(c.cheapest()).minus(c.requests);
        }

        private void add(Slot s, Resources room) {
            index.put(s, slots.size());
            slots.add(s);
            free.add(room);
        }

        void sort() {
            List<Integer> kept = new ArrayList<>();
            for (int i = 0; i < slots.size(); i++) {
                if (free.get(i) != null) {
                    kept.add(i);
                }
            }
            kept.sort(Comparator.comparingLong((Integer i) -> TailRepair.weight(free.get(i))).thenComparingInt(i -> i));
            order = new int[kept.size()];
            weights = new long[kept.size()];
            for (int k = 0; k < order.length; k++) {
                order[k] = kept.get(k);
                weights[k] = TailRepair.weight(free.get(order[k]));
            }
        }

        /** The first position in {@link #order} whose room weighs at least {@code w}. */
        int from(long w) {
            int lo = 0;
            int hi = weights.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (weights[mid] < w) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        void drop(Slot s) {
            free.set(index.get(s), null);
        }

        /** After a pod was committed to the slot ({@link #sort} once the claim is emptied). */
        void update(Slot s) {
            free.set(index.get(s), s instanceof Claim c ? room(c) : ((NodeSlot) s).free);
        }
    }

    /** Moves every pod of {@code donor} elsewhere and returns true, or moves none and returns false. */
    private static boolean empty(Packer packer, Claim donor, Targets targets) {
        List<Pod> pods = new ArrayList<>(donor.pods);
        pods.sort(Comparator.comparingLong((Pod p) -> -p.requests().cpuMillis()).thenComparingLong(p -> -p.requests().memoryBytes()));
        List<Move> moves = new ArrayList<>();
        Set<Slot> used = Collections.newSetFromMap(new IdentityHashMap<>());
        used.add(donor);
        for (Pod p : pods) {
            Move m = target(packer, PodConstraints.strict(p), donor, targets, used);
            if (m == null) {
                for (int i = moves.size() - 1; i >= 0; i--) {
                    packer.topology.move(moves.get(i).pod(), moves.get(i).to(), donor);
                }
                return false;
            }
            packer.topology.move(p, donor, m.to());
            moves.add(m);
            used.add(m.to());
        }
        for (Move m : moves) {
            m.commit();
            targets.update(m.to());
        }
        return true;
    }

    /**
     * The slot whose room the pod fits most tightly and that takes it: from the first room that weighs as much as the
     * pod, at most {@value #SCANNED} rooms are looked at, and of those that hold the pod, whose taints it tolerates, whose
     * labels or requirements its node selector could match and that the topology lets it move to, the first
     * {@value #TIGHTEST} are checked in full (a claim's fit above all costs far more than these filters); or null.
     */
    private static Move target(Packer packer, PodConstraints c, Claim donor, Targets targets, Set<Slot> used) {
        Resources need = c.requests();
        dev.gantry.core.requirements.Requirements term = c.nodeRequirements();
        int checked = 0;
        int start = targets.from(TailRepair.weight(need));
        int end = Math.min(targets.order.length, start + SCANNED);
        for (int k = start; k < end && checked < TIGHTEST; k++) {
            int i = targets.order[k];
            Resources free = targets.free.get(i);
            Slot to = targets.slots.get(i);
            if (free == null || !need.fitsIn(free) || used.contains(to) || c.firstUntolerated(to.taints()) != null
                    || !to.couldMatch(term) || !packer.topology.mayMove(c.pod(), donor, to)) {
                continue;
            }
            checked++;
            if (to instanceof NodeSlot node) {
                if (node.misfit(c) == null && packer.topology.check(c, node).ok()) {
                    return new Move(c.pod(), node, null);
                }
                continue;
            }
            Claim claim = (Claim) to;
            Topology.Outcome t = packer.topology.check(c, claim);
            if (!t.ok()) {
                continue;
            }
            ClaimFit fit = claim.fit(c, t.pins(), Packer.Upsize.FORBIDDEN);
            if (fit.ok() && Claim.priceOf(fit) <= claim.price()) {
                return new Move(c.pod(), claim, fit);
            }
        }
        return null;
    }
}
