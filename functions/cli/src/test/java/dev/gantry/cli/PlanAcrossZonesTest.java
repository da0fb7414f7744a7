package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code gantry plan} on the drift-subnet scenario's scale-up (its cluster at 1m01s, as kubectl writes it): 20 web
 * replicas with a zonal spread of maxSkew 2 pending, 7/7/6 running. The plan used to launch a fourth node, a
 * c7a.medium in us-east-1c for one replica, while the c6a.xlarge it planned in us-east-1b had room for a sixth and
 * 14/13/13 keeps the spread; kube-scheduler then bound that replica in 1b and the c7a.medium was removed empty.
 */
class PlanAcrossZonesTest {
    @Test
    void noNodeIsLaunchedForAPodThatAnotherZonesNewNodeHasRoomFor() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("plan", "--nodepools", "../../samples/scenarios/drift/pool.yaml",
                "--daemonsets", "../../samples/workloads/daemonsets.yaml",
                "--nodes", "src/test/resources/drift-scale-up/nodes.yaml", "--pods", "src/test/resources/drift-scale-up/pods.yaml",
                "--zones", "us-east-1a,us-east-1b,us-east-1c", "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = new ObjectMapper().readTree(out.toString());

        Map<String, Integer> perZone = new TreeMap<>(Map.of("us-east-1a", 7, "us-east-1b", 7, "us-east-1c", 6));
        int placed = 0;
        for (JsonNode claim : doc.get("nodeClaims")) {
            perZone.merge(claim.get("zone").asText(), claim.get("pods").size(), Integer::sum);
            placed += claim.get("pods").size();
        }
        assertThat(placed).isEqualTo(20);
        assertThat(doc.get("unschedulable")).isEmpty();
        assertThat(doc.get("nodeClaims")).as(out.toString()).hasSize(3);
        int most = perZone.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        int least = perZone.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
        assertThat(most - least).as("the spread's skew, %s", perZone).isLessThanOrEqualTo(2);
        assertThat(doc.get("totalPricePerHour").asDouble()).isLessThan(0.5);
    }
}
