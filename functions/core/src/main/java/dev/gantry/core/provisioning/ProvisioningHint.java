package dev.gantry.core.provisioning;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A nudge that the provisioner should look at the cluster: something happened to an object. Hints are never trusted
 * for content; the provisioner always re-reads the truth. They travel on the FIFO queue as JSON (the codec lives in
 * the handlers module).
 *
 * @param uid the object's uid (the AdmissionReview object's {@code metadata.uid}), used for de-duplication
 * @param at  when the hint was made
 */
public record ProvisioningHint(Reason reason, String namespace, String name, String uid, Instant at) {

    /** Width of the de-duplication bucket: hints for the same object and reason within it collapse into one. */
    public static final long DEDUP_BUCKET_SECONDS = 10;

    /** Why the hint was sent; {@link #wire()} is the JSON value. */
    public enum Reason {
        POD_CREATED("pod-created"), POD_UNSCHEDULABLE("pod-unschedulable"), NODE_CREATED("node-created"),
        NODE_DELETED("node-deleted"), BACKSTOP("backstop"), INTERRUPTION("interruption"), REBALANCE("rebalance"),
        REPLACEMENT("replacement"),
        /** An admitted NodePool, EC2NodeClass or CapacityBuffer write: the next run reads the new configuration. */
        CONFIG_CHANGED("config-changed"),
        /** A run that ran out of time asks for the next one, which carries on where it stopped. */
        CONTINUE("continue"),
        /**
         * A run whose last plan still found no capacity asks for the next at once, which plans the pods it left on the
         * offerings not yet found out (until a run has none left to try).
         */
        CAPACITY_RETRY("capacity-retry");

        private final String wire;

        Reason(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        /** @throws IllegalArgumentException for an unknown value */
        public static Reason parse(String s) {
            for (Reason r : values()) {
                if (r.wire.equals(s)) {
                    return r;
                }
            }
            throw new IllegalArgumentException("'" + s + "' is not a hint reason");
        }
    }

    public ProvisioningHint {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(at, "at");
        namespace = namespace == null ? "" : namespace;
    }

    /**
     * The FIFO MessageDeduplicationId: {@code hex(sha256(uid + "/" + reason + "/" + floor(epochSeconds / 10)))}.
     * A storm of updates to one pod inside a 10-second bucket becomes one message (SQS keeps dedup ids 5 minutes).
     */
    public String deduplicationId() {
        String key = uid + "/" + reason.wire() + "/" + Math.floorDiv(at.getEpochSecond(), DEDUP_BUCKET_SECONDS);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
