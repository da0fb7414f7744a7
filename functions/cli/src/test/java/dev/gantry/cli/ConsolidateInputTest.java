package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry consolidate}'s input and prices: nothing found is not success, and borrowed prices are said. */
class ConsolidateInputTest {
    private static final String POOL = "../../samples/nodepools/seed001-v1.yaml";
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void aDumpWithNoNodeIsExitTwoNotEveryNodeStays(@TempDir Path dir) throws IOException {
        Path dump = Files.writeString(dir.resolve("dump.yaml"), "apiVersion: v1\nkind: List\nitems: []\n");
        assertThat(run("consolidate", "--nodepools", POOL, "--cluster", dump.toString())).isEqualTo(2);
        assertThat(out.toString()).doesNotContain("every node stays");
        assertThat(err.toString().lines()).containsExactly("gantry consolidate: no Node in [" + dump
                + "] (read 0 objects in 1 file); a dump is what `kubectl get nodes,pods,pdb -A -o yaml` prints");
    }

    @Test
    void saysWherePricesCameFromInTheTableAndTheJson() throws IOException {
        assertThat(run("consolidate", "--nodepools", POOL, "--cluster", "../../samples/clusters/underutilized.yaml"))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("prices: us-east-1 on-demand from built-in (USD)");
        out.getBuffer().setLength(0);
        run("consolidate", "--nodepools", POOL, "--cluster", "../../samples/clusters/underutilized.yaml", "--output", "json");
        assertThat(new ObjectMapper().readTree(out.toString()).get("prices").get(0).get("approximate").asBoolean()).isFalse();
    }

    @Test
    void aRegionWithoutBuiltInPricesIsAWarning() {
        run("consolidate", "--region", "eu-west-1", "--nodepools", POOL, "--cluster", "../../samples/clusters/underutilized.yaml");
        assertThat(out.toString()).contains("prices: WARNING: no eu-west-1 prices in the built-in catalogue");
    }
}
