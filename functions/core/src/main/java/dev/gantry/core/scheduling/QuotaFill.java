package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;

/** The parts of a {@link PatternPacking} that keep its {@link Quotas}: the rows' worth, their first columns, and the rounding's rest. */
final class QuotaFill {
    private QuotaFill() {
    }

    /**
     * What each class is worth on menu type {@code t} at the master's duals: its own row's, plus its group's row in the
     * type's cell; nothing where the type does not allow it.
     */
    static double[] worth(double[] dual, int m, int[] group, Quotas<?, ?> quotas, PatternMenu<?> menu, int t) {
        double[] d = PatternKnapsack.masked(java.util.Arrays.copyOf(dual, m), menu.open.get(t));
        for (int i = 0; i < m; i++) {
            int r = quotas.row(group[i], menu.cells.get(t));
            if (menu.open.get(t)[i] && r >= 0) {
                d[i] += dual[m + r];
            }
        }
        return d;
    }

    /** One single-class column per group and cell with a count, so the quota rows are feasible; false if some cell holds none. */
    static boolean coverQuotas(Quotas<?, ?> quotas, int[] group, long[][] size, double[] count, PatternMenu<?> menu,
                               List<int[]> patterns, List<Integer> typeOf) {
        int m = group.length;
        for (int g = 0; g < quotas.groups(); g++) {
            for (int c = 0; c < quotas.cells(g); c++) {
                if (quotas.row(g, c) < 0) {
                    continue;
                }
                int at = -1;
                int t = -1;
                for (int i = 0; i < m && t < 0; i++) {
                    t = group[i] == g ? menu.firstHolding(size[i], i, c) : -1;
                    at = i;
                }
                if (t < 0) {
                    return false;
                }
                int[] k = new int[m];
                k[at] = (int) Math.max(1, Math.min(count[at], PatternKnapsack.copies(size[at], menu.rooms.get(t))));
                patterns.add(k);
                typeOf.add(t);
            }
        }
        return true;
    }

    /**
     * The pods the rounding left without a bin (their pattern's cell had no room left in their group's count): each goes
     * to the first cell with room in its count, into a node opened for the rest there if it fits, else a new node of
     * the cheapest type of that cell that holds and allows it. False if a pod has no quota (the cover's rows should
     * have placed it: the simplex stopped unsolved) or no cell takes it.
     */
    static <T, B> boolean place(Map<List<Object>, List<T>> byShape, List<List<Object>> shapes, int[] next, int[][] quota, Quotas<T, B> quotas,
                                PatternMenu<B> menu, long[][] size, Function<T, Resources> requests, Function<B, Resources> roomOf,
                                List<ShapePacking.Bin<T, B>> out) {
        List<Integer> typeOfOpened = new ArrayList<>();
        List<long[]> free = new ArrayList<>();
        List<ShapePacking.Bin<T, B>> opened = new ArrayList<>();
        for (int i = 0; i < shapes.size(); i++) {
            List<T> ps = byShape.get(shapes.get(i));
            while (next[i] < ps.size()) {
                T p = ps.get(next[i]);
                int g = quotas.groupOf.applyAsInt(p);
                if (g < 0) {
                    return false;
                }
                int cell = 0;
                while (cell < quota[g].length && quota[g][cell] <= 0) {
                    cell++;
                }
                if (cell == quota[g].length) {
                    return false;
                }
                int at = -1;
                for (int b = 0; b < opened.size() && at < 0; b++) {
                    int t = typeOfOpened.get(b);
                    at = menu.cells.get(t) == cell && menu.open.get(t)[i] && PatternMenu.fits(size[i], free.get(b)) ? b : -1;
                }
                if (at < 0) {
                    int t = menu.firstHolding(size[i], i, cell);
                    if (t < 0) {
                        return false;
                    }
                    opened.add(new ShapePacking.Bin<>(menu.types.get(t), new ArrayList<>()));
                    typeOfOpened.add(t);
                    free.add(menu.rooms.get(t).clone());
                    at = opened.size() - 1;
                }
                opened.get(at).pods().add(p);
                long[] f = free.get(at);
                for (int r = 0; r < f.length; r++) {
                    f[r] -= size[i][r];
                }
                quota[g][cell]--;
                next[i]++;
            }
        }
        out.addAll(opened);
        return true;
    }

    /** {@code allowed}, and for a pod with a quota only the types of the cell it is in in {@code bins}: the repair keeps every count. */
    static <T, B> BiPredicate<T, B> keepingCells(List<ShapePacking.Bin<T, B>> bins, BiPredicate<T, B> allowed, Quotas<T, B> quotas) {
        Map<T, Integer> cellOf = new IdentityHashMap<>();
        for (ShapePacking.Bin<T, B> bin : bins) {
            int cell = quotas.cellOf.applyAsInt(bin.type());
            for (T p : bin.pods()) {
                if (quotas.groupOf.applyAsInt(p) >= 0) {
                    cellOf.put(p, cell);
                }
            }
        }
        return cellOf.isEmpty() ? allowed : (p, t) -> allowed.test(p, t) && (!cellOf.containsKey(p) || cellOf.get(p) == quotas.cellOf.applyAsInt(t));
    }
}
