package dev.gantry.aws.localstack;

import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.dynamodb.DynamoTables;
import dev.gantry.aws.dynamodb.NodeClaimStoreContract;
import dev.gantry.core.lifecycle.NodeClaimStore;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.localstack.LocalStackContainer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The store contract against LocalStack's DynamoDB, where Docker exists; skipped otherwise. */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackNodeClaimStoreTest extends NodeClaimStoreContract {
    private static final String TABLE = "gantry-state";

    @Container
    static final LocalStackContainer LOCALSTACK = LocalStackStack.container();

    private static DynamoDbClient dynamo;

    @BeforeAll
    static void createTable() {
        dynamo = DynamoNodeClaimStore.client(LocalStackStack.region(LOCALSTACK), LOCALSTACK.getEndpoint(),
                LocalStackStack.credentials(LOCALSTACK));
        DynamoTables.createTable(dynamo, TABLE);
    }

    @AfterAll
    static void closeClient() {
        dynamo.close();
    }

    @Override
    protected NodeClaimStore newStore() {
        return new DynamoNodeClaimStore(dynamo, TABLE, "cluster-" + UUID.randomUUID());
    }
}
