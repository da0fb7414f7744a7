package dev.gantry.aws.dynamodb;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The state table's schema, for emulators and tests. It matches the table the CDK app declares
 * ({@code infra/.../StateTable}): string keys {@code pk}/{@code sk}, on-demand billing, a global secondary index
 * {@value #INSTANCE_ID_INDEX} keyed by {@code instanceId} projecting all attributes, and TTL on {@code ttl}. TTL is
 * not switched on here (the emulators ignore it); the store never relies on deletion anyway.
 */
public final class DynamoTables {
    public static final String PARTITION_KEY = "pk";
    public static final String SORT_KEY = "sk";
    public static final String INSTANCE_ID_INDEX = "byInstanceId";
    public static final String INSTANCE_ID = "instanceId";
    public static final String TTL = "ttl";

    private DynamoTables() {}

    /** Creates the table and waits until it is active. Throws the SDK's ResourceInUseException if it exists. */
    public static void createTable(DynamoDbClient dynamo, String tableName) {
        dynamo.createTable(b -> b.tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(string(PARTITION_KEY), string(SORT_KEY), string(INSTANCE_ID))
                .keySchema(key(PARTITION_KEY, KeyType.HASH), key(SORT_KEY, KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName(INSTANCE_ID_INDEX)
                        .keySchema(key(INSTANCE_ID, KeyType.HASH))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .build()));
        dynamo.waiter().waitUntilTableExists(b -> b.tableName(tableName));
    }

    private static AttributeDefinition string(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
