package dev.gantry.cli.consolidate;

import dev.gantry.cli.prices.PriceNotes;
import dev.gantry.cli.plan.ClusterInput;
import dev.gantry.cli.plan.OfflineHeadroom;
import dev.gantry.cli.plan.PlanInput;
import dev.gantry.cli.plan.PlanningConfig;
import dev.gantry.cli.prices.PriceSource;
import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.LoadResult;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.consolidation.Rehearsal;
import dev.gantry.kube.objects.dump.ClusterDump;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code gantry consolidate} carried out.
 * <ul>
 *   <li>The dump is read as the handlers read the cluster ({@link ClusterInput}): nodes' readiness, initialization and
 *       deletion, pods' owners, phases, readiness and start times, PodDisruptionBudgets with their status, pending pods;
 *       each managed node's NodeClaim as the store would hold it.</li>
 *   <li>The decision is the sweep's ({@link WhatIf}), as of the dump's latest node heartbeat ({@code --at} to choose),
 *       keeping the room of the CapacityBuffers in the configuration files ({@link OfflineHeadroom}),
 *       with the pools priced from the built-in catalogue, a {@code --prices} file or the Price List API, and the
 *       output saying where each region's prices came from.</li>
 *   <li>{@code --until-settled} carries each command out in memory and decides again until none is left;
 *       {@code --compare karpenter} does the same with Karpenter's algorithm alone and prints both.</li>
 * </ul>
 * Progress goes to stderr for anything that takes over two seconds.
 */
public final class Consolidate {
    private final List<Path> nodePools;
    private final List<Path> cluster;
    private final String region;
    private final List<String> zones;
    private final PriceSource prices;
    private final String strategy;
    private final boolean spotToSpot;
    private final boolean untilSettled;
    private final String compare;
    private final Instant at;
    private final String output;

    public Consolidate(List<Path> nodePools, List<Path> cluster, String region, List<String> zones, PriceSource prices, String strategy,
                       boolean spotToSpot,
                       boolean untilSettled, String compare, Instant at, String output) {
        this.nodePools = nodePools;
        this.cluster = cluster;
        this.region = region;
        this.zones = zones;
        this.prices = prices;
        this.strategy = strategy;
        this.spotToSpot = spotToSpot;
        this.untilSettled = untilSettled || compare != null;
        this.compare = compare;
        this.at = at;
        this.output = output;
    }

    public int run(PrintWriter out, PrintWriter err) throws Exception {
        if (!output.equals("json") && !output.equals("table") || !strategy.equals("gantry") && !strategy.equals("karpenter")
                || compare != null && !compare.equals("karpenter")) {
            err.println("gantry consolidate: --output is table or json, --strategy is gantry or karpenter, --compare is karpenter");
            return 2;
        }
        CatalogSource catalogs = new CatalogSource(region, zones, prices).check(err::println);
        Optional<ClusterDump> dump = ClusterInput.read("consolidate", cluster, err);
        if (dump.isEmpty()) {
            return 2;
        }
        Optional<LoadResult> loaded = PlanInput.load("consolidate", nodePools, List.of(), region, dump.get(), err);
        if (loaded.isEmpty()) {
            return 2;
        }
        Instant now = at != null ? at : ClusterInput.takenAt(dump.get(), Instant.now());
        Rehearsal.Cluster start = ClusterInput.of(dump.get(), null, now);
        PlanningConfig planning = PlanningConfig.of(loaded.get(), catalogs, err::println);
        OfflineHeadroom headroom = OfflineHeadroom.of(loaded.get(), dump.get(), start.claims(),
                w -> err.println("warning: " + w));
        headroom.notes(now).forEach(line -> err.println("gantry consolidate: " + line));
        ConsolidationSettings.Strategy chosen = strategy.equals("karpenter") ? ConsolidationSettings.Strategy.KARPENTER
                : ConsolidationSettings.Strategy.GANTRY;
        if (!untilSettled) {
            WhatIf.Decided d = new WhatIf(planning, new ConsolidationSettings(spotToSpot, chosen), headroom).decide(start);
            if (d.millis() >= 2000) {
                err.println("gantry consolidate: decided in " + String.format("%.1f s", d.millis() / 1000.0));
            }
            out.print(output.equals("json") ? PriceNotes.withPrices(ConsolidateReport.json(d), catalogs.prices())
                    : ConsolidateReport.table(d) + PriceNotes.lines(catalogs.prices()));
        } else {
            List<WhatIf.Settled> runs = new ArrayList<>();
            List<ConsolidationSettings.Strategy> strategies = compare != null
                    ? List.of(ConsolidationSettings.Strategy.GANTRY, ConsolidationSettings.Strategy.KARPENTER) : List.of(chosen);
            for (ConsolidationSettings.Strategy s : strategies) {
                runs.add(new WhatIf(planning, new ConsolidationSettings(spotToSpot, s), headroom).settle(start, line -> {
                    err.println("gantry consolidate: " + line);
                    err.flush();
                }));
            }
            out.print(output.equals("json") ? PriceNotes.withPrices(ConsolidateReport.json(runs), catalogs.prices())
                    : ConsolidateReport.table(runs) + PriceNotes.lines(catalogs.prices()));
        }
        out.flush();
        err.flush();
        return 0;
    }
}
