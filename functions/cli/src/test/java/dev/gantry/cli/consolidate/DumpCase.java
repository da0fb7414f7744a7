package dev.gantry.cli.consolidate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.cli.Gantry;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.DumpPdb;
import dev.gantry.testing.dumps.DumpPod;
import dev.gantry.testing.dumps.KubeDump;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * One dump-level consolidation case: a NodePool, a dump written as kubectl writes it, and {@code gantry consolidate}
 * run on them in-process as of {@link DumpNode#NOW}, its JSON read back. Defaults: pool {@code default}, on-demand
 * amd64 c/m/r of generation 6+ from large to 4xlarge (c6a.large is its cheapest type), consolidateAfter 0s, a 100%
 * budget.
 */
final class DumpCase {
    private final Path dir;
    final KubeDump dump = new KubeDump();
    private String capacityTypes = "[on-demand]";
    private String extraRequirements = "";
    private String disruption = "    consolidationPolicy: WhenEmptyOrUnderutilized\n    consolidateAfter: 0s\n    budgets: [{nodes: \"100%\"}]\n";
    private String extraSpec = "";
    final StringWriter err = new StringWriter();

    DumpCase(Path dir) {
        this.dir = dir;
    }

    DumpCase spotAndOnDemand() {
        capacityTypes = "[spot, on-demand]";
        return this;
    }

    DumpCase requirement(String yamlFlow) {
        extraRequirements += "        - " + yamlFlow + "\n";
        return this;
    }

    DumpCase disruption(String policy, String consolidateAfter, String budget) {
        disruption = "    consolidationPolicy: " + policy + "\n    consolidateAfter: " + consolidateAfter + "\n    budgets: [{nodes: \""
                + budget + "\"}]\n";
        return this;
    }

    /** A static pool: {@code spec.replicas}. */
    DumpCase replicas(int n) {
        extraSpec = "  replicas: " + n + "\n";
        return this;
    }

    DumpCase add(DumpNode n) {
        dump.add(n);
        return this;
    }

    DumpCase add(DumpPod p) {
        dump.add(p);
        return this;
    }

    DumpCase add(DumpPdb b) {
        dump.add(b);
        return this;
    }

    /** A node's DaemonSet pods, as every node of an EKS cluster runs: aws-node and kube-proxy. */
    DumpCase daemons(String node) {
        dump.add(DumpPod.daemonSet("kube-system", "aws-node", node, "25m", "128Mi"));
        dump.add(DumpPod.daemonSet("kube-system", "kube-proxy", node, "100m", "64Mi"));
        return this;
    }

    String pool() {
        return """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: default}
                spec:
                %s  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements:
                        - {key: karpenter.sh/capacity-type, operator: In, values: %s}
                        - {key: kubernetes.io/arch, operator: In, values: [amd64]}
                        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}
                        - {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["5"]}
                        - {key: karpenter.k8s.aws/instance-size, operator: In, values: [large, xlarge, 2xlarge, 4xlarge]}
                %s  disruption:
                %s---
                apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata: {name: default}
                spec:
                  amiSelectorTerms: [{alias: al2023@latest}]
                  role: KarpenterNodeRole
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                """.formatted(extraSpec, capacityTypes, extraRequirements, disruption);
    }

    /** {@code gantry consolidate ... --output json} with {@code args} added; exit 0 expected. */
    JsonNode consolidate(String... args) {
        String out = run(args);
        try {
            return new ObjectMapper().readTree(out);
        } catch (IOException e) {
            throw new UncheckedIOException(out, e);
        }
    }

    String run(String... args) {
        try {
            Path pools = Files.writeString(dir.resolve("pools.yaml"), pool());
            Path cluster = dump.writeYaml(dir.resolve("cluster.yaml"));
            String keep = System.getProperty("gantry.keepDumps");
            if (keep != null) {
                // -Dgantry.keepDumps=DIR keeps each case's files (to run another build of gantry on them, say).
                Path to = Files.createDirectories(Path.of(keep).resolve(String.valueOf(System.nanoTime())));
                Files.copy(pools, to.resolve("pools.yaml"));
                Files.copy(cluster, to.resolve("cluster.yaml"));
                Files.writeString(to.resolve("case.txt"), StackWalker.getInstance().walk(f -> f.map(StackWalker.StackFrame::getMethodName)
                        .filter(m -> !m.equals("run") && !m.equals("consolidate")).findFirst().orElse("?")) + " " + String.join(" ", args) + "\n");
            }
            List<String> all = new ArrayList<>(List.of("consolidate", "--nodepools", pools.toString(), "--cluster",
                    cluster.toString(), "--output", "json", "--at", DumpNode.NOW.toString()));
            all.addAll(List.of(args));
            StringWriter out = new StringWriter();
            CommandLine cl = Gantry.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = cl.execute(all.toArray(String[]::new));
            if (code != 0) {
                throw new AssertionError("exit " + code + ": " + err);
            }
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The nodes the command removes, or none. */
    static List<String> removed(JsonNode doc) {
        List<String> out = new ArrayList<>();
        if (!doc.get("command").isNull()) {
            doc.get("command").get("remove").forEach(n -> out.add(n.get("node").asText()));
        }
        return out;
    }

    static String method(JsonNode doc) {
        return doc.get("command").isNull() ? "none" : doc.get("command").get("method").asText();
    }

    /** Why {@code node} stays, or "" when it has no verdict. */
    static String why(JsonNode doc, String node) {
        for (JsonNode v : doc.get("stay")) {
            if (v.get("node").asText().equals(node)) {
                return v.get("kind").asText() + ": " + v.get("reason").asText();
            }
        }
        return "";
    }
}
