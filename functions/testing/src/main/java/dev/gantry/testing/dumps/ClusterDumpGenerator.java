package dev.gantry.testing.dumps;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A realistic cluster dump of any size, as {@code kubectl get nodes,pods,pdb -A -o yaml} prints a Karpenter cluster
 * some hours after a scale-down: about 20 pods per node, so 1,000 nodes make about 20,000 pods and 45 MB of YAML.
 * <ul>
 *   <li>Nodes: NodePool {@code default} on m6a/c6a/r6a sizes over three zones, a fifth of them spot, plus a few
 *       nodes of a managed node group; one just launched (not initialized), one NotReady and one being deleted per 500.</li>
 *   <li>Pods on every node: three DaemonSets (aws-node, kube-proxy, ebs-csi-node) with owner references and the
 *       node-pinning {@code matchFields}; Deployment pods (owned by ReplicaSets) filling each node to a random 30-80% of
 *       its cpu, some with a zone spread; about one completed Job pod; a few with {@code karpenter.sh/do-not-disrupt}.</li>
 *   <li>A few pending pods that kube-scheduler marked Unschedulable, and a PodDisruptionBudget for a third of the
 *       Deployments, one in twenty of them with no disruption allowed.</li>
 * </ul>
 * Every object carries the metadata a real one does (managedFields, uids, owner references, conditions, container
 * statuses, node images). The same seed gives the same dump.
 */
public final class ClusterDumpGenerator {
    private static final String[] TYPES = {"m6a.xlarge", "m6a.2xlarge", "m6a.2xlarge", "c6a.2xlarge", "r6a.xlarge", "m6a.4xlarge",
            "c6a.xlarge", "m6a.large"};
    private static final String[][] SHAPES = {{"100m", "128Mi"}, {"250m", "512Mi"}, {"500m", "1Gi"}, {"250m", "256Mi"},
            {"100m", "256Mi"}, {"200m", "384Mi"}, {"50m", "64Mi"}, {"150m", "192Mi"}};
    private static final String[] TEAMS = {"payments", "search", "checkout", "catalog", "identity", "ml", "web", "data"};

    private ClusterDumpGenerator() {
    }

    /** A dump of {@code nodes} nodes; see the class comment for what is in it. */
    public static KubeDump generate(int nodes, long seed) {
        Random r = new Random(seed);
        KubeDump dump = new KubeDump();
        List<DumpPod> pods = new ArrayList<>();
        List<DumpPdb> pdbs = new ArrayList<>();
        int deployments = Math.max(4, nodes / 4);
        String[] deploymentShape = new String[deployments];
        boolean[] spread = new boolean[deployments];
        for (int d = 0; d < deployments; d++) {
            deploymentShape[d] = Integer.toString(r.nextInt(SHAPES.length));
            spread[d] = r.nextInt(5) == 0;
            if (d % 3 == 0) {
                // Most budgets allow a disruption now; one in twenty is exhausted (a rollout under way, a pod not Ready).
                pdbs.add(DumpPdb.named(namespace(d), app(d)).maxUnavailable(1).allowed(d % 60 == 0 ? 0 : 1));
            }
        }
        int podSeq = 0;
        for (int i = 0; i < nodes; i++) {
            String name = String.format("ip-10-%d-%d-%d.ec2.internal", i / 65536 % 256, i / 256 % 256, i % 256);
            String type = TYPES[r.nextInt(TYPES.length)];
            String zone = "us-east-1" + (char) ('a' + i % 3);
            DumpNode n = DumpNode.named(name).type(type).zone(zone)
                    .created(DumpNode.NOW.minusSeconds(3600 * (2 + r.nextInt(70))));
            if (r.nextInt(5) == 0) {
                n.spot();
            }
            boolean managedGroup = i % 50 == 7;
            if (managedGroup) {
                n.pool(null);
            } else if (i % 500 == 11) {
                n.uninitialized().created(DumpNode.NOW.minusSeconds(40)).ready("False");
            } else if (i % 500 == 13) {
                n.notReady();
            } else if (i % 500 == 17) {
                n.deleting(DumpNode.NOW.minusSeconds(20));
            }
            dump.add(n);
            for (String[] ds : new String[][]{{"kube-system", "aws-node", "25m", "128Mi"}, {"kube-system", "kube-proxy", "100m", "64Mi"},
                    {"kube-system", "ebs-csi-node", "30m", "120Mi"}}) {
                pods.add(DumpPod.daemonSet(ds[0], ds[1], name, ds[2], ds[3]).created(DumpNode.NOW.minusSeconds(3500)));
            }
            if (i % 500 == 11) {
                continue; // just launched: nothing scheduled yet but its daemons
            }
            long[] shape = DumpNode.SHAPES.get(type);
            long cpuLeft = shape[0] - 155;
            long memLeft = (shape[1] - 312) << 20;
            long target = (long) (shape[0] * (0.30 + 0.50 * r.nextDouble()));
            long used = 155;
            int slots = (int) shape[2] - 3;
            while (used < target && slots > 1) {
                int d = r.nextInt(deployments);
                String[] s = SHAPES[Integer.parseInt(deploymentShape[d])];
                long cpu = millis(s[0]);
                long mem = bytes(s[1]);
                if (cpu > cpuLeft || mem > memLeft) {
                    break;
                }
                DumpPod p = DumpPod.named(namespace(d), app(d) + "-7d4b9c8f6d-" + suffix(podSeq++)).label("app", app(d))
                        .label("team", TEAMS[d % TEAMS.length]).owner("ReplicaSet", app(d) + "-7d4b9c8f6d")
                        .requests(s[0], s[1]).on(name).created(DumpNode.NOW.minusSeconds(600 + r.nextInt(20_000)));
                if (spread[d]) {
                    p.spread("topology.kubernetes.io/zone", 1, false);
                }
                if (r.nextInt(400) == 0) {
                    p.doNotDisrupt(r.nextBoolean() ? "true" : "30m");
                }
                pods.add(p);
                cpuLeft -= cpu;
                memLeft -= mem;
                used += cpu;
                slots--;
            }
            if (r.nextInt(10) < 9) {
                pods.add(DumpPod.named("batch", "report-" + (28_000_000 + i) + "-" + suffix(podSeq++)).owner("Job", "report-" + (28_000_000 + i))
                        .requests("500m", "1Gi").on(name).succeeded().created(DumpNode.NOW.minusSeconds(7200)));
            }
        }
        for (int i = 0; i < Math.max(1, nodes / 100); i++) {
            int d = r.nextInt(deployments);
            pods.add(DumpPod.named(namespace(d), app(d) + "-7d4b9c8f6d-" + suffix(podSeq++)).label("app", app(d))
                    .owner("ReplicaSet", app(d) + "-7d4b9c8f6d").requests("250m", "512Mi").pending());
        }
        pods.forEach(dump::add);
        pdbs.forEach(dump::add);
        return dump;
    }

    /** Writes {@code args[0]} nodes' dump to {@code args[1]} ({@code .json} for JSON, else YAML), seed {@code args[2]} (default 42). */
    public static void main(String[] args) {
        int nodes = Integer.parseInt(args[0]);
        Path out = Path.of(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
        KubeDump d = generate(nodes, seed);
        if (out.toString().endsWith(".json")) {
            d.writeJson(out);
        } else {
            d.writeYaml(out);
        }
    }

    private static String namespace(int d) {
        return TEAMS[d % TEAMS.length];
    }

    private static String app(int d) {
        return TEAMS[d % TEAMS.length] + "-svc-" + d;
    }

    /** Five characters as a ReplicaSet gives its pods, distinct for every {@code n} below 27^5. */
    private static String suffix(int n) {
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        long v = Math.floorMod(n * 7919L + 104_729L, 14_348_907L); // a bijection of 0..27^5-1 (7919 is prime, not 3)
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            b.append(alphabet.charAt((int) (v % 27)));
            v /= 27;
        }
        return b.toString();
    }

    private static long millis(String cpu) {
        return cpu.endsWith("m") ? Long.parseLong(cpu.substring(0, cpu.length() - 1)) : Long.parseLong(cpu) * 1000;
    }

    private static long bytes(String mem) {
        return Long.parseLong(mem.substring(0, mem.length() - 2)) << (mem.endsWith("Gi") ? 30 : 20);
    }
}
