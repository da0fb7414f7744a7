package dev.gantry.simulator.report;

import dev.gantry.simulator.runtime.VirtualClock;
import java.io.PrintWriter;

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
