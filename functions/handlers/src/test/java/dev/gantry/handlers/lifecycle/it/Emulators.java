package dev.gantry.handlers.lifecycle.it;

import dev.gantry.aws.dynamodb.DynamoTables;
import dev.gantry.testing.Dynalite;
import dev.gantry.testing.ElasticMq;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * dynalite (one table) and ElasticMQ, started once for all the lifecycle integration test classes (they cost about
 * 3 s together) and stopped when JUnit closes its root store. Tests keep apart by cluster partition and queue names.
 */
final class Emulators implements AutoCloseable {
    static final String TABLE = "gantry-lifecycle-it";

    final Dynalite dynalite;
    final ElasticMq sqs;

    private Emulators() {
        dynalite = Dynalite.start();
        DynamoTables.createTable(dynalite.dynamoDbClient(), TABLE);
        sqs = ElasticMq.start();
    }

    static Emulators shared(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Emulators.class, k -> new Emulators(), Emulators.class);
    }

    @Override
    public void close() {
        sqs.close();
        dynalite.close();
    }
}
