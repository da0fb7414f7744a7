package dev.gantry.simulator.bill;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.requirements.Requirement;
import java.util.Collection;

/**
 * DynamoDB on-demand request units for Gantry's items. A write costs one unit per started KB of the item; a strongly
 * consistent read (the adapter reads with {@code ConsistentRead}) one unit per started 4 KB of what it returns, and a
 * read that finds nothing still one. Item sizes are estimated from the attributes the adapter writes
 * ({@code NodeClaimItem}: names plus values): the fixed attributes (keys, state, pool, zone, type, price, a dozen
 * timestamps, launch parameters) at {@value #CLAIM_FIXED_BYTES} bytes, plus the pod names, the instance-type options
 * and the requirements, which grow with the claim. The other items (markers, unavailable offerings, pool usage) are
 * a few attributes: {@value #SMALL_ITEM_BYTES} bytes.
 */
public final class DynamoUnits {
    static final int CLAIM_FIXED_BYTES = 900;
    public static final int SMALL_ITEM_BYTES = 120;
    private static final int WRITE_UNIT = 1024;
    private static final int READ_UNIT = 4096;

    private DynamoUnits() {
    }

    /** The claim's item size in bytes, estimated. */
    public static long bytes(NodeClaim c) {
        long b = CLAIM_FIXED_BYTES;
        for (String p : c.pods()) {
            b += p.length() + 1;
        }
        for (String t : c.instanceTypeOptions()) {
            b += t.length() + 1;
        }
        for (Requirement r : c.requirements()) {
            b += r.key().length() + 16;
            for (String v : r.values()) {
                b += v.length() + 1;
            }
        }
        return b;
    }

    public static long bytes(Collection<NodeClaim> claims) {
        return claims.stream().mapToLong(DynamoUnits::bytes).sum();
    }

    /** Write units for one item of {@code bytes}. */
    public static double write(long bytes) {
        return Math.max(1, (bytes + WRITE_UNIT - 1) / WRITE_UNIT);
    }

    /** Read units for one strongly consistent GetItem or Query page set returning {@code bytes} in all. */
    public static double read(long bytes) {
        return Math.max(1, (bytes + READ_UNIT - 1) / READ_UNIT);
    }
}
