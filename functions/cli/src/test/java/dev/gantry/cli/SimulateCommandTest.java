package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry simulate} in-process: outputs, exit codes and scenario errors with their line. */
class SimulateCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void quickstartWritesTheSummaryJsonAndASelfContainedReport(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("s.json");
        Path html = dir.resolve("r.html");
        int code = run("simulate", "../../samples/scenarios/quickstart.yaml", "--quiet", "--summary-json", json.toString(),
                "--report", html.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("invariants         all held")
                .contains("prices             WARNING: no ap-northeast-2 prices in the built-in catalogue; costs use us-east-1's "
                        + "on-demand prices, which differ by region");
        var summary = new ObjectMapper().readTree(json.toFile());
        for (String field : new String[] {"scenario", "seed", "simulatedSeconds", "wallSeconds", "pods", "reaction", "nodes",
            "cost", "interruptions", "evictions", "invariants", "recoveries", "prices"}) {
            assertThat(summary.has(field)).as(field).isTrue();
        }
        assertThat(summary.get("prices").get("approximate").asBoolean()).isTrue();
        assertThat(summary.get("prices").get("pricedFrom").asText()).isEqualTo("us-east-1");
        String page = Files.readString(html);
        assertThat(page).contains("<svg", "Timeline of decisions", "nodeclaim/");
        assertThat(page.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://", "https://", "<script");
    }

    @Test
    void aBadScenarioExitsTwoWithFileAndLine(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "name: bad\nduration: 1h\nconfig: [" + Path.of("../../samples/nodepools/seed000-v1.yaml")
                .toAbsolutePath() + "]\nevents:\n  - {at: 0s, scael: {deployment: default/web, replicas: 3}}\n");
        assertThat(run("simulate", bad.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith(bad + ":5: ").contains("unknown field 'events[].scael'");
    }

    @Test
    void anEventAfterTheEndIsAnErrorAtItsLine(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("late.yaml");
        Files.writeString(bad, "name: late\nduration: 10m\nconfig: [" + Path.of("../../samples/nodepools/seed000-v1.yaml")
                .toAbsolutePath() + "]\nevents:\n  - at: 1h\n    terminateAllNodes: true\n");
        assertThat(run("simulate", bad.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith(bad + ":5: ").contains("after the end");
    }
}
