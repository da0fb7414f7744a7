package dev.gantry.cli.drift;

import dev.gantry.cli.plan.ClusterInput;
import dev.gantry.cli.plan.PlanInput;
import dev.gantry.cli.plan.OfflineHeadroom;
import dev.gantry.cli.plan.PlanningConfig;
import dev.gantry.core.disruption.consolidation.Rehearsal;
import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.LoadResult;
import dev.gantry.kube.objects.dump.ClusterDump;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code gantry drift} carried out: the configuration read as {@code gantry validate} reads it, the dump as
 * {@code gantry consolidate} reads it ({@link ClusterInput}: nodes, pods, PDBs and each managed node's NodeClaim as the
 * store would hold it, with its hash annotations, Drifted condition and image), then {@link DriftPlan} decides through
 * the sweep's own drift steps, as of the dump's latest node heartbeat ({@code --at} to choose).
 */
public final class Drift {
    private final List<Path> nodePools;
    private final List<Path> cluster;
    private final String region;
    private final List<String> zones;
    private final List<String> images;
    private final Instant at;
    private final String output;

    public Drift(List<Path> nodePools, List<Path> cluster, String region, List<String> zones, List<String> images, Instant at,
                 String output) {
        this.nodePools = nodePools;
        this.cluster = cluster;
        this.region = region;
        this.zones = zones;
        this.images = images;
        this.at = at;
        this.output = output;
    }

    public int run(PrintWriter out, PrintWriter err) throws Exception {
        if (!output.equals("json") && !output.equals("table")) {
            err.println("gantry drift: --output is table or json");
            return 2;
        }
        Images resolved;
        try {
            resolved = Images.parse(images);
        } catch (IllegalArgumentException e) {
            err.println("gantry drift: " + e.getMessage());
            return 2;
        }
        CatalogSource catalogs = new CatalogSource(region, zones).check(err::println);
        Optional<ClusterDump> dump = ClusterInput.read("drift", cluster, err);
        if (dump.isEmpty()) {
            return 2;
        }
        Optional<LoadResult> loaded = PlanInput.load("drift", nodePools, List.of(), region, dump.get(), err);
        if (loaded.isEmpty()) {
            return 2;
        }
        PlanningConfig planning = PlanningConfig.of(loaded.get(), catalogs, err::println);
        resolved.unused(planning.config().nodeClasses()).forEach(k -> err.println("gantry drift: --image " + k
                + ": no EC2NodeClass is named so or selects that alias; ignored"));
        Instant now = at != null ? at : ClusterInput.takenAt(dump.get(), Instant.now());
        Rehearsal.Cluster c = ClusterInput.of(dump.get(), null, now);
        OfflineHeadroom headroom = OfflineHeadroom.of(loaded.get(), dump.get(), c.claims(), w -> err.println("warning: " + w));
        DriftPlan.Result r = DriftPlan.decide(planning, c, dump.get().images(), resolved, headroom);
        out.print(output.equals("json") ? DriftReport.json(r) : DriftReport.table(r));
        out.flush();
        err.flush();
        return 0;
    }
}
