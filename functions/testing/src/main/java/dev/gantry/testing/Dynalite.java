package dev.gantry.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A dynalite DynamoDB emulator running as a child {@code node} process on a free loopback port, in memory.
 *
 * <p>The npm package is installed by this module's Maven build ({@code functions/testing/node_modules}); it is found by
 * walking up from the working directory, or from the system property {@value #HOME_PROPERTY} (the directory that
 * holds dynalite's {@code cli.js}). Tables are created with no delay ({@code --createTableMs 0}), but, as in DynamoDB,
 * a table only answers once ACTIVE, a tick after CreateTable returns: wait for it (DynamoTables.createTable does).
 *
 * <p>Start-up costs about half a second, so share one server per test class and give each test its own table name:
 * <pre>{@code
 * static Dynalite dynalite;
 * @BeforeAll static void start() { dynalite = Dynalite.start(); }
 * @AfterAll static void stop() { dynalite.close(); }
 * }</pre>
 * or register {@link DynaliteExtension} as a static field. dynalite has no transactions and no TTL deletion.
 */
public final class Dynalite implements AutoCloseable {
    /** System property naming dynalite's package directory, to override the search from the working directory. */
    public static final String HOME_PROPERTY = "gantry.dynalite.home";
    private static final String INSTALL = "functions/testing/node_modules/dynalite";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final URI endpoint;
    private final DynamoDbClient client;

    private Dynalite(Process process, int port) {
        this.process = process;
        this.endpoint = URI.create("http://127.0.0.1:" + port);
        this.client = DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /**
     * Starts a fresh, empty emulator and waits until it accepts connections.
     *
     * @throws IllegalStateException if node or the dynalite install is missing, or the server did not listen in time
     */
    public static Dynalite start() {
        Path cli = home().resolve("cli.js");
        int port = LoopbackPorts.free();
        try {
            Path log = Files.createTempFile("dynalite-", ".log");
            log.toFile().deleteOnExit();
            Process process = new ProcessBuilder(List.of("node", cli.toString(), "--host", "127.0.0.1",
                    "--port", Integer.toString(port), "--createTableMs", "0", "--deleteTableMs", "0",
                    "--updateTableMs", "0"))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!LoopbackPorts.awaitListening(port, START_TIMEOUT, process.toHandle())) {
                process.destroyForcibly();
                throw new IllegalStateException("dynalite did not listen on port " + port + " within "
                        + START_TIMEOUT + "; its output:\n" + Files.readString(log));
            }
            return new Dynalite(process, port);
        } catch (IOException e) {
            throw new IllegalStateException("could not run `node " + cli + "`: is Node.js 20+ on the PATH?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting dynalite", e);
        }
    }

    /** The directory holding dynalite's cli.js: the system property if set, else the install found upwards. */
    static Path home() {
        String override = System.getProperty(HOME_PROPERTY);
        Path home = override != null
                ? Path.of(override)
                : RepoFiles.findUp(INSTALL).orElseThrow(() -> new IllegalStateException(
                        "dynalite is not installed: no " + INSTALL + " above " + Path.of("").toAbsolutePath()
                                + ". Build the gantry-testing module (it runs `npm ci` in functions/testing) or set -D"
                                + HOME_PROPERTY + "=<dir with cli.js>."));
        if (!Files.isRegularFile(home.resolve("cli.js"))) {
            throw new IllegalStateException("dynalite install is incomplete: no cli.js in " + home
                    + ". Delete functions/testing/node_modules and rebuild gantry-testing.");
        }
        return home;
    }

    /** The HTTP endpoint to pass to {@code endpointOverride}. */
    public URI endpoint() {
        return endpoint;
    }

    /** A client bound to this server (region us-east-1, dummy credentials); closed with the server. */
    public DynamoDbClient dynamoDbClient() {
        return client;
    }

    /** Stops the server and its child processes; all tables are lost. */
    @Override
    public void close() {
        client.close();
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
