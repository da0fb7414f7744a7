package dev.gantry.core.lifecycle;

import java.time.Instant;
import java.util.Objects;

/**
 * What a claim was launched from, and whether it has drifted: the static hashes of its NodePool's template and of its
 * NodeClass, each with the version of Gantry's hash it was computed with, and the drift reason once one is found.
 * These are Karpenter's NodeClaim annotations {@code karpenter.sh/nodepool-hash}, {@code karpenter.sh/nodepool-hash-version},
 * {@code karpenter.k8s.aws/ec2nodeclass-hash}, {@code karpenter.k8s.aws/ec2nodeclass-hash-version}, and its
 * {@code Drifted} condition (reason, last transition), as a projection of the claim writes them.
 *
 * <p>A hash is compared only with one of the same version: when Gantry's hash version changes, a claim not already
 * drifted is stamped again with the new hashes, never drifted by the change (Karpenter's hash-version migration).
 *
 * @param drifted   the drift reason ({@code NodePoolDrifted}, {@code NodeClassDrifted}, {@code AMIDrifted}, …) or null
 * @param driftedAt when the claim was first seen drifted (the condition's last transition); null when not drifted
 */
public record DriftStamp(String nodePoolHash, String nodePoolHashVersion, String nodeClassHash, String nodeClassHashVersion,
                         String drifted, Instant driftedAt) {
    public DriftStamp {
        Objects.requireNonNull(nodePoolHash, "nodePoolHash");
        Objects.requireNonNull(nodePoolHashVersion, "nodePoolHashVersion");
        Objects.requireNonNull(nodeClassHash, "nodeClassHash");
        Objects.requireNonNull(nodeClassHashVersion, "nodeClassHashVersion");
        if ((drifted == null) != (driftedAt == null)) {
            throw new IllegalArgumentException("drifted and driftedAt go together, got " + drifted + " / " + driftedAt);
        }
    }

    /** A claim launched now from templates with these hashes: not drifted. */
    public static DriftStamp launched(String nodePoolHash, String nodePoolHashVersion, String nodeClassHash,
                                      String nodeClassHashVersion) {
        return new DriftStamp(nodePoolHash, nodePoolHashVersion, nodeClassHash, nodeClassHashVersion, null, null);
    }

    public boolean isDrifted() {
        return drifted != null;
    }

    /** Drifted for {@code reason}; a claim already drifted keeps when it first drifted (the reason may change). */
    public DriftStamp drift(String reason, Instant at) {
        Objects.requireNonNull(reason, "reason");
        return new DriftStamp(nodePoolHash, nodePoolHashVersion, nodeClassHash, nodeClassHashVersion, reason,
                driftedAt == null ? at : driftedAt);
    }

    /** No longer drifted (the change was undone). */
    public DriftStamp cleared() {
        return new DriftStamp(nodePoolHash, nodePoolHashVersion, nodeClassHash, nodeClassHashVersion, null, null);
    }

    /** The same stamp with other hashes (a version migration re-stamps them). */
    public DriftStamp withHashes(String poolHash, String poolVersion, String classHash, String classVersion) {
        return new DriftStamp(poolHash, poolVersion, classHash, classVersion, drifted, driftedAt);
    }
}
