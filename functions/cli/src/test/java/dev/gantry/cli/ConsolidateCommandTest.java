package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry consolidate} run in-process on the sample cluster dump. */
class ConsolidateCommandTest {
    private static final String POOLS = "../../samples/nodepools/seed001-v1.yaml";
    private static final String CLUSTER = "../../samples/clusters/underutilized.yaml";
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void removesTheIdleWebNodeAndSaysWhyTheOthersStay() throws IOException {
        int code = run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        JsonNode cmd = doc.get("command");
        assertThat(cmd.get("remove")).extracting(n -> n.get("node").asText()).containsExactly("ip-10-0-1-10");
        assertThat(cmd.get("launch")).isEmpty();
        assertThat(cmd.get("destinations").size()).isEqualTo(2);
        assertThat(doc.get("pricePerHourAfter").asDouble()).isLessThan(doc.get("pricePerHourBefore").asDouble());
        assertThat(doc.get("stay").toString())
                .contains("pdb \\\"default/db\\\" prevents pod evictions")
                .contains("karpenter.sh/do-not-disrupt");
    }

    @Test
    void theTableNamesTheRemovedNodeAndThePrices() {
        int code = run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER);
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("remove  ip-10-0-1-10").contains("$/h before 1.0560, after 0.6720")
                .contains("Nodes that stay:").contains("ip-10-0-1-12").contains("DisruptionBlocked");
    }

    @Test
    void aClusterWithNothingToGainKeepsEveryNode(@TempDir Path dir) throws IOException {
        String dump = Files.readString(Path.of(CLUSTER));
        // Without the web node, and api on the cheapest type that holds its pods, every node is blocked or already
        // the cheapest shape for its pods.
        int start = dump.indexOf("  - apiVersion: v1\n    kind: Node\n    metadata:\n      name: ip-10-0-1-10");
        int end = dump.indexOf("  - apiVersion: v1\n    kind: Node", start + 10);
        String trimmed = dump.substring(0, start) + dump.substring(end);
        trimmed = trimmed.replaceAll("(?s)  - apiVersion: v1\n    kind: Pod\n    metadata:\n      name: web-[^\n]*\n.*?(?=  - apiVersion)", "");
        trimmed = trimmed.replace("m5.2xlarge", "c6a.2xlarge");
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, trimmed);
        int code = run("consolidate", "--nodepools", POOLS, "--cluster", file.toString(), "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        assertThat(doc.get("command").isNull()).as(out.toString()).isTrue();
        assertThat(doc.get("stay")).hasSize(3);
        assertThat(doc.get("stay").toString()).contains("Can't replace with a cheaper node");
    }

    @Test
    void aBadOutputIsExitTwo() {
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--output", "xml")).isEqualTo(2);
        assertThat(err.toString()).contains("--output is table or json");
    }
}
