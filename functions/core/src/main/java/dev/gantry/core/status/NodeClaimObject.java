package dev.gantry.core.status;

import dev.gantry.core.model.NodePool.NodeClassRef;
import dev.gantry.core.requirements.Requirement;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A {@code karpenter.sh/v1} NodeClaim object as Gantry projects it from its own claim ({@link ClaimProjection}): what
 * {@code kubectl get nodeclaims} shows. The spec is written once, at creation (the CRD makes it immutable); labels and
 * status follow the claim. {@link #digest()} fingerprints what follows the claim, so a sweep writes an object only
 * when it changed.
 *
 * @param name         the claim's name (also the object's)
 * @param labels       nodepool, nodeclass, instance type, capacity type, zone and the requirements' single values
 * @param annotations  the static-drift hashes the claim was launched from, under Karpenter's keys ({@link #hashes})
 * @param nodeClassRef the pool's {@code nodeClassRef}
 * @param requirements the claim's requirements, less those the CRD refuses on a NodeClaim
 * @param expireAfter  the pool's {@code expireAfter} in the API's notation ({@code 720h}, {@code Never}), or null
 * @param status       what the claim knows of its instance and node
 */
public record NodeClaimObject(String name, Map<String, String> labels, Map<String, String> annotations,
                              NodeClassRef nodeClassRef, List<Requirement> requirements, String expireAfter, Status status) {
    /** Karpenter's finalizer: the object stays until the instance is gone (adopted Karpenter objects keep theirs). */
    public static final String FINALIZER = "karpenter.sh/termination";
    /** The annotation holding {@link #digest()} of what was last written. */
    public static final String DIGEST_ANNOTATION = "gantry.dev/projection";

    /**
     * {@code status}: {@code providerID} ({@code aws:///zone/i-…}), {@code nodeName}, {@code imageID}, capacity and
     * allocatable as quantities ({@code "2"}, {@code "7845Mi"}), and the conditions.
     */
    public record Status(String providerID, String nodeName, String imageID, Map<String, String> capacity,
                         Map<String, String> allocatable, List<Condition> conditions) {
        public Status {
            capacity = new TreeMap<>(capacity == null ? Map.of() : capacity);
            allocatable = new TreeMap<>(allocatable == null ? Map.of() : allocatable);
            capacity = java.util.Collections.unmodifiableMap(capacity);
            allocatable = java.util.Collections.unmodifiableMap(allocatable);
            conditions = List.copyOf(conditions == null ? List.of() : conditions);
        }
    }

    public NodeClaimObject {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(nodeClassRef, "nodeClassRef");
        Objects.requireNonNull(status, "status");
        labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels == null ? Map.of() : labels));
        annotations = java.util.Collections.unmodifiableMap(new TreeMap<>(annotations == null ? Map.of() : annotations));
        requirements = List.copyOf(requirements == null ? List.of() : requirements);
    }

    /** An object without annotations. */
    public NodeClaimObject(String name, Map<String, String> labels, NodeClassRef nodeClassRef, List<Requirement> requirements,
                           String expireAfter, Status status) {
        this(name, labels, Map.of(), nodeClassRef, requirements, expireAfter, status);
    }

    /**
     * Karpenter's hash annotations for a claim's drift stamp: {@code karpenter.sh/nodepool-hash(-version)} and
     * {@code karpenter.k8s.aws/ec2nodeclass-hash(-version)}, with Gantry's own hashes and versions ({@code gantry-N}). A
     * Karpenter put back in charge sees a hash version it does not know, and re-stamps rather than drifts.
     */
    public static Map<String, String> hashes(dev.gantry.core.lifecycle.DriftStamp stamp) {
        if (stamp == null) {
            return Map.of();
        }
        return Map.of("karpenter.sh/nodepool-hash", stamp.nodePoolHash(),
                "karpenter.sh/nodepool-hash-version", stamp.nodePoolHashVersion(),
                "karpenter.k8s.aws/ec2nodeclass-hash", stamp.nodeClassHash(),
                "karpenter.k8s.aws/ec2nodeclass-hash-version", stamp.nodeClassHashVersion());
    }

    /**
     * A fingerprint of the labels, annotations and status (not the spec, which is never rewritten): equal digests mean nothing to
     * write. Stable across processes (maps are sorted).
     */
    public String digest() {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest((labels + "|" + (annotations.isEmpty() ? "" : annotations + "|") + status)
                            .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
