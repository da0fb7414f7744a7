package dev.gantry.aws.dynamodb;

import dev.gantry.core.catalog.OfferingKey;

/**
 * The key layout of the state table. One partition per cluster, so that one deployment can later serve several;
 * the sort key's prefix says what kind of record an item is, and a Query on the prefix lists one kind in order.
 */
final class StoreKeys {
    static final String CLAIM_PREFIX = "nodeclaim#";
    static final String OFFERING_PREFIX = "offering#";
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

    static String offering(OfferingKey key) {
        return OFFERING_PREFIX + key.instanceType() + "#" + key.zone() + "#" + key.capacityType();
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
