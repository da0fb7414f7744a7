package dev.gantry.core.catalog.overlay;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodeClass;
import java.util.Optional;

/**
 * Where a preview instance type's shape comes from (a type a NodeOverlay names with an absolute price but the catalogue
 * lacks): its labels, capacity and overhead under a NodeClass, and the zones it is offered in. Live, EC2's
 * DescribeInstanceTypes knows types before the catalogue does; offline there is nowhere to read one from, and
 * {@link #NONE} says so.
 *
 * <p>Contract: the offerings returned carry the zones and capacity types the type can be bought in; their prices are
 * replaced by the overlay's price. Never throws: an unknown type is empty, and so is one the source could not be asked
 * about (throttling, a 5xx, a network error), which {@link #unanswered} then tells apart; the next call asks again.
 */
public interface PreviewShapes {
    /** No source of shapes: a preview type the catalogue lacks is not enabled (the offline case). */
    PreviewShapes NONE = (name, nodeClass) -> Optional.empty();

    Optional<InstanceType> shape(String instanceType, NodeClass nodeClass);

    /**
     * Whether the last {@link #shape} of {@code instanceType} was empty because the source could not be asked, not
     * because it does not know the type: its absence says nothing yet (default: every empty answer is a real one).
     */
    default boolean unanswered(String instanceType) {
        return false;
    }
}
