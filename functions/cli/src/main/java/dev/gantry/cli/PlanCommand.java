package dev.gantry.cli;

import dev.gantry.cli.plan.ClusterInput;
import dev.gantry.cli.plan.PlanInput;
import dev.gantry.cli.plan.OfflineHeadroom;
import dev.gantry.cli.plan.PlanningConfig;
import dev.gantry.cli.plan.PlanReport;
import dev.gantry.cli.prices.PriceOptions;
import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.LoadResult;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.time.Instant;
import dev.gantry.kube.objects.dump.ClusterDump;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gantry plan}: what the provisioner would launch for these pods, offline. Reads NodePools, pods (from Pod,
 * Deployment, StatefulSet, ReplicaSet and Job manifests), optionally a cluster dump and node and DaemonSet manifests,
 * and plans exactly as a provisioning run does ({@link dev.gantry.core.provisioning.LaunchPlanner}: the same input, the
 * same launch solve). Prints the NodeClaims, the pods placed on existing nodes, the unschedulable pods with their
 * reasons, and the price. {@code --strategy karpenter} shows Karpenter's greedy alone on the same input instead.
 * Exit 2 on bad input.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plan the nodes Gantry would launch for pending pods, using the built-in instance catalogue "
                + "(or --prices FILE, --live-prices).")
public final class PlanCommand implements Callable<Integer> {
    @Option(names = "--nodepools", description = "NodePool/NodeClass YAML file or directory (default: the --cluster dump's NodePools and "
            + "EC2NodeClasses).")
    List<Path> nodePools = new java.util.ArrayList<>();

    @Option(names = "--pods", description = "Workload manifests (file or directory): the pods to plan for.")
    List<Path> pods = new ArrayList<>();

    @Option(names = "--cluster", description = "A cluster dump (kubectl get nodes,pods,pdb -A -o yaml or -o json; file or "
            + "directory): its nodes take pods, its pending pods are planned too.")
    List<Path> cluster = new ArrayList<>();

    @Option(names = "--nodes", description = "Node manifests; pods with spec.nodeName are bound to them.")
    List<Path> nodes = new ArrayList<>();

    @Option(names = "--daemonsets", description = "DaemonSet manifests, counted as overhead on new nodes.")
    List<Path> daemonSets = new ArrayList<>();

    @Option(names = "--region", description = "Region for the catalogue (default: inferred from the pools' zones, else us-east-1).")
    String region;

    @Option(names = "--zones", split = ",", description = "Zones, as letters (a,b,c) or full names.")
    List<String> zones;

    @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    String output;

    @Option(names = "--strategy", defaultValue = "gantry", description = "gantry or karpenter (Karpenter's greedy "
            + "algorithm; the older spelling karpenter-greedy is still accepted) (default: ${DEFAULT-VALUE}).")
    String strategy;

    @picocli.CommandLine.Mixin
    PriceOptions priceOptions = new PriceOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Scheduler.Strategy chosen;
        try {
            chosen = Strategies.plan(strategy, err);
            if (!output.equals("json") && !output.equals("table")) {
                throw new IllegalArgumentException("'" + output + "' is not an output (table, json)");
            }
        } catch (IllegalArgumentException e) {
            err.println("gantry plan: " + e.getMessage());
            return 2;
        }
        if (pods.isEmpty() && cluster.isEmpty()) {
            err.println("gantry plan: name the pods to plan (--pods) or a cluster dump (--cluster)");
            return 2;
        }
        List<Path> manifests = new ArrayList<>(pods);
        manifests.addAll(nodes);
        manifests.addAll(daemonSets);
        CatalogSource catalogs = new CatalogSource(region, zones, priceOptions.source()).check(err::println);
        ClusterDump dump = null;
        if (!cluster.isEmpty()) {
            Optional<ClusterDump> d = ClusterInput.read("plan", cluster, err);
            if (d.isEmpty()) {
                return 2;
            }
            dump = d.get();
        }
        Optional<LoadResult> read = PlanInput.load("plan", nodePools, manifests, region, dump, err);
        if (read.isEmpty()) {
            return 2;
        }
        LoadResult loaded = read.get();
        Instant now = dump == null ? Instant.now() : ClusterInput.takenAt(dump, Instant.now());
        PlanningConfig planning = PlanningConfig.of(loaded, catalogs, err::println);
        var offline = ClusterInput.of(dump, loaded, now);
        SchedulingInput input = planning.planner().input(offline.view(), offline.claims(), Set.of(), now);
        long t0 = System.nanoTime();
        // The provisioner's own plan; the greedy alone when asked, on the same input, for comparison.
        OfflineHeadroom headroom = OfflineHeadroom.of(loaded, dump, offline.claims(), w -> err.println("warning: " + w));
        headroom.notes(now).forEach(line -> err.println("gantry plan: " + line));
        SchedulingResult result = chosen == Scheduler.Strategy.GANTRY
                ? planning.planner().plan(offline.view(), input, headroom.virtualPods(now), offline.claims())
                : Scheduler.solve(input, chosen);
        long solveMillis = (System.nanoTime() - t0) / 1_000_000;
        if (solveMillis >= 2000) {
            err.println("gantry plan: planned " + input.pending().size() + " pods in " + String.format("%.1f s", solveMillis / 1000.0));
        }
        PlanReport report = new PlanReport(result, solveMillis, catalogs.prices());
        out.print(output.equals("json") ? report.json() : report.table());
        out.flush();
        err.flush();
        return 0;
    }
}
