package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code gantry simulate --status-at}: the `gantry status` view at a virtual time, without an AWS account. */
class SimulateStatusAtTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void theStatusViewAtTwelveHoursShowsPoolsClaimsDecisionsAndTheActiveBuffer() {
        int code = run("simulate", "../../samples/scenarios/headroom-sized.yaml", "--quiet", "--status-at", "12h");

        assertThat(code).as(err.toString()).isZero();
        String o = out.toString();
        assertThat(o).contains("invariants         all held", "ramp to schedule");
        String status = o.substring(o.indexOf("Gantry status at"));
        assertThat(status).startsWith("Gantry status at 2025-06-02T12:00:00Z");
        assertThat(status).contains("NODEPOOLS", "general-purpose: ", "NODECLAIMS", "Initialized", "PENDING PODS",
                "DECISIONS (last 20)", "launch ", "BUFFERS");
        assertThat(status).containsPattern("default/weekday-morning-4\\s+active");
    }

    @Test
    void withoutBuffersTheSummaryNamesNone() {
        assertThat(run("simulate", "../../samples/scenarios/headroom-sized.yaml", "--quiet", "--without-buffers")).isZero();
        assertThat(out.toString()).containsPattern("buffers\\s+none");
    }

    @Test
    void aStatusTimeAfterTheEndOrNotADurationExitsTwoInOneLine() {
        assertThat(run("simulate", "../../samples/scenarios/quickstart.yaml", "--quiet", "--status-at", "99h")).isEqualTo(2);
        assertThat(err.toString()).startsWith("gantry simulate: --status-at 99h is after the scenario's end");
        assertThat(err.toString().lines()).hasSize(1);
        err.getBuffer().setLength(0);
        assertThat(run("simulate", "../../samples/scenarios/quickstart.yaml", "--quiet", "--status-at", "noon")).isEqualTo(2);
        assertThat(err.toString()).startsWith("gantry simulate: --status-at: ");
    }
}
