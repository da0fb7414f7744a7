package dev.gantry.aws.localstack;

import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.aws.sqs.SqsWorkQueueContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.localstack.LocalStackContainer;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The queue contract against LocalStack's SQS, where Docker exists; skipped otherwise. */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackSqsWorkQueueTest extends SqsWorkQueueContract {
    @Container
    static final LocalStackContainer LOCALSTACK = LocalStackStack.container();

    private static SqsClient sqs;

    @BeforeAll
    static void connect() {
        sqs = SqsWorkQueue.client(LocalStackStack.region(LOCALSTACK), LOCALSTACK.getEndpoint(),
                LocalStackStack.credentials(LOCALSTACK));
    }

    @AfterAll
    static void closeClient() {
        sqs.close();
    }

    @Override
    protected SqsClient sqs() {
        return sqs;
    }
}
