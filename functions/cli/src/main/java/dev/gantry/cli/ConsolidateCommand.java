package dev.gantry.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.cli.plan.PlanInput;
import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.LoadResult;
import dev.gantry.config.workload.PdbReader;
import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.consolidation.Verdict;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gantry consolidate}: what consolidation would do now to a cluster dump ({@code kubectl get nodes,pods,pdb -A
 * -o yaml}), offline. Every node with a {@code karpenter.sh/nodepool} label counts as Gantry's, initialized and past
 * {@code consolidateAfter} (a dump has no pod-event times). Prices come from the built-in catalogue by each node's
 * instance type, zone and capacity type. Prints the one command (nodes to remove, replacements, $/h before and after)
 * and why every other managed node stays. Exit 2 on bad input.
 */
@Command(name = "consolidate", mixinStandardHelpOptions = true,
        description = "Show which nodes consolidation would remove or replace in a cluster dump, and why the others stay.")
public final class ConsolidateCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Option(names = "--nodepools", required = true, description = "NodePool/NodeClass YAML file or directory.")
    List<Path> nodePools;

    @Option(names = "--cluster", required = true, description = "kubectl get nodes,pods,pdb -A -o yaml output (file or directory).")
    List<Path> cluster;

    @Option(names = "--region", description = "Region for the catalogue (default: inferred from the pools' zones, else us-east-1).")
    String region;

    @Option(names = "--zones", split = ",", description = "Zones, as letters (a,b,c) or full names.")
    List<String> zones;

    @Option(names = "--strategy", defaultValue = "gantry", description = "gantry or karpenter (default: ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--spot-to-spot", description = "Allow spot-to-spot replacement (Karpenter's SpotToSpotConsolidation gate).")
    boolean spotToSpot;

    @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    String output;

    @picocli.CommandLine.Mixin
    dev.gantry.cli.prices.PriceOptions priceOptions = new dev.gantry.cli.prices.PriceOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!output.equals("json") && !output.equals("table") || !strategy.equals("gantry") && !strategy.equals("karpenter")) {
            err.println("gantry consolidate: --output is table or json, --strategy is gantry or karpenter");
            return 2;
        }
        CatalogSource catalogs = new CatalogSource(region, zones, priceOptions.source()).check(err::println);
        Optional<LoadResult> read = PlanInput.load("consolidate", nodePools, cluster, region, err);
        if (read.isEmpty()) {
            return 2;
        }
        LoadResult loaded = read.get();
        Instant now = Instant.now();
        if (loaded.nodes().isEmpty()) {
            // Nothing found is not success: "every node stays" about no node at all passed CI vacuously.
            err.println("gantry consolidate: no Node in " + cluster + ": give the output of kubectl get nodes,pods,pdb -A -o yaml");
            err.flush();
            return 2;
        }
        SchedulingInput snapshot = PlanInput.from(loaded, catalogs, err::println);
        List<ClusterNode> nodes = new ArrayList<>();
        for (SchedulingInput.ExistingNode n : snapshot.nodes()) {
            boolean managed = n.node().labels().containsKey(WellKnownLabels.NODEPOOL);
            nodes.add(new ClusterNode(n.node(), n.pods(), managed ? n.node().name() : null, now.minusSeconds(3600), false, null, false));
        }
        ConsolidationSettings settings = new ConsolidationSettings(spotToSpot,
                strategy.equals("karpenter") ? ConsolidationSettings.Strategy.KARPENTER : ConsolidationSettings.Strategy.GANTRY);
        ConsolidationInput input = new ConsolidationInput(nodes, snapshot.pools(), loaded.daemonSets(), PdbReader.read(cluster),
                Map.of(), settings, now);
        long t0 = System.nanoTime();
        ConsolidationDecision d = Consolidation.decide(input);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        double before = 0;
        Map<String, Double> prices = new LinkedHashMap<>();
        for (ClusterNode n : nodes) {
            double p = price(n.node(), snapshot);
            prices.put(n.name(), p);
            before += p;
        }
        double after = before - d.command().map(ConsolidationCommand::savings).orElse(0.0);
        out.print(output.equals("json") ? PriceNotes.withPrices(json(d, prices, before, after, millis), catalogs.prices())
                : table(d, prices, before, after, millis) + PriceNotes.lines(catalogs.prices()));
        out.flush();
        err.flush();
        return 0;
    }

    private static double price(Node n, SchedulingInput snapshot) {
        Map<String, String> l = n.labels();
        for (SchedulingInput.PoolOffer o : snapshot.pools()) {
            for (var t : o.instanceTypes()) {
                if (t.name().equals(l.get(WellKnownLabels.INSTANCE_TYPE))) {
                    for (var off : t.offerings()) {
                        if (off.zone().equals(l.get(WellKnownLabels.ZONE)) && off.capacityType().equals(l.get(WellKnownLabels.CAPACITY_TYPE))) {
                            return off.pricePerHour();
                        }
                    }
                }
            }
        }
        return 0;
    }

    private static String table(ConsolidationDecision d, Map<String, Double> prices, double before, double after, long millis) {
        StringBuilder b = new StringBuilder();
        if (d.command().isEmpty()) {
            b.append("No consolidation: every node stays.\n");
        } else {
            ConsolidationCommand c = d.command().get();
            b.append(String.format("Consolidation (%s, %s, reason %s): remove %d node(s), launch %d%n", c.decidedBy(),
                    c.method(), c.reason(), c.nodes().size(), c.replacements().size()));
            for (String n : c.nodes()) {
                b.append(String.format("  remove  %-40s $%.4f/h%n", n, prices.getOrDefault(n, 0.0)));
            }
            for (NodeClaimPlan r : c.replacements()) {
                b.append(String.format("  launch  %-40s %s %s %s $%.4f/h (%d options, %d pods)%n", r.name(), r.instanceType().name(),
                        r.offering().capacityType(), r.offering().zone(), r.pricePerHour(), r.instanceTypeOptions().size(), r.pods().size()));
            }
            b.append(String.format("  pods moved: %d%n", c.podsMoved()));
        }
        b.append(String.format("$/h before %.4f, after %.4f (saves %.4f)%n", before, after, before - after));
        if (!d.verdicts().isEmpty()) {
            b.append("Nodes that stay:\n");
            for (Verdict v : d.verdicts()) {
                b.append(String.format("  %-40s %s: %s%n", v.node(), v.kind(), v.reason()));
            }
        }
        b.append(String.format("decided in %d ms%n", millis));
        return b.toString();
    }

    private static String json(ConsolidationDecision d, Map<String, Double> prices, double before, double after, long millis) throws Exception {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("pricePerHourBefore", before);
        doc.put("pricePerHourAfter", after);
        doc.put("command", d.command().map(c -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("decidedBy", c.decidedBy());
            m.put("method", c.method().name());
            m.put("reason", c.reason().name());
            m.put("remove", c.nodes().stream().map(n -> Map.of("node", n, "pricePerHour", prices.getOrDefault(n, 0.0))).toList());
            m.put("launch", c.replacements().stream().map(r -> {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("name", r.name());
                x.put("instanceType", r.instanceType().name());
                x.put("capacityType", r.offering().capacityType());
                x.put("zone", r.offering().zone());
                x.put("pricePerHour", r.pricePerHour());
                x.put("instanceTypeOptions", r.instanceTypeOptions().stream().map(t -> t.name()).toList());
                x.put("pods", r.pods().stream().map(Pod::key).toList());
                return x;
            }).toList());
            m.put("destinations", c.destinations());
            m.put("savingsPerHour", c.savings());
            return m;
        }).orElse(null));
        doc.put("stay", d.verdicts().stream().map(v -> Map.of("node", v.node(), "kind", v.kind().name(), "reason", v.reason())).toList());
        doc.put("decisionMillis", millis);
        return JSON.writeValueAsString(doc) + "\n";
    }
}
