package dev.gantry.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.testing.DynaliteExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The store contract against dynalite (one server and one table per class; each test its own cluster partition), plus
 * the item layout the infra stack and operators rely on.
 */
class DynaliteNodeClaimStoreTest extends NodeClaimStoreContract {
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
    protected NodeClaimStore newStore() {
        cluster = "cluster-" + CLUSTERS.incrementAndGet();
        // A small page size, so that every list and index lookup goes through pagination.
        return new DynamoNodeClaimStore(DYNALITE.dynamoDbClient(), TABLE, cluster, 7);
    }

    private Map<String, AttributeValue> rawItem(String sortKey) {
        DynamoDbClient dynamo = DYNALITE.dynamoDbClient();
        return dynamo.getItem(b -> b.tableName(TABLE).consistentRead(true).key(Map.of(
                "pk", AttributeValue.fromS("cluster#" + cluster), "sk", AttributeValue.fromS(sortKey)))).item();
    }

    @Test
    void writesAClaimUnderItsClusterPartitionWithVersionAndTtl() {
        NodeClaim created = store.create(launching("default-abc12"));
        store.update(created.terminated(T0, Duration.ofHours(1)));

        Map<String, AttributeValue> item = rawItem("nodeclaim#default-abc12");

        assertThat(item.get("version").n()).isEqualTo("2");
        assertThat(item.get("state").s()).isEqualTo("Terminated");
        // expiresAt has nanoseconds: ttl rounds up so DynamoDB never deletes a record readers still see.
        assertThat(item.get("ttl").n()).isEqualTo(Long.toString(T0.plus(Duration.ofHours(1)).getEpochSecond() + 1));
        assertThat(item.get("requirements").l().getFirst().m()).containsOnlyKeys("key", "operator", "values");
    }

    @Test
    void leavesALiveClaimWithoutTtlAndWithoutAnInstanceIdOutOfTheIndex() {
        store.create(launching("default-abc12"));

        assertThat(rawItem("nodeclaim#default-abc12")).doesNotContainKeys("ttl", "instanceId", "expiresAt");
    }

    @Test
    void writesAnUnavailableOfferingWithItsTtl() {
        store.markUnavailable(new OfferingKey("m5.large", "us-east-1a", "spot"), T0.plusSeconds(180));

        Map<String, AttributeValue> item = rawItem("offering-until#" + T0.plusSeconds(180).toEpochMilli() + "#m5.large#us-east-1a#spot");

        assertThat(item.get("ttl").n()).isEqualTo(Long.toString(T0.getEpochSecond() + 181));
        assertThat(item.get("until").s()).isEqualTo(T0.plusSeconds(180).toString());
    }

    /**
     * A whole-market shortage marks thousands of offerings; the marks stay in the table until TTL deletes them, up to two
     * days later. A read from now on reads only the marks still running (the Query's ScannedCount is what DynamoDB bills),
     * where a read of every mark paid for all of them on every run and sweep.
     */
    @Test
    void aReadOfTheUnavailableOfferingsReadsOnlyTheMarksStillRunning() {
        List<Integer> scanned = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (DynamoDbClient counting = DynamoDbClient.builder().endpointOverride(DYNALITE.endpoint())
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("test", "test")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.addExecutionInterceptor(new software.amazon.awssdk.core.interceptor.ExecutionInterceptor() {
                    @Override
                    public void afterUnmarshalling(software.amazon.awssdk.core.interceptor.Context.AfterUnmarshalling context,
                                                   software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
                        if (context.response() instanceof software.amazon.awssdk.services.dynamodb.model.QueryResponse q) {
                            scanned.add(q.scannedCount());
                        }
                    }
                })).build()) {
            NodeClaimStore marks = new DynamoNodeClaimStore(counting, TABLE, "marks-" + UUID.randomUUID());
            for (int i = 0; i < 40; i++) {
                marks.markUnavailable(new OfferingKey("m5.large", "us-east-1" + (char) ('a' + i % 3), i < 20 ? "spot" : "on-demand"),
                        T0.plusSeconds(180 + i));
            }
            OfferingKey longer = new OfferingKey("c7i.48xlarge", "us-east-1a", "spot");
            marks.markUnavailable(longer, T0.plus(Duration.ofMinutes(30)));

            assertThat(marks.unavailableOfferings(T0)).hasSize(7);
            assertThat(scanned.getLast()).isEqualTo(41);
            assertThat(marks.unavailableOfferings(T0.plus(Duration.ofMinutes(10)))).containsExactly(longer);
            assertThat(scanned.getLast()).isEqualTo(1);
        }
    }

    @Test
    void keepsEachClustersRecordsApart() {
        NodeClaim mine = store.create(launching("default-abc12"));
        store.update(mine.launched("i-0shared", "m5.large", "us-east-1a", "spot", 0.035, T0));
        store.markUnavailable(new OfferingKey("m5.large", "us-east-1a", "spot"), T0.plusSeconds(180));
        store.setMarker("last-hint", T0);

        NodeClaimStore other = new DynamoNodeClaimStore(DYNALITE.dynamoDbClient(), TABLE, "other-" + UUID.randomUUID());

        assertThat(other.list(T0)).isEmpty();
        assertThat(other.get("default-abc12", T0)).isEmpty();
        assertThat(other.findByInstanceId("i-0shared", T0)).isEmpty();
        assertThat(other.unavailableOfferings(T0)).isEmpty();
        assertThat(other.marker("last-hint")).isEmpty();
        assertThat(other.create(launching("default-abc12")).version()).isEqualTo(1);
    }
}
