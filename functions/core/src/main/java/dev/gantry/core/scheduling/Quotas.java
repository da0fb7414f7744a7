package dev.gantry.core.scheduling;

import java.util.function.ToIntFunction;

/**
 * Pods a {@link PatternPacking} must leave in given numbers per cell: the replicas of a zonal topology spread, which may
 * trade zones with one another as long as each zone keeps its count (pods alike in everything but their requests: every
 * topology count stays as it is, {@link JointRepack}). A pod's group ({@code -1}: no quota), a bin type's cell (its
 * zone), and per group and cell the exact number of the group's pods the bins of that cell hold; a group's pods never
 * go to a cell where its count is zero. {@code startCell} is the cell a pod sits in in the plan the master starts from
 * ({@code -1}: none), so that plan's nodes start as patterns of their own cell.
 */
final class Quotas<T, B> {
    /** No pod has a quota: one cell. */
    static final Quotas<Object, Object> NONE = new Quotas<>(p -> -1, t -> 0, new int[0][], p -> -1);

    final ToIntFunction<T> groupOf;
    final ToIntFunction<B> cellOf;
    final ToIntFunction<T> startCell;
    private final int[][] count;
    private final int[][] row;
    private final int rows;

    Quotas(ToIntFunction<T> groupOf, ToIntFunction<B> cellOf, int[][] count, ToIntFunction<T> startCell) {
        this.groupOf = groupOf;
        this.cellOf = cellOf;
        this.startCell = startCell;
        this.count = count;
        this.row = new int[count.length][];
        int r = 0;
        for (int g = 0; g < count.length; g++) {
            row[g] = new int[count[g].length];
            for (int c = 0; c < count[g].length; c++) {
                row[g][c] = count[g][c] > 0 ? r++ : -1;
            }
        }
        this.rows = r;
    }

    @SuppressWarnings("unchecked")
    static <T, B> Quotas<T, B> none() {
        return (Quotas<T, B>) NONE;
    }

    /** Whether a pod of {@code group} may sit in {@code cell}. */
    boolean allows(int group, int cell) {
        return group < 0 || row(group, cell) >= 0;
    }

    /** The master's rows beyond the classes': one per group and cell with a count. */
    int rows() {
        return rows;
    }

    /** The row of a group in a cell, -1 if it has none (no group, or a count of zero). */
    int row(int group, int cell) {
        return group < 0 || cell < 0 || cell >= row[group].length ? -1 : row[group][cell];
    }

    int groups() {
        return count.length;
    }

    int cells(int group) {
        return count[group].length;
    }

    int count(int group, int cell) {
        return count[group][cell];
    }

    /** A fresh tally of what each group may still place per cell. */
    int[][] left() {
        int[][] out = new int[count.length][];
        for (int g = 0; g < count.length; g++) {
            out[g] = count[g].clone();
        }
        return out;
    }
}
