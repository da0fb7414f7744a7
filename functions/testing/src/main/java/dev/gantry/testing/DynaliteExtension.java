package dev.gantry.testing;

import java.net.URI;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * One {@link Dynalite} server per test class, started before the first test and stopped after the last:
 * <pre>{@code
 * @RegisterExtension static final DynaliteExtension DYNALITE = new DynaliteExtension();
 * ... DYNALITE.dynamoDbClient().createTable(...)
 * }</pre>
 * The field must be static: an instance field would not see the {@code BeforeAll} callback.
 */
public final class DynaliteExtension implements BeforeAllCallback, AfterAllCallback {
    private Dynalite server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = Dynalite.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** The running server. @throws IllegalStateException outside the test class's lifetime */
    public Dynalite server() {
        if (server == null) {
            throw new IllegalStateException("dynalite is not running: register the extension on a static field");
        }
        return server;
    }

    public URI endpoint() {
        return server().endpoint();
    }

    public DynamoDbClient dynamoDbClient() {
        return server().dynamoDbClient();
    }
}
