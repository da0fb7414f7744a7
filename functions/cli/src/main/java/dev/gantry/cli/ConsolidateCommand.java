package dev.gantry.cli;

import dev.gantry.cli.consolidate.Consolidate;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gantry consolidate}: what consolidation would do to a cluster dump ({@code kubectl get nodes,pods,pdb -A -o
 * yaml} or {@code -o json}), offline, decided exactly as the sweep decides it (see
 * {@link dev.gantry.cli.consolidate.Consolidate}). Exit 2 on bad input.
 */
@Command(name = "consolidate", mixinStandardHelpOptions = true,
        description = "Show which nodes consolidation would remove or replace in a cluster dump, and why the others stay; "
                + "with --until-settled, every step until consolidation settles. Prices from the built-in catalogue "
                + "(or --prices FILE, --live-prices).")
public final class ConsolidateCommand implements Callable<Integer> {
    @Option(names = "--nodepools", description = "NodePool/NodeClass YAML file or directory (default: the dump's NodePools and EC2NodeClasses).")
    List<Path> nodePools = new java.util.ArrayList<>();

    @Option(names = "--cluster", required = true, description = "kubectl get nodes,pods,pdb -A -o yaml (or -o json) output: "
            + "file or directory. Karpenter's NodeClaims (kubectl get nodeclaims -o yaml) may be added for their pod-event times.")
    List<Path> cluster;

    @Option(names = "--region", description = "Region for the catalogue (default: inferred from the pools' zones, else us-east-1).")
    String region;

    @Option(names = "--zones", split = ",", description = "Zones, as letters (a,b,c) or full names.")
    List<String> zones;

    @Option(names = "--strategy", defaultValue = "gantry", description = "gantry or karpenter (default: ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--spot-to-spot", description = "Allow spot-to-spot replacement (Karpenter's SpotToSpotConsolidation gate).")
    boolean spotToSpot;

    @Option(names = "--until-settled", description = "Carry each command out on the cluster in memory and decide again, until "
            + "no command is left; print every step and where it settles.")
    boolean untilSettled;

    @Option(names = "--compare", description = "karpenter: also run Karpenter's own algorithm to where it settles, side by side "
            + "(implies --until-settled).")
    String compare;

    @Option(names = "--at", description = "Decide as of this instant (default: the dump's latest node heartbeat, else now).")
    Instant at;

    @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    String output;

    @picocli.CommandLine.Mixin
    dev.gantry.cli.prices.PriceOptions priceOptions = new dev.gantry.cli.prices.PriceOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return new Consolidate(nodePools, cluster, region, zones, priceOptions.source(), strategy, spotToSpot, untilSettled,
                compare, at, output)
                .run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
