package dev.gantry.core.status;

import dev.gantry.core.model.NodeClass;

/**
 * Resolves a NodeClass's selector terms as a launch would (subnets, security groups, AMIs, the instance profile),
 * for its status. Implementations may cache as their launches do, so a sweep asking every minute costs no more calls
 * than launching.
 *
 * <p>Errors: any unchecked exception means "could not resolve now" (a failed call, nothing matching); the caller
 * reports it on the NodeClass as {@code Ready=False} with the exception's message and tries again next sweep.
 */
@FunctionalInterface
public interface NodeClassResolver {
    /** The resolved status, its conditions left empty. */
    NodeClassStatus resolve(NodeClass nodeClass);
}
