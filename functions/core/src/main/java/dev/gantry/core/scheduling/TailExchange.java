package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * A packing's tail, paired with its body. Bin-by-bin filling spends the complementary shapes unevenly: the body's
 * cpu-rich nodes fill their cpu and keep spare memory, while memory-heavy, low-cpu pods are left over and open
 * memory-rich nodes of their own at the end. This trades between the two: the tail is the bins whose contents are
 * worth least, at the group's LP unit prices, for what they cost; each step moves k pods of one tail shape into a body
 * bin's spare room, sending at most one body pod back to the tail, when that lowers what the tail's aggregate would cost
 * at the tail's own LP unit prices (re-read after every step, so the trade stops once the tail is balanced). The tail's
 * pods are then packed again as one group, on the type their new cpu:memory ratio calls for. Body bins keep their
 * types and stay within their room. The caller keeps the result only if it is cheaper. Gantry's own rule.
 * Deterministic.
 */
final class TailExchange {
    /** A bin is in the tail when its contents are worth less than this share of its right-sized price. */
    private static final double EFFICIENT = 0.95;
    /** At most this many bins form the tail, the least efficient first. */
    private static final int MAX_TAIL = 16;
    private static final int MAX_MOVES = 4_000;

    private TailExchange() {
    }

    /**
     * @param unitPrices the LP's prices per millicore, byte and pod slot for covering a demand
     * @param binPrice   the price of the cheapest type that holds a bin's contents
     * @param repack     packs pods as one group (null if it cannot)
     * @return the traded packing, or null when there is no tail or no trade pays
     */
    static <T, B> List<ShapePacking.Bin<T, B>> exchange(List<ShapePacking.Bin<T, B>> plan, Function<T, Resources> requests,
                                                        Function<B, Resources> roomOf, Function<Resources, double[]> unitPrices,
                                                        ToDoubleFunction<Resources> binPrice, Function<List<T>, List<ShapePacking.Bin<T, B>>> repack) {
        int n = plan.size();
        if (n < 2) {
            return null;
        }
        Resources[] used = new Resources[n];
        Resources total = Resources.ZERO;
        for (int i = 0; i < n; i++) {
            used[i] = Resources.ZERO;
            for (T p : plan.get(i).pods()) {
                used[i] = used[i].plus(requests.apply(p));
            }
            total = total.plus(used[i]);
        }
        double[] y = unitPrices.apply(total);
        double[] efficiency = new double[n];
        List<Integer> tail = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            efficiency[i] = value(y, used[i]) / Math.max(1e-12, binPrice.applyAsDouble(used[i]));
            if (efficiency[i] < EFFICIENT) {
                tail.add(i);
            }
        }
        tail.sort(Comparator.comparingDouble((Integer i) -> efficiency[i]).thenComparingInt(i -> i));
        if (tail.size() > MAX_TAIL) {
            tail = new ArrayList<>(tail.subList(0, MAX_TAIL));
        }
        if (tail.isEmpty() || tail.size() == n) {
            return null;
        }
        boolean[] inTail = new boolean[n];
        Map<Resources, ArrayDeque<T>> tailPods = new LinkedHashMap<>();
        Resources tailDemand = Resources.ZERO;
        for (int i : tail) {
            inTail[i] = true;
            for (T p : plan.get(i).pods()) {
                tailPods.computeIfAbsent(requests.apply(p), k -> new ArrayDeque<>()).add(p);
            }
            tailDemand = tailDemand.plus(used[i]);
        }
        List<Integer> body = new ArrayList<>();
        List<Map<Resources, ArrayDeque<T>>> bodyPods = new ArrayList<>();
        List<Resources> free = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!inTail[i]) {
                body.add(i);
                Map<Resources, ArrayDeque<T>> shapes = new LinkedHashMap<>();
                for (T p : plan.get(i).pods()) {
                    shapes.computeIfAbsent(requests.apply(p), k -> new ArrayDeque<>()).add(p);
                }
                bodyPods.add(shapes);
                free.add(roomOf.apply(plan.get(i).type()).minus(used[i]));
            }
        }
        double[] z = unitPrices.apply(tailDemand);
        int moves = 0;
        boolean moved = true;
        while (moved && moves < MAX_MOVES) {
            moved = false;
            for (int b = 0; b < body.size() && moves < MAX_MOVES; b++) {
                Resources bestP = null;
                Resources bestQ = null;
                long bestK = 0;
                double bestGain = 1e-9;
                for (var tp : tailPods.entrySet()) {
                    Resources p = tp.getKey();
                    double vp = value(z, p);
                    if (tp.getValue().isEmpty() || vp <= 0) {
                        continue;
                    }
                    long k = Math.min(tp.getValue().size(), copies(p, free.get(b)));
                    if (k > 0 && k * vp > bestGain) {
                        bestGain = k * vp;
                        bestP = p;
                        bestQ = null;
                        bestK = k;
                    }
                    for (var bq : bodyPods.get(b).entrySet()) {
                        Resources q = bq.getKey();
                        double vq = value(z, q);
                        if (bq.getValue().isEmpty() || vq >= vp) {
                            continue;
                        }
                        k = Math.min(tp.getValue().size(), copies(p, free.get(b).plus(q)));
                        if (k > 0 && k * vp - vq > bestGain) {
                            bestGain = k * vp - vq;
                            bestP = p;
                            bestQ = q;
                            bestK = k;
                        }
                    }
                }
                if (bestP == null) {
                    continue;
                }
                Map<Resources, ArrayDeque<T>> shapes = bodyPods.get(b);
                Resources f = free.get(b);
                if (bestQ != null) {
                    T q = shapes.get(bestQ).pollLast();
                    tailPods.computeIfAbsent(bestQ, k -> new ArrayDeque<>()).add(q);
                    f = f.plus(bestQ);
                    tailDemand = tailDemand.plus(bestQ);
                }
                for (long i = 0; i < bestK; i++) {
                    shapes.computeIfAbsent(bestP, k -> new ArrayDeque<>()).add(tailPods.get(bestP).pollFirst());
                }
                f = f.minus(bestP.times(bestK));
                tailDemand = tailDemand.minus(bestP.times(bestK));
                free.set(b, f);
                z = unitPrices.apply(tailDemand);
                moves++;
                moved = true;
            }
        }
        if (moves == 0) {
            return null;
        }
        List<T> rest = new ArrayList<>();
        tailPods.values().forEach(rest::addAll);
        List<ShapePacking.Bin<T, B>> out = new ArrayList<>();
        for (int b = 0; b < body.size(); b++) {
            List<T> pods = new ArrayList<>();
            bodyPods.get(b).values().forEach(pods::addAll);
            out.add(new ShapePacking.Bin<>(plan.get(body.get(b)).type(), pods));
        }
        if (!rest.isEmpty()) {
            List<ShapePacking.Bin<T, B>> repacked = repack.apply(rest);
            if (repacked == null) {
                return null;
            }
            out.addAll(repacked);
        }
        return out;
    }

    /** What a demand is worth at unit prices for cpu (per millicore), memory (per byte) and pod slots. */
    private static double value(double[] y, Resources r) {
        return y[0] * r.cpuMillis() + y[1] * r.memoryBytes() + y[2] * r.pods();
    }

    /** How many copies of {@code p} fit in {@code room}. */
    static long copies(Resources p, Resources room) {
        long k = Long.MAX_VALUE;
        for (var e : p.asMap().entrySet()) {
            if (e.getValue() > 0) {
                k = Math.min(k, Math.max(0, room.get(e.getKey())) / e.getValue());
            }
        }
        return k == Long.MAX_VALUE ? 0 : k;
    }
}
