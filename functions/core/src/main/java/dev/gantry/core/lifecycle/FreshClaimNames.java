package dev.gantry.core.lifecycle;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * Records a new claim under a name never used before. A claim's name is a CreateFleet ClientToken (its own launch's
 * when it launches alone; its batch's launch token when it is the batch's first claim), which EC2 remembers long after
 * the instance is gone, so a name is never reused, not even once its record has expired (an
 * expired record may stay stored for days: DynamoDB's TTL deletes lazily).
 *
 * <p>The planned name comes first: it is derived from the claim's pods, so a redelivered batch that plans the same
 * claim finds the one an earlier delivery recorded, still in flight, and gets it back. When a closed claim holds the
 * planned name (the same pods, launched before and failed), the claim gets {@code <planned>-<t>}, where {@code t} is
 * {@code now} in milliseconds: time only moves forward, so there is always a fresh name.
 *
 * <p>Every name is at most {@value #MAX_LENGTH} characters ({@link #bounded}): the name is the value of the node's
 * {@code gantry.dev/nodeclaim} label (a label value holds 63) and the ClientToken of its launch (EC2 takes 64). A
 * NodePool's name may itself be 63 characters long, so a longer name keeps its beginning and ends in a digest of the
 * whole: still derived from the planned name alone, so a redelivery finds the same claim.
 */
public final class FreshClaimNames {
    /** The longest claim name: a label value's limit, one under EC2's 64-character ClientToken. */
    public static final int MAX_LENGTH = 63;
    /** Characters of the digest that ends a shortened name: 27^8, about 2.8e11 values. */
    private static final int DIGEST_LENGTH = 8;
    /** Tries of {@code <planned>-<t>}, {@code <planned>-<t>2}…: only a closed claim recorded in this same millisecond collides. */
    private static final int ATTEMPTS_AT_ONE_INSTANT = 10;
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private FreshClaimNames() {
    }

    /**
     * Creates {@code claimNamed.apply(name)} under the first free name, or returns the in-flight claim already
     * recorded under one of the names tried.
     *
     * @throws NodeClaimStore.Conflict when every name tried at {@code now} is held by a closed claim (retryable: a
     *                                 later instant has fresh names)
     */
    public static NodeClaim record(NodeClaimStore store, String planned, Function<String, NodeClaim> claimNamed, Instant now) {
        for (int attempt = 0; attempt <= ATTEMPTS_AT_ONE_INSTANT; attempt++) {
            String name = bounded(attempt == 0 ? planned : planned + "-" + encode(now.toEpochMilli()) + (attempt == 1 ? "" : attempt));
            try {
                return store.create(claimNamed.apply(name));
            } catch (NodeClaimStore.Conflict taken) {
                Optional<NodeClaim> current = store.get(name, now);
                if (current.isPresent() && current.get().state().isInFlight()) {
                    return current.get();
                }
                // Closed, or expired but not yet deleted: never reused.
            }
        }
        throw new NodeClaimStore.Conflict("every name tried for " + planned + " at " + now + " belongs to a closed claim");
    }

    /**
     * {@code name} itself when it has at most {@value #MAX_LENGTH} characters; otherwise its beginning, a dash and a
     * digest of the whole name, {@value #MAX_LENGTH} characters in all. It starts as the name does and ends with an
     * alphanumeric, so it is a valid label value; two names that differ anywhere get different digests.
     */
    public static String bounded(String name) {
        if (name.length() <= MAX_LENGTH) {
            return name;
        }
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < name.length(); i++) {
            h = (h ^ name.charAt(i)) * 0x100000001b3L;
        }
        h ^= h >>> 33; // FNV-1a, then a finalizer's mix so that every character moves the leading digits
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        StringBuilder digest = new StringBuilder();
        long v = h & Long.MAX_VALUE;
        for (int i = 0; i < DIGEST_LENGTH; i++) {
            digest.append(ALPHABET.charAt((int) (v % ALPHABET.length())));
            v /= ALPHABET.length();
        }
        return name.substring(0, MAX_LENGTH - 1 - DIGEST_LENGTH) + "-" + digest;
    }

    /** Base-27 in the claim-name alphabet (no vowels, so no words): 9 characters for any millisecond this millennium. */
    static String encode(long millis) {
        StringBuilder b = new StringBuilder();
        long v = millis;
        do {
            b.append(ALPHABET.charAt((int) (v % ALPHABET.length())));
            v /= ALPHABET.length();
        } while (v > 0);
        return b.reverse().toString();
    }
}
