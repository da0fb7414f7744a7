package dev.gantry.simulator.report;

import dev.gantry.simulator.runtime.VirtualClock;
import java.io.PrintWriter;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Progress while a simulation runs: virtual time, nodes, pending pods and $/h. On a terminal it is one line that
 * refreshes in place (about every simulated minute); piped, it is a plain line every tenth of the run.
 */
public final class Progress {
    private final PrintWriter out;
    private final boolean terminal;
    private long nextAt;
    private long step;

    /** {@code out} null for none. */
    public Progress(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    public static Progress none() {
        return new Progress(null, false);
    }

    /** What a progress line shows, each figure read only when a line is due. */
    public interface Reading {
        /** Virtual seconds since the start. */
        long t();

        /** The run's length in virtual seconds. */
        long total();

        int nodes();

        int pendingPods();

        double perHour();

        /** A reading from these sources, each asked only when a line is due. */
        static Reading of(LongSupplier t, long total, IntSupplier nodes, IntSupplier pendingPods, DoubleSupplier perHour) {
            return new Reading() {
                @Override
                public long t() {
                    return t.getAsLong();
                }

                @Override
                public long total() {
                    return total;
                }

                @Override
                public int nodes() {
                    return nodes.getAsInt();
                }

                @Override
                public int pendingPods() {
                    return pendingPods.getAsInt();
                }

                @Override
                public double perHour() {
                    return perHour.getAsDouble();
                }
            };
        }
    }

    public void update(Reading run) {
        if (out == null) {
            return;
        }
        long t = run.t();
        if (t < nextAt) {
            return;
        }
        long total = run.total();
        step = terminal ? 60 : Math.max(60, total / 10);
        nextAt = t + step;
        String line = String.format("t=%s  nodes %d  pending pods %d  $%.3f/h", VirtualClock.format(t), run.nodes(),
                run.pendingPods(), run.perHour());
        if (terminal) {
            out.print("\r" + line + "   ");
        } else {
            out.println(line);
        }
        out.flush();
    }

    public void done() {
        if (out != null && terminal) {
            out.println();
            out.flush();
        }
    }

}
