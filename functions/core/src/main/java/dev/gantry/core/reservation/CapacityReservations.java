package dev.gantry.core.reservation;

import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import java.util.List;

/**
 * Resolves {@code capacityReservationSelectorTerms} to the reservations they select, as Karpenter's capacity
 * reservation provider does (aws {@code pkg/providers/capacityreservation}): one lookup per term (a term by id, or one
 * by tags, owner and match criteria), ORed and deduplicated by id; only {@code active} reservations, and none whose
 * end time has passed. No terms select nothing: an open reservation is never used implicitly. Implementations may
 * cache as their launches do.
 *
 * <p>Errors: an unchecked exception (a {@code CloudException} from the EC2 adapter) when a lookup fails; a term whose
 * id EC2 does not know selects nothing and is not an error.
 */
@FunctionalInterface
public interface CapacityReservations {
    /** Selects nothing (a provider that models no reservations). */
    CapacityReservations NONE = terms -> List.of();

    /** The reservations {@code terms} select, ordered by id. */
    List<CapacityReservation> select(List<CapacityReservationSelectorTerm> terms);
}
