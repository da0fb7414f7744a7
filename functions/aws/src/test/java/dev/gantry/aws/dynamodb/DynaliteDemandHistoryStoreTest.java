package dev.gantry.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.model.Resources;
import dev.gantry.testing.DynaliteExtension;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The demand history contract on dynalite, plus the item layout operators and the TTL rely on. */
class DynaliteDemandHistoryStoreTest extends DemandHistoryStoreContract {
    @RegisterExtension
    static final DynaliteExtension DYNALITE = new DynaliteExtension();
    private static final String TABLE = "gantry-state";
    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private String cluster;

    @BeforeAll
    static void createTable() {
        DynamoTables.createTable(DYNALITE.dynamoDbClient(), TABLE);
    }

    @Override
    protected DemandHistoryStore newStore() {
        cluster = "cluster-" + CLUSTERS.incrementAndGet();
        return new DynamoDemandHistoryStore(DYNALITE.dynamoDbClient(), TABLE, cluster);
    }

    @Test
    void writesOneItemPerPoolAndHourInTheClustersPartitionWithATtl() {
        store.record("default", MONDAY_9.plusSeconds(90), Resources.of(2500, 3 * GI));
        long hour = DemandHistory.epochHour(MONDAY_9);
        Map<String, AttributeValue> item = DYNALITE.dynamoDbClient().getItem(b -> b.tableName(TABLE).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS("cluster#" + cluster),
                        "sk", AttributeValue.fromS("demand#default#" + String.format("%010d", hour))))).item();
        assertThat(item.get("cpuMillis").n()).isEqualTo("2500");
        assertThat(item.get("memoryBytes").n()).isEqualTo(Long.toString(3 * GI));
        assertThat(item.get("nodePool").s()).isEqualTo("default");
        assertThat(Long.parseLong(item.get("ttl").n())).isEqualTo((hour + DemandHistory.WEEKS * 168L + 1) * 3600);
    }

    @Test
    void anItemPastItsTtlIsSkippedThoughDynamoDbHasNotDeletedIt() {
        long hour = DemandHistory.epochHour(MONDAY_9);
        DYNALITE.dynamoDbClient().putItem(b -> b.tableName(TABLE).item(Map.of(
                "pk", AttributeValue.fromS("cluster#" + cluster),
                "sk", AttributeValue.fromS("demand#default#" + String.format("%010d", hour)),
                "nodePool", AttributeValue.fromS("default"), "epochHour", AttributeValue.fromN(Long.toString(hour)),
                "cpuMillis", AttributeValue.fromN("1000"), "memoryBytes", AttributeValue.fromN("0"),
                "ttl", AttributeValue.fromN(Long.toString(MONDAY_9.getEpochSecond() + 60)))));
        assertThat(store.read(MONDAY_9.plusSeconds(59)).samples()).hasSize(1);
        assertThat(store.read(MONDAY_9.plusSeconds(60)).samples()).isEmpty();
    }
}
