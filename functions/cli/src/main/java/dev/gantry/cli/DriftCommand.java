package dev.gantry.cli;

import dev.gantry.cli.drift.Drift;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gantry drift}: which nodes of a cluster dump have drifted from the configuration, why (Karpenter's reasons),
 * and in which order and waves Gantry would replace them, offline, decided by the sweep's own drift steps (see
 * {@link dev.gantry.cli.drift.Drift}). Exit 2 on bad input.
 */
@Command(name = "drift", mixinStandardHelpOptions = true,
        description = "Show which nodes of a cluster dump have drifted from the NodePools/EC2NodeClasses, why, and in which "
                + "order and waves Gantry would replace them (canary wave, soak, Drifted budgets).")
public final class DriftCommand implements Callable<Integer> {
    @Option(names = "--nodepools", description = "NodePool/EC2NodeClass YAML file or directory, as it is now (default: the dump's NodePools and "
            + "EC2NodeClasses).")
    List<Path> nodePools = new java.util.ArrayList<>();

    @Option(names = "--cluster", required = true, description = "kubectl get nodes,pods,pdb,nodeclaims -A -o yaml (or -o json) "
            + "output: file or directory. The NodeClaims carry each node's hashes, Drifted condition and image (status.imageID).")
    List<Path> cluster;

    @Option(names = "--image", paramLabel = "KEY[/ARCH[/VARIANT]]=AMI", description = "The image an EC2NodeClass (by name) or an "
            + "alias (al2023@latest) resolves to now, e.g. al2023@latest=ami-0abc..., al2023@latest/arm64=ami-0def..., "
            + "al2023@latest/amd64/nvidia=ami-0fed... for its GPU nodes (variants: standard, nvidia, neuron); repeatable. "
            + "Without it AMI drift is decided only for classes that pin images by id.")
    List<String> images;

    @Option(names = "--region", description = "Region for the catalogue (default: inferred from the pools' zones, else us-east-1).")
    String region;

    @Option(names = "--zones", split = ",", description = "Zones, as letters (a,b,c) or full names.")
    List<String> zones;

    @Option(names = "--at", description = "Decide as of this instant (default: the dump's latest node heartbeat, else now).")
    Instant at;

    @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    String output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return new Drift(nodePools, cluster, region, zones, images, at, output)
                .run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
