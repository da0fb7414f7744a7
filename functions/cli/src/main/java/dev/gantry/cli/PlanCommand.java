package dev.gantry.cli;

import dev.gantry.cli.plan.PlanInput;
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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gantry plan}: what Gantry would launch for these pods, offline. Reads NodePools, pods (from Pod, Deployment,
 * StatefulSet, ReplicaSet and Job manifests), optional nodes and DaemonSets, solves once, and prints the NodeClaims,
 * the pods placed on existing nodes, the unschedulable pods with their reasons, and the price. Exit 2 on bad input.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plan the nodes Gantry would launch for pending pods, using the built-in instance catalogue "
                + "(or --prices FILE, --live-prices).")
public final class PlanCommand implements Callable<Integer> {
    @Option(names = "--nodepools", required = true, description = "NodePool/NodeClass YAML file or directory.")
    List<Path> nodePools;

    @Option(names = "--pods", required = true, description = "Workload manifests (file or directory).")
    List<Path> pods;

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
        List<Path> manifests = new ArrayList<>(pods);
        manifests.addAll(nodes);
        manifests.addAll(daemonSets);
        CatalogSource catalogs = new CatalogSource(region, zones, priceOptions.source()).check(err::println);
        Optional<LoadResult> read = PlanInput.load("plan", nodePools, manifests, region, err);
        if (read.isEmpty()) {
            return 2;
        }
        LoadResult loaded = read.get();
        SchedulingInput input = PlanInput.from(loaded, catalogs, err::println);
        long t0 = System.nanoTime();
        SchedulingResult result = Scheduler.solve(input, chosen);
        long solveMillis = (System.nanoTime() - t0) / 1_000_000;
        PlanReport report = new PlanReport(result, solveMillis, catalogs.prices());
        out.print(output.equals("json") ? report.json() : report.table());
        out.flush();
        err.flush();
        return 0;
    }
}
