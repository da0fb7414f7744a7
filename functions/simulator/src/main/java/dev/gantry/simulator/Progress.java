package dev.gantry.simulator;

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

    void update(Simulation sim) {
        if (out == null) {
            return;
        }
        long t = sim.t();
        if (t < nextAt) {
            return;
        }
        long total = sim.scenario.run().duration().toSeconds();
        step = terminal ? 60 : Math.max(60, total / 10);
        nextAt = t + step;
        String line = String.format("t=%s  nodes %d  pending pods %d  $%.3f/h", clock(t), sim.liveInstances().size(),
                sim.pendingPods(), sim.recorder.perHour());
        if (terminal) {
            out.print("\r" + line + "   ");
        } else {
            out.println(line);
        }
        out.flush();
    }

    void done(Simulation sim) {
        if (out != null && terminal) {
            out.println();
            out.flush();
        }
    }

    /** Seconds as {@code h:mm:ss}. */
    static String clock(long seconds) {
        return String.format("%d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60);
    }
}
