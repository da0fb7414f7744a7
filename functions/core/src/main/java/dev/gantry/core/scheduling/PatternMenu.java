package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * The types a {@link PatternPacking} may open a node of, cheapest first, as vectors in the dimensions its pods ask for:
 * each type's room, price, the classes it allows, and its cell (where some pods must keep a count, {@link Quotas}; all
 * one cell otherwise). A type is left out when it holds no class it allows, or when another type of the same cell, at
 * most as dear, holds everything of it (every dimension at least as large, every class it allows allowed).
 */
final class PatternMenu<B> {
    final List<B> types = new ArrayList<>();
    final List<long[]> rooms = new ArrayList<>();
    final List<Double> prices = new ArrayList<>();
    final List<boolean[]> open = new ArrayList<>();
    final List<Integer> cells = new ArrayList<>();

    private PatternMenu() {
    }

    static <B> PatternMenu<B> of(List<B> types, Function<B, Resources> roomOf, ToDoubleFunction<B> priceOf, ToIntFunction<B> cellOf,
                                 List<String> dims, long[][] size, BiPredicate<Integer, B> allows) {
        PatternMenu<B> menu = new PatternMenu<>();
        List<B> sorted = new ArrayList<>(types);
        sorted.sort(java.util.Comparator.comparingDouble(priceOf)); // stable: ties keep the caller's order
        for (B t : sorted) {
            double price = priceOf.applyAsDouble(t);
            long[] room = vector(roomOf.apply(t), dims);
            int cell = cellOf.applyAsInt(t);
            boolean[] allowed = new boolean[size.length];
            boolean holds = false;
            for (int i = 0; i < size.length; i++) {
                allowed[i] = allows.test(i, t);
                holds |= allowed[i] && fits(size[i], room);
            }
            if (!(price > 0) || !holds) {
                continue;
            }
            boolean dominated = false;
            for (int j = 0; j < menu.rooms.size() && !dominated; j++) {
                dominated = menu.cells.get(j) == cell && fits(room, menu.rooms.get(j)) && covers(menu.open.get(j), allowed);
            }
            if (!dominated) {
                menu.types.add(t);
                menu.rooms.add(room);
                menu.prices.add(price);
                menu.open.add(allowed);
                menu.cells.add(cell);
            }
        }
        return menu;
    }

    int size() {
        return types.size();
    }

    /** The cheapest type that allows class {@code i} and holds its size {@code s}, in {@code cell} (any if negative); -1 if none. */
    int firstHolding(long[] s, int i, int cell) {
        for (int t = 0; t < rooms.size(); t++) {
            if (open.get(t)[i] && (cell < 0 || cells.get(t) == cell) && fits(s, rooms.get(t))) {
                return t;
            }
        }
        return -1;
    }

    private static boolean covers(boolean[] a, boolean[] b) {
        for (int i = 0; i < a.length; i++) {
            if (b[i] && !a[i]) {
                return false;
            }
        }
        return true;
    }

    /** The dimensions some shape asks for: cpu, memory, pod slots, ephemeral storage and each extended resource. */
    static List<String> dimensions(List<Resources> shapes) {
        java.util.TreeSet<String> keys = new java.util.TreeSet<>();
        for (Resources s : shapes) {
            s.asMap().forEach((k, v) -> {
                if (v > 0) {
                    keys.add(k);
                }
            });
        }
        return List.copyOf(keys);
    }

    static long[] vector(Resources r, List<String> dims) {
        long[] v = new long[dims.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.get(dims.get(i));
        }
        return v;
    }

    static boolean fits(long[] s, long[] room) {
        for (int r = 0; r < s.length; r++) {
            if (s[r] > room[r]) {
                return false;
            }
        }
        return true;
    }
}
