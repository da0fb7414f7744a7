package dev.gantry.simulator.observe;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.scheduling.LowerBound;
import dev.gantry.core.scheduling.PackingBound;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bounds a run's cost is measured against, for the pods that exist now: the fractional {@link LowerBound} in the
 * cheapest pool, and the {@link PackingBound} over every pool's types at once, recounted when the pods change (at most
 * once per {@link Checks#EVERY}).
 */
final class CostBounds {
    private final Checks.World world;
    private long demandVersion = -1;
    private Instant demandAt = Instant.MIN;
    private double lowerBound;
    /** {@link PackingBound} for the same pods (recomputed with {@link #lowerBound}). */
    private double packingBound;
    private Map<Resources, Integer> boundShapes;

    CostBounds(Checks.World world) {
        this.world = world;
    }

    /** The packing bound on $/h, as of the last {@link #lowerBound()}. */
    double packingBound() {
        return packingBound;
    }

    /** The fractional lower bound on $/h for the pods that exist now, in the cheapest pool (recomputed when they change). */
    double lowerBound() {
        // Recounted when the pods changed, at most once a second (a sum over every pod: 20,000 of them at scale).
        Instant now = world.clock().instant();
        if (world.cluster().version() == demandVersion || now.isBefore(demandAt.plus(Checks.EVERY))) {
            return lowerBound;
        }
        demandVersion = world.cluster().version();
        demandAt = now;
        Resources demand = Resources.ZERO;
        Map<Resources, Integer> shapes = new HashMap<>();
        for (Pod p : world.cluster().pods()) {
            if (!p.isDaemon() && !p.status().isTerminal()) {
                demand = demand.plus(p.requests());
                shapes.merge(p.requests(), 1, Integer::sum);
            }
        }
        if (shapes.equals(boundShapes)) {
            return lowerBound;
        }
        boundShapes = shapes;
        double best = Double.POSITIVE_INFINITY;
        List<PackingBound.Column> columns = new java.util.ArrayList<>();
        GantryConfig config = world.config().get();
        for (NodePool pool : config.nodePools()) {
            NodeClass nc = config.nodeClassOf(pool).orElse(null);
            if (nc == null) {
                continue;
            }
            List<InstanceType> types = world.catalog().instanceTypes(nc).stream()
                    .filter(t -> pool.requirements().compatible(t.requirements())).toList();
            double b = LowerBound.of(demand, types, pool.requirements(), t -> Resources.ZERO);
            if (b > 0) {
                best = Math.min(best, b);
            }
            Resources daemons = certainDaemons(pool);
            for (InstanceType t : types) {
                var o = t.cheapestOffering(pool.requirements());
                if (o != null) {
                    columns.add(new PackingBound.Column(t.allocatable().minus(daemons), o.pricePerHour()));
                }
            }
        }
        lowerBound = best == Double.POSITIVE_INFINITY ? 0 : best;
        packingBound = PackingBound.of(shapes, columns);
        return lowerBound;
    }

    /**
     * What the DaemonSets certain to run on every node of the pool request: those with no node selector or affinity
     * (one empty term) that tolerate the pool's taints. A DaemonSet that only might land is left out, so the packing
     * bound stays a bound.
     */
    private Resources certainDaemons(NodePool pool) {
        Resources r = Resources.ZERO;
        for (dev.gantry.core.model.DaemonSet ds : world.cluster().daemonSets()) {
            Pod t = ds.template();
            if (dev.gantry.core.model.Toleration.firstUntolerated(t.tolerations(), pool.template().taints()) == null
                    && t.nodeRequirementTerms().stream().anyMatch(dev.gantry.core.requirements.Requirements::isEmpty)) {
                r = r.plus(t.requests());
            }
        }
        return r;
    }
}
