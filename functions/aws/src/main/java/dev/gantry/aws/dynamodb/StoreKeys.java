package dev.gantry.aws.dynamodb;

import dev.gantry.core.catalog.OfferingKey;

/**
 * The key layout of the state table. One partition per cluster, so that one deployment can later serve several;
 * the sort key's prefix says what kind of record an item is, and a Query on the prefix lists one kind in order.
 */
final class StoreKeys {
    static final String CLAIM_PREFIX = "nodeclaim#";
    /**
     * An unavailable offering's mark: the prefix, then when the mark runs out (epoch milliseconds, zero-padded to 13
     * digits, so marks sort by it), then the offering. A reader's Query starts at its own instant and reads only the
     * marks still running: one that ran out costs nothing to a read, though it stays in the table until TTL deletes it
     * (within about two days). Marks of the first layout ({@code offering#type#zone#capacityType}) sort before this
     * prefix and are never read; they ran out minutes after they were written.
     */
    static final String OFFERING_PREFIX = "offering-until#";
    /** Sorts after every mark (the digits and the offering's characters are all below it). */
    static final String OFFERING_END = OFFERING_PREFIX + "~";
    static final String MARKER_PREFIX = "marker#";
    static final String USAGE_PREFIX = "usage#";
    static final String DEMAND_PREFIX = "demand#";

    private StoreKeys() {}

    static String partition(String clusterName) {
        return "cluster#" + clusterName;
    }

    static String claim(String name) {
        return CLAIM_PREFIX + name;
    }

    static String offering(OfferingKey key, long untilMillis) {
        return offeringFrom(untilMillis) + "#" + key.instanceType() + "#" + key.zone() + "#" + key.capacityType();
    }

    /** Where the marks running out at {@code untilMillis} or later begin. */
    static String offeringFrom(long untilMillis) {
        return OFFERING_PREFIX + String.format("%013d", untilMillis);
    }

    static String usage(String nodePool) {
        return USAGE_PREFIX + nodePool;
    }

    /** One item per pool and clock hour; the hour is zero-padded so a pool's items sort by time. */
    static String demand(String nodePool, long epochHour) {
        return DEMAND_PREFIX + nodePool + "#" + String.format("%010d", epochHour);
    }

    static String marker(String name) {
        return MARKER_PREFIX + name;
    }
}
