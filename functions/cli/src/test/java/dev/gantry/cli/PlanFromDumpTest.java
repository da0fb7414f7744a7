package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.DumpPod;
import dev.gantry.testing.dumps.KubeDump;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry plan} on a cluster dump: the provisioner's own plan, on the cluster as the handlers read it. */
class PlanFromDumpTest {
    private static final String POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: default}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                    - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                    - {key: node.kubernetes.io/instance-type, operator: In, values: [c6a.large, c6a.xlarge, c6a.2xlarge]}
                    - {key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a]}
              disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s}
            """;

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private JsonNode plan(KubeDump dump, String pods) throws IOException {
        Path pool = Files.writeString(dir.resolve("pool.yaml"), POOL);
        Path cluster = dump.writeYaml(dir.resolve("cluster.yaml"));
        List<String> args = new ArrayList<>(List.of("plan", "--nodepools", pool.toString(), "--cluster", cluster.toString(), "--output", "json"));
        if (pods != null) {
            args.addAll(List.of("--pods", Files.writeString(dir.resolve("pods.yaml"), pods).toString()));
        }
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute(args.toArray(String[]::new))).as(err.toString()).isZero();
        return new ObjectMapper().readTree(out.toString());
    }

    private static KubeDump smallNode() {
        return new KubeDump().add(DumpNode.named("small").type("c6a.large"))
                .add(DumpPod.daemonSet("kube-system", "aws-node", "small", "25m", "128Mi"))
                .add(DumpPod.daemonSet("kube-system", "kube-proxy", "small", "100m", "64Mi"))
                .add(DumpPod.named("web-1").on("small").requests("1", "512Mi"));
    }

    @Test
    void theDumpsPendingPodsArePlannedWithItsDaemonSetsOnTheNewNode() throws IOException {
        KubeDump dump = smallNode().add(DumpPod.named("queue-1").pending().requests("1500m", "1Gi"));
        JsonNode doc = plan(dump, null);
        JsonNode claim = doc.get("nodeClaims").get(0);
        assertThat(claim.get("pods")).extracting(JsonNode::asText).containsExactly("default/queue-1");
        // aws-node and kube-proxy, taken from their pods, run on the new node too: 1500m + 125m.
        assertThat(claim.get("requests").get("cpu").asText()).isEqualTo("1625");
    }

    @Test
    @org.junit.jupiter.api.DisplayName("plan shows the provisioner's launch (solveForLaunch): room for a small consolidatable node's pods when "
            + "that is cheaper net of the node (Scheduler.solve, which plan called before, plans the pending pods alone)")
    void planIsTheProvisionersLaunchPlan() throws IOException {
        String pods = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: new}
                spec:
                  replicas: 2
                  template:
                    metadata: {labels: {app: new}}
                    spec: {containers: [{name: c, resources: {requests: {cpu: "1", memory: 512Mi}}}]}
                """;
        JsonNode doc = plan(smallNode(), pods);
        long cpu = 0;
        for (JsonNode c : doc.get("nodeClaims")) {
            cpu += Long.parseLong(c.get("requests").get("cpu").asText().replace("m", ""));
        }
        // Two new pods and, absorbed, the small node's web pod: one c6a.xlarge (3 x 1000m + 125m of DaemonSets).
        assertThat(doc.get("nodeClaims")).hasSize(1);
        assertThat(cpu).isEqualTo(3125);
    }
}
