package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import java.util.ArrayList;
import java.util.List;

/**
 * A NodeClass's {@code capacityReservationSelectorTerms} as values (their rules are checked with the other fields
 * Karpenter added since v1.11, in {@link UnhonouredFields#capacityReservations}): each term by id, or by tags, the
 * owner account and (EC2NodeClass only) {@code instanceMatchCriteria}. Karpenter's EC2NodeClass spells the owner
 * {@code ownerID}; EKS Auto Mode's NodeClass spells it {@code owner} and selects as Karpenter does (a selected
 * reservation is capacity type {@code reserved}, and an open one is not used unless selected).
 */
final class ReservationTerms {
    private ReservationTerms() {
    }

    /** An EC2NodeClass's terms. */
    static List<CapacityReservationSelectorTerm> read(YamlObject spec) {
        return read(spec, "ownerID");
    }

    /** An EKS Auto Mode NodeClass's terms (the owner is {@code owner}; there is no {@code instanceMatchCriteria}). */
    static List<CapacityReservationSelectorTerm> readAutoMode(YamlObject spec) {
        return read(spec, "owner");
    }

    private static List<CapacityReservationSelectorTerm> read(YamlObject spec, String ownerField) {
        List<CapacityReservationSelectorTerm> out = new ArrayList<>();
        for (YamlObject t : spec.objects("capacityReservationSelectorTerms")) {
            out.add(new CapacityReservationSelectorTerm(t.string("id"), t.string(ownerField), t.stringMap("tags"),
                    t.string("instanceMatchCriteria")));
        }
        return out;
    }
}
