package dev.gantry.aws.sqs;

import dev.gantry.testing.ElasticMq;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The queue contract against in-process ElasticMQ, one server for the class. */
class ElasticMqSqsWorkQueueTest extends SqsWorkQueueContract {
    private static ElasticMq elasticMq;

    @BeforeAll
    static void start() {
        elasticMq = ElasticMq.start();
    }

    @AfterAll
    static void stop() {
        elasticMq.close();
    }

    @Override
    protected SqsClient sqs() {
        return elasticMq.sqsClient();
    }
}
