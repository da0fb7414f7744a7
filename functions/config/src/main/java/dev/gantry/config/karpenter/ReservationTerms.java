package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import java.util.ArrayList;
import java.util.List;

/**
 * An EC2NodeClass's {@code capacityReservationSelectorTerms} as values (their rules are checked with the other
 * fields Karpenter added since v1.11, in {@link UnhonouredFields#capacityReservations}): each term by id, or by tags,
 * {@code ownerID} and {@code instanceMatchCriteria}.
 */
final class ReservationTerms {
    private ReservationTerms() {
    }

    static List<CapacityReservationSelectorTerm> read(YamlObject spec) {
        List<CapacityReservationSelectorTerm> out = new ArrayList<>();
        for (YamlObject t : spec.objects("capacityReservationSelectorTerms")) {
            out.add(new CapacityReservationSelectorTerm(t.string("id"), t.string("ownerID"), t.stringMap("tags"),
                    t.string("instanceMatchCriteria")));
        }
        return out;
    }
}
