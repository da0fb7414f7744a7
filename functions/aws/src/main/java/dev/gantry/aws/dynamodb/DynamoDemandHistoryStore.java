package dev.gantry.aws.dynamodb;

import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Pending-demand history in the state table, beside the NodeClaims of the same cluster: one item per pool and clock
 * hour, {@code pk = cluster#<cluster>}, {@code sk = demand#<pool>#<epoch hour, 10 digits>}, with {@code cpuMillis},
 * {@code memoryBytes}, {@code nodePool}, {@code epochHour} and a {@code ttl} just after the last hour a quantile consults
 * it. Each resource is raised by its own conditional update ({@code SET cpuMillis = :v} only if absent or smaller),
 * so concurrent or repeated recordings keep the peak without a read or a transaction. Readers skip expired items.
 */
public final class DynamoDemandHistoryStore implements DemandHistoryStore {
    static final String CPU = "cpuMillis";
    static final String MEMORY = "memoryBytes";

    private final DynamoDbClient dynamo;
    private final String table;
    private final String partition;

    public DynamoDemandHistoryStore(DynamoDbClient dynamo, String tableName, String clusterName) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(tableName, "tableName");
        this.partition = StoreKeys.partition(Objects.requireNonNull(clusterName, "clusterName"));
    }

    /** The ttl (epoch seconds) of an hour's sample: when {@link DemandHistory#prune} stops keeping it. */
    static long ttl(long epochHour) {
        return (epochHour + DemandHistory.WEEKS * 168L + 1) * 3600;
    }

    @Override
    public void record(String nodePool, Instant at, Resources pending) {
        long hour = DemandHistory.epochHour(at);
        raise(nodePool, hour, CPU, pending.cpuMillis());
        raise(nodePool, hour, MEMORY, pending.memoryBytes());
    }

    private void raise(String nodePool, long hour, String attribute, long value) {
        try {
            dynamo.updateItem(b -> b.tableName(table)
                    .key(Map.of(DynamoTables.PARTITION_KEY, s(partition), DynamoTables.SORT_KEY, s(StoreKeys.demand(nodePool, hour))))
                    .updateExpression("SET #v = :v, nodePool = :pool, epochHour = :hour, #ttl = :ttl")
                    .conditionExpression("attribute_not_exists(#v) OR #v < :v")
                    .expressionAttributeNames(Map.of("#v", attribute, "#ttl", DynamoTables.TTL))
                    .expressionAttributeValues(Map.of(":v", n(value), ":pool", s(nodePool), ":hour", n(hour),
                            ":ttl", n(ttl(hour)))));
        } catch (ConditionalCheckFailedException higher) {
            // the hour already holds as much or more: the peak stands
        }
    }

    @Override
    public DemandHistory read(Instant now) {
        long nowSeconds = now.getEpochSecond();
        List<DemandHistory.Sample> samples = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder q = QueryRequest.builder().tableName(table).consistentRead(true)
                    .keyConditionExpression("#pk = :pk AND begins_with(#sk, :prefix)")
                    .expressionAttributeNames(Map.of("#pk", DynamoTables.PARTITION_KEY, "#sk", DynamoTables.SORT_KEY))
                    .expressionAttributeValues(Map.of(":pk", s(partition), ":prefix", s(StoreKeys.DEMAND_PREFIX)));
            QueryResponse page = dynamo.query(q.exclusiveStartKey(start).build());
            for (Map<String, AttributeValue> item : page.items()) {
                AttributeValue ttl = item.get(DynamoTables.TTL);
                if (ttl != null && Long.parseLong(ttl.n()) <= nowSeconds) {
                    continue; // expired, not yet deleted
                }
                samples.add(new DemandHistory.Sample(item.get("nodePool").s(), Long.parseLong(item.get("epochHour").n()),
                        number(item, CPU), number(item, MEMORY)));
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return new DemandHistory(samples).prune(now);
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? 0 : Long.parseLong(v.n());
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}
