package dev.gantry.core.status;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A NodeClaim object as one list of the API server returned it: only what the projection step decides on.
 *
 * @param resourceVersion   the object's version, the precondition of every write to it
 * @param digest            the {@link NodeClaimObject#DIGEST_ANNOTATION} Gantry last wrote, or null: an object without
 *                          one is not (yet) Gantry's projection (Karpenter's own, before adoption), and is never deleted
 * @param finalizers        {@code metadata.finalizers}
 * @param deletionTimestamp when someone asked to delete it ({@code kubectl delete nodeclaim}), or null
 * @param hasStatus         whether it has a status at all (a create whose status write never came has none)
 */
public record ObservedNodeClaim(String name, String resourceVersion, String digest, List<String> finalizers,
                                Instant deletionTimestamp, boolean hasStatus) {
    public ObservedNodeClaim {
        Objects.requireNonNull(name, "name");
        finalizers = List.copyOf(finalizers == null ? List.of() : finalizers);
    }

    public boolean hasFinalizer() {
        return finalizers.contains(NodeClaimObject.FINALIZER);
    }

    public boolean deleting() {
        return deletionTimestamp != null;
    }

    /** Projected by Gantry (it carries the digest annotation). */
    public boolean projected() {
        return digest != null;
    }
}
