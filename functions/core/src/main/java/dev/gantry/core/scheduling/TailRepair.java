package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * A packing's last pass. Greedy bin filling leaves its awkward pods (the most lopsided shapes) for the last bins, which
 * then run mostly empty on one resource. This moves the pods of the emptiest bins into the room other bins have left,
 * largest pod first and each into the bin it fits most tightly, emptying bins where it can and shrinking the rest (the
 * caller right-sizes and keeps the result only if it is cheaper). Pure: returns new bins.
 */
final class TailRepair {
    /** How many of the emptiest bins are tried, at most. */
    private static final int MAX_TRIED = 64;

    private TailRepair() {
    }

    static <T, B> List<ShapePacking.Bin<T, B>> repair(List<ShapePacking.Bin<T, B>> plan, Function<T, Resources> requests,
                                                     Function<B, Resources> roomOf) {
        return repair(plan, requests, roomOf, (p, t) -> true);
    }

    /** The same, moving a pod only into a bin whose type {@code allowed} says it may use. */
    static <T, B> List<ShapePacking.Bin<T, B>> repair(List<ShapePacking.Bin<T, B>> plan, Function<T, Resources> requests,
                                                     Function<B, Resources> roomOf, java.util.function.BiPredicate<T, B> allowed) {
        int n = plan.size();
        List<List<T>> pods = new ArrayList<>(n);
        Resources[] free = new Resources[n];
        double[] fill = new double[n];
        for (int i = 0; i < n; i++) {
            ShapePacking.Bin<T, B> bin = plan.get(i);
            pods.add(new ArrayList<>(bin.pods()));
            Resources room = roomOf.apply(bin.type());
            Resources used = Resources.ZERO;
            for (T p : bin.pods()) {
                used = used.plus(requests.apply(p));
            }
            free[i] = room.minus(used);
            fill[i] = Math.max(share(used.cpuMillis(), room.cpuMillis()), share(used.memoryBytes(), room.memoryBytes()));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingDouble(i -> fill[i]));
        boolean[] donor = new boolean[n];
        for (int k = 0; k < Math.min(MAX_TRIED, n - 1); k++) {
            int from = order.get(k);
            donor[from] = true;
            List<T> moving = new ArrayList<>(pods.get(from));
            moving.sort(Comparator.comparingLong((T p) -> -weight(requests.apply(p))));
            for (T p : moving) {
                Resources r = requests.apply(p);
                int to = -1;
                long tightest = Long.MAX_VALUE;
                for (int j = 0; j < n; j++) {
                    if (!donor[j] && r.fitsIn(free[j]) && allowed.test(p, plan.get(j).type())) {
                        long slack = weight(free[j].minus(r));
                        if (slack < tightest) {
                            tightest = slack;
                            to = j;
                        }
                    }
                }
                if (to >= 0) {
                    pods.get(from).remove(p);
                    pods.get(to).add(p);
                    free[to] = free[to].minus(r);
                    free[from] = free[from].plus(r);
                }
            }
        }
        List<ShapePacking.Bin<T, B>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!pods.get(i).isEmpty()) {
                out.add(new ShapePacking.Bin<>(plan.get(i).type(), pods.get(i)));
            }
        }
        return out;
    }

    private static double share(long used, long room) {
        return room <= 0 ? 0 : (double) used / room;
    }

    /** Room as one number, millicores plus MiB: how the tail passes weigh slack. */
    static long weight(Resources r) {
        return (r.memoryBytes() >> 20) + r.cpuMillis();
    }
}
