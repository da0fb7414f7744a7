package dev.gantry.cli.consolidate;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.util.List;
import java.util.Map;

/**
 * A node's $/h as consolidation prices it: its instance type's offering in its zone and capacity type, from its own
 * pool's catalogue (any pool's for a node no pool launched); 0 when the catalogue has no such offering.
 */
final class Prices {
    private Prices() {
    }

    static double of(Node n, List<PoolOffer> pools) {
        Map<String, String> l = n.labels();
        String type = l.get(WellKnownLabels.INSTANCE_TYPE);
        String pool = l.get(WellKnownLabels.NODEPOOL);
        double any = 0;
        for (PoolOffer o : pools) {
            for (InstanceType t : o.instanceTypes()) {
                if (!t.name().equals(type)) {
                    continue;
                }
                for (Offering off : t.offerings()) {
                    if (off.zone().equals(l.get(WellKnownLabels.ZONE)) && off.capacityType().equals(l.get(WellKnownLabels.CAPACITY_TYPE))) {
                        if (o.pool().name().equals(pool)) {
                            return off.pricePerHour();
                        }
                        any = any == 0 ? off.pricePerHour() : any;
                    }
                }
            }
        }
        return any;
    }

    static double total(List<Node> nodes, List<PoolOffer> pools) {
        double sum = 0;
        for (Node n : nodes) {
            sum += of(n, pools);
        }
        return sum;
    }

    /** {@code m6a.xlarge on-demand us-east-1a}, as a removed node is described. */
    static String describe(Node n) {
        Map<String, String> l = n.labels();
        return kind(n) + " " + l.getOrDefault(WellKnownLabels.ZONE, "?");
    }

    /** {@code m6a.xlarge on-demand}; a node no NodePool launched is {@code m6a.xlarge (no NodePool)}. */
    static String kind(Node n) {
        Map<String, String> l = n.labels();
        String type = l.getOrDefault(WellKnownLabels.INSTANCE_TYPE, "?");
        return n.managed() ? type + " " + l.getOrDefault(WellKnownLabels.CAPACITY_TYPE, "?") : type + " (no NodePool)";
    }
}
