package dev.gantry.aws.dynamodb;

import static dev.gantry.aws.dynamodb.NodeClaimItem.n;
import static dev.gantry.aws.dynamodb.NodeClaimItem.s;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.PoolUsage;
import dev.gantry.core.model.Resources;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * {@link NodeClaimStore} over one DynamoDB table (layout in {@link StoreKeys}, schema in {@link DynamoTables}).
 *
 * <p>Every write is one single-item {@code PutItem}. Claims carry a {@code version}: create is conditional on
 * {@code attribute_not_exists(sk)}, update on {@code version = :expected}; a failed condition is the port's
 * {@link NodeClaimStore.Conflict}. There are no transactions: nothing needs two items to change together, and the
 * emulators have none. Markers are last-write-wins puts; an unavailable offering's mark is an item per offering and
 * end, read only while it runs.
 *
 * <p>Per-pool usage (capacity and nodes counted against a NodePool's limits) is stored as a <em>snapshot</em> item per
 * pool, written after each provisioning run, never as a counter: without transactions a counter cannot change
 * atomically with the claim it counts, so a crash between the two writes would make it drift from the claims for
 * good. Decisions therefore derive usage each time from the live claims and the cluster's nodes, which are the truth;
 * the snapshot only serves status and dashboards, and a newer snapshot is never overwritten by an older one.
 *
 * <p>Reads of claims, offerings and markers are strongly consistent, except {@link #findByInstanceId}: global
 * secondary indexes are eventually consistent, so it may return a claim a write or two behind. A caller that then
 * updates it gets a Conflict and re-reads with {@link #get}. Records whose {@code expiresAt} (or unavailable-until)
 * has passed are skipped by every reader, because DynamoDB deletes expired items only lazily.
 */
public final class DynamoNodeClaimStore implements NodeClaimStore {
    private static final String UNTIL = "until";
    private static final String UNTIL_MILLIS = "untilMillis";
    private static final String AT = "at";
    private static final String AT_MILLIS = "atMillis";

    private final DynamoDbClient dynamo;
    private final String table;
    private final String partition;
    private final Integer pageSize;

    /** A store for {@code clusterName}'s records in {@code tableName}. */
    public DynamoNodeClaimStore(DynamoDbClient dynamo, String tableName, String clusterName) {
        this(dynamo, tableName, clusterName, null);
    }

    /** As above, reading Query results {@code pageSize} items at a time (tests use it to exercise pagination). */
    DynamoNodeClaimStore(DynamoDbClient dynamo, String tableName, String clusterName, Integer pageSize) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = requireText(tableName, "tableName");
        this.partition = StoreKeys.partition(requireText(clusterName, "clusterName"));
        this.pageSize = pageSize;
    }

    /** A production client: URL-connection HTTP with {@code CallTimeouts.DEFAULT.dynamodb()}, the given region, the default credentials chain. */
    public static DynamoDbClient client(Region region) {
        dev.gantry.config.deployment.CallTimeouts.Budget b = dev.gantry.config.deployment.CallTimeouts.DEFAULT.dynamodb();
        return DynamoDbClient.builder().region(region).httpClient(dev.gantry.aws.client.ClientTimeouts.http(b))
                .overrideConfiguration(dev.gantry.aws.client.ClientTimeouts.override(b)).build();
    }

    /** A client for an emulator or LocalStack at {@code endpoint}, with explicit credentials. */
    public static DynamoDbClient client(Region region, URI endpoint, AwsCredentialsProvider credentials) {
        return DynamoDbClient.builder().region(region).endpointOverride(endpoint).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @Override
    public NodeClaim create(NodeClaim claim) {
        NodeClaim stored = claim.withVersion(1);
        put(b -> b.item(NodeClaimItem.encode(partition, stored))
                        .conditionExpression("attribute_not_exists(#sk)")
                        .expressionAttributeNames(Map.of("#sk", DynamoTables.SORT_KEY)),
                "nodeclaim " + claim.name() + " exists");
        return stored;
    }

    @Override
    public NodeClaim update(NodeClaim claim) {
        NodeClaim stored = claim.withVersion(claim.version() + 1);
        // A missing item fails this condition too: there is no version to compare.
        put(b -> b.item(NodeClaimItem.encode(partition, stored))
                        .conditionExpression("#v = :expected")
                        .expressionAttributeNames(Map.of("#v", NodeClaimItem.VERSION))
                        .expressionAttributeValues(Map.of(":expected", n(Long.toString(claim.version())))),
                "nodeclaim " + claim.name() + " does not exist or is no longer at version " + claim.version());
        return stored;
    }

    @Override
    public Optional<NodeClaim> get(String name, Instant now) {
        return getItem(StoreKeys.claim(name)).map(NodeClaimItem::decode).filter(c -> !c.isExpired(now));
    }

    @Override
    public Optional<NodeClaim> findByInstanceId(String instanceId, Instant now) {
        QueryRequest.Builder query = QueryRequest.builder().tableName(table).indexName(DynamoTables.INSTANCE_ID_INDEX)
                .keyConditionExpression("#id = :id")
                // Instance ids are unique across clusters, but the index is not partitioned by cluster.
                .filterExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#id", DynamoTables.INSTANCE_ID, "#pk", DynamoTables.PARTITION_KEY))
                .expressionAttributeValues(Map.of(":id", s(instanceId), ":pk", s(partition)));
        return queryAll(query).stream().map(NodeClaimItem::decode).filter(c -> !c.isExpired(now))
                .min((a, b) -> a.name().compareTo(b.name()));
    }

    @Override
    public List<NodeClaim> list(Instant now) {
        List<NodeClaim> out = new ArrayList<>();
        for (Map<String, AttributeValue> item : queryPrefix(StoreKeys.CLAIM_PREFIX)) {
            NodeClaim claim = NodeClaimItem.decode(item);
            if (!claim.isExpired(now)) {
                out.add(claim);
            }
        }
        return out; // Query returns sort-key order, and the sort key is the prefix plus the name.
    }

    /**
     * One item per offering and end ({@link StoreKeys#offering}): an unconditional put, so a repeated mark is the same
     * item and a later one for the same offering is another, which keeps it unavailable for longer; an earlier mark
     * never shortens one (readers take any mark still running).
     */
    @Override
    public void markUnavailable(OfferingKey offering, Instant until) {
        Map<String, AttributeValue> item = keyOf(StoreKeys.offering(offering, until.toEpochMilli()));
        item.put("instanceType", s(offering.instanceType()));
        item.put("zone", s(offering.zone()));
        item.put("capacityType", s(offering.capacityType()));
        item.put(UNTIL, s(until.toString()));
        item.put(UNTIL_MILLIS, n(Long.toString(until.toEpochMilli())));
        item.put(DynamoTables.TTL, NodeClaimItem.ttl(until));
        dynamo.putItem(b -> b.tableName(table).item(item));
    }

    /** The marks still running at {@code now}: a Query from {@code now} on, so a mark that ran out is not read. */
    @Override
    public Set<OfferingKey> unavailableOfferings(Instant now) {
        Set<OfferingKey> out = new HashSet<>();
        List<Map<String, AttributeValue>> running = queryAll(QueryRequest.builder().tableName(table).consistentRead(true)
                .keyConditionExpression("#pk = :pk AND #sk BETWEEN :from AND :to")
                .expressionAttributeNames(Map.of("#pk", DynamoTables.PARTITION_KEY, "#sk", DynamoTables.SORT_KEY))
                .expressionAttributeValues(Map.of(":pk", s(partition), ":from", s(StoreKeys.offeringFrom(now.toEpochMilli() + 1)),
                        ":to", s(StoreKeys.OFFERING_END))));
        for (Map<String, AttributeValue> item : running) {
            if (now.isBefore(NodeClaimItem.instant(item, UNTIL))) {
                out.add(new OfferingKey(NodeClaimItem.string(item, "instanceType"), NodeClaimItem.string(item, "zone"),
                        NodeClaimItem.string(item, "capacityType")));
            }
        }
        return out;
    }

    /** One item per pool; written only if no newer snapshot is stored (epoch millis compare as numbers, ISO text would not). */
    @Override
    public void recordPoolUsage(PoolUsage usage) {
        Map<String, AttributeValue> item = keyOf(StoreKeys.usage(usage.nodePool()));
        item.put("nodePool", s(usage.nodePool()));
        Map<String, AttributeValue> capacity = new HashMap<>();
        usage.capacity().asMap().forEach((resource, amount) -> capacity.put(resource, n(Long.toString(amount))));
        item.put("capacity", AttributeValue.builder().m(capacity).build());
        item.put("nodes", n(Integer.toString(usage.nodes())));
        item.put(AT_MILLIS, n(Long.toString(usage.at().toEpochMilli())));
        try {
            dynamo.putItem(b -> b.tableName(table).item(item)
                    .conditionExpression("attribute_not_exists(#sk) OR #at <= :at")
                    .expressionAttributeNames(Map.of("#sk", DynamoTables.SORT_KEY, "#at", AT_MILLIS))
                    .expressionAttributeValues(Map.of(":at", n(Long.toString(usage.at().toEpochMilli())))));
        } catch (ConditionalCheckFailedException newer) {
            // a later run already recorded a newer snapshot: keep it
        }
    }

    @Override
    public List<PoolUsage> poolUsage() {
        List<PoolUsage> out = new ArrayList<>();
        for (Map<String, AttributeValue> item : queryPrefix(StoreKeys.USAGE_PREFIX)) {
            Map<String, Long> amounts = new java.util.TreeMap<>();
            item.get("capacity").m().forEach((resource, amount) -> amounts.put(resource, Long.parseLong(amount.n())));
            Resources capacity = Resources.ZERO;
            for (var e : amounts.entrySet()) {
                capacity = capacity.with(e.getKey(), e.getValue());
            }
            out.add(new PoolUsage(NodeClaimItem.string(item, "nodePool"), capacity, Integer.parseInt(item.get("nodes").n()),
                    Instant.ofEpochMilli(Long.parseLong(item.get(AT_MILLIS).n()))));
        }
        out.sort(java.util.Comparator.comparing(PoolUsage::nodePool));
        return out;
    }

    @Override
    public void setMarker(String name, Instant at) {
        Map<String, AttributeValue> item = keyOf(StoreKeys.marker(name));
        item.put(AT, s(at.toString()));
        dynamo.putItem(b -> b.tableName(table).item(item));
    }

    @Override
    public Optional<Instant> marker(String name) {
        return getItem(StoreKeys.marker(name)).map(item -> NodeClaimItem.instant(item, AT));
    }

    /** The one place a lost condition becomes the port's Conflict. */
    private void put(Consumer<PutItemRequest.Builder> request, String conflict) {
        try {
            dynamo.putItem(b -> request.accept(b.tableName(table)));
        } catch (ConditionalCheckFailedException e) {
            throw new Conflict(conflict);
        }
    }

    private Optional<Map<String, AttributeValue>> getItem(String sortKey) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(keyOf(sortKey))
                .consistentRead(true)).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(item);
    }

    private List<Map<String, AttributeValue>> queryPrefix(String prefix) {
        return queryAll(QueryRequest.builder().tableName(table).consistentRead(true)
                .keyConditionExpression("#pk = :pk AND begins_with(#sk, :prefix)")
                .expressionAttributeNames(Map.of("#pk", DynamoTables.PARTITION_KEY, "#sk", DynamoTables.SORT_KEY))
                .expressionAttributeValues(Map.of(":pk", s(partition), ":prefix", s(prefix))));
    }

    private List<Map<String, AttributeValue>> queryAll(QueryRequest.Builder query) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = dynamo.query(query.limit(pageSize).exclusiveStartKey(start).build());
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    private Map<String, AttributeValue> keyOf(String sortKey) {
        Map<String, AttributeValue> key = new HashMap<>();
        key.put(DynamoTables.PARTITION_KEY, s(partition));
        key.put(DynamoTables.SORT_KEY, s(sortKey));
        return key;
    }

    private static String requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return value;
    }
}
