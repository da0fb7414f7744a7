package dev.gantry.core.catalog;

import dev.gantry.core.model.NodeClass;
import java.util.List;

/**
 * The instance types Gantry may launch, specialised to a NodeClass: allocatable computed under its kubelet settings
 * and block devices, offerings priced for the provider's region and zones.
 *
 * <p>Implementations are the built-in offline catalogue, the live EC2/Pricing-backed one, and test fixtures.
 * Calls are cheap after the first for a given NodeClass, never throw for a well-formed NodeClass, and return an
 * immutable list ordered by name.
 */
public interface InstanceTypeProvider {
    List<InstanceType> instanceTypes(NodeClass nodeClass);
}
