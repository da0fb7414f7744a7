package dev.gantry.testing;

import java.net.URI;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * An in-process ElasticMQ SQS server on a free loopback port, in memory.
 *
 * <p>It speaks the SQS JSON protocol the SDK v2 uses, with FIFO queues (MessageGroupId, content-based and explicit
 * deduplication), redrive to a dead-letter queue, visibility changes and batches. Start-up takes about 2 s, so share
 * one server per test class (a static field with {@code @BeforeAll}/{@code @AfterAll}) and give each test its own
 * queue names.
 */
public final class ElasticMq implements AutoCloseable {
    private final SQSRestServer server;
    private final URI endpoint;
    private final SqsClient client;

    private ElasticMq(SQSRestServer server, int port) {
        this.server = server;
        this.endpoint = URI.create("http://127.0.0.1:" + port);
        this.client = SqsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /** Starts a fresh server with no queues and waits until it is bound. */
    public static ElasticMq start() {
        SQSRestServer server = SQSRestServerBuilder
                .withInterface("127.0.0.1")
                .withDynamicPort()
                .withAWSRegion("us-east-1")
                .start();
        int port = server.waitUntilStarted().localAddress().getPort();
        return new ElasticMq(server, port);
    }

    /** The HTTP endpoint to pass to {@code endpointOverride}. */
    public URI endpoint() {
        return endpoint;
    }

    /** A client bound to this server (region us-east-1, dummy credentials); closed with the server. */
    public SqsClient sqsClient() {
        return client;
    }

    /** Stops the server; all queues and messages are lost. */
    @Override
    public void close() {
        client.close();
        server.stopAndWait();
    }
}
