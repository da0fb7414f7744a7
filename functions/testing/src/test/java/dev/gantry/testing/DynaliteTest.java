package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** dynalite, started from the npm install this module's build made, answering the real DynamoDbClient. */
class DynaliteTest {
    @RegisterExtension
    static final DynaliteExtension DYNALITE = new DynaliteExtension();

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static void createClaimsTable(DynamoDbClient db, String table) {
        db.createTable(r -> r.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("instanceId").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"))
                .globalSecondaryIndexes(g -> g.indexName("byInstance")
                        .keySchema(k -> k.attributeName("instanceId").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .billingMode("PAY_PER_REQUEST"));
        // As against DynamoDB itself: a table answers only once ACTIVE. dynalite's --createTableMs 0 still flips the
        // status on a later tick, so a write straight after CreateTable can meet ResourceNotFound.
        db.waiter().waitUntilTableExists(r -> r.tableName(table));
    }

    @Test
    void tablesBecomeActiveWithoutTheCreationDelay() {
        DynamoDbClient db = DYNALITE.dynamoDbClient();
        createClaimsTable(db, "active");

        assertThat(db.describeTable(r -> r.tableName("active")).table().tableStatus()).isEqualTo(TableStatus.ACTIVE);
        assertThat(DYNALITE.endpoint().getHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void conditionalPutOnAStaleVersionFailsWithConditionalCheckFailed() {
        DynamoDbClient db = DYNALITE.dynamoDbClient();
        createClaimsTable(db, "versions");
        Map<String, AttributeValue> v1 = Map.of("pk", s("c1"), "sk", s("nodeclaim#a"), "version", AttributeValue.fromN("1"));
        db.putItem(r -> r.tableName("versions").item(v1).conditionExpression("attribute_not_exists(pk)"));

        assertThatThrownBy(() -> db.putItem(r -> r.tableName("versions").item(v1)
                .conditionExpression("attribute_not_exists(pk)")))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThatThrownBy(() -> db.updateItem(r -> r.tableName("versions")
                .key(Map.of("pk", s("c1"), "sk", s("nodeclaim#a")))
                .updateExpression("SET version = :next").conditionExpression("version = :expected")
                .expressionAttributeValues(Map.of(":next", AttributeValue.fromN("3"), ":expected", AttributeValue.fromN("2")))))
                .isInstanceOf(ConditionalCheckFailedException.class);
    }

    @Test
    void queryByTheInstanceIndexFindsTheClaim() {
        DynamoDbClient db = DYNALITE.dynamoDbClient();
        createClaimsTable(db, "gsi");
        db.putItem(r -> r.tableName("gsi").item(Map.of("pk", s("c1"), "sk", s("nodeclaim#a"), "instanceId", s("i-0a"))));
        db.putItem(r -> r.tableName("gsi").item(Map.of("pk", s("c1"), "sk", s("nodeclaim#b"), "instanceId", s("i-0b"))));

        var found = db.query(r -> r.tableName("gsi").indexName("byInstance")
                .keyConditionExpression("instanceId = :id").expressionAttributeValues(Map.of(":id", s("i-0b")))).items();

        assertThat(found).singleElement().satisfies(item -> assertThat(item.get("sk").s()).isEqualTo("nodeclaim#b"));
    }

    @Test
    void aMissingInstallIsReportedByName() {
        String old = System.getProperty(Dynalite.HOME_PROPERTY);
        System.setProperty(Dynalite.HOME_PROPERTY, "/nonexistent/dynalite");
        try {
            assertThatThrownBy(Dynalite::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("dynalite install is incomplete").hasMessageContaining("/nonexistent/dynalite");
        } finally {
            if (old == null) {
                System.clearProperty(Dynalite.HOME_PROPERTY);
            } else {
                System.setProperty(Dynalite.HOME_PROPERTY, old);
            }
        }
    }

    @Test
    void closeStopsTheServerProcess() {
        long started = System.nanoTime();
        Dynalite own = Dynalite.start();
        long startupMillis = (System.nanoTime() - started) / 1_000_000;
        System.out.println("dynalite start-up: " + startupMillis + " ms");
        var port = own.endpoint().getPort();
        own.close();

        try (var socket = new java.net.Socket()) {
            assertThatThrownBy(() -> socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 500))
                    .isInstanceOf(java.io.IOException.class);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
