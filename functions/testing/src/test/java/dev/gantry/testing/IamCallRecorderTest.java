package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.iam.IamCall;
import dev.gantry.testing.iam.IamRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The emulators' calls as IAM sees them: caller from the signature, the table, index or queue ARN, batch actions. */
class IamCallRecorderTest {
    @RegisterExtension
    static final DynaliteExtension DYNALITE = new DynaliteExtension();
    private static final StaticCredentialsProvider SWEEP =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("sweep", "secret"));

    @Test
    void dynamoDbCallsAreCheckedOnTheTableOrTheIndexTheyName() {
        IamCallRecorder recorder = new IamCallRecorder();
        try (DynamoDbClient db = DynamoDbClient.builder().endpointOverride(DYNALITE.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(SWEEP).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder)).build()) {
            db.createTable(r -> r.tableName("claims").billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH")));
            db.putItem(r -> r.tableName("claims").item(Map.of("pk", AttributeValue.fromS("a"))));
            db.query(r -> r.tableName("claims").keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("a"))));
        }
        String table = "arn:aws:dynamodb:us-east-1:123456789012:table/claims";
        assertThat(recorder.calls()).extracting(IamCall::principal).containsOnly("sweep");
        assertThat(recorder.calls()).extracting(IamCall::call)
                .containsExactly("dynamodb:CreateTable", "dynamodb:PutItem", "dynamodb:Query");
        assertThat(recorder.calls().get(1).authorizations()).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo("dynamodb:PutItem");
            assertThat(a.resource()).isEqualTo(table);
            assertThat(a.values("aws:RequestedRegion")).containsExactly("us-east-1");
        });
    }

    @Test
    void sqsCallsAreCheckedOnTheQueueAndBatchesAsTheirSingleAction() {
        IamCallRecorder recorder = new IamCallRecorder();
        try (ElasticMq mq = ElasticMq.start();
             SqsClient sqs = SqsClient.builder().endpointOverride(mq.endpoint()).region(Region.US_EAST_1)
                     .credentialsProvider(SWEEP).httpClient(UrlConnectionHttpClient.create())
                     .overrideConfiguration(c -> c.addExecutionInterceptor(recorder)).build()) {
            String url = sqs.createQueue(r -> r.queueName("termination-1")).queueUrl();
            sqs.sendMessageBatch(r -> r.queueUrl(url).entries(e -> e.id("1").messageBody("x")));
            String missing = url.replace("termination-1", "missing");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> sqs.sendMessage(r -> r.queueUrl(missing).messageBody("x")))
                    .isInstanceOf(software.amazon.awssdk.services.sqs.model.SqsException.class);
        }
        assertThat(recorder.calls()).as("a call the emulator refused is not kept").hasSize(2);
        IamCall batch = recorder.calls().getLast();
        assertThat(batch.call()).isEqualTo("sqs:SendMessageBatch");
        assertThat(batch.authorizations()).extracting(IamRequest::action, IamRequest::resource).containsExactly(
                org.assertj.core.groups.Tuple.tuple("sqs:SendMessage", "arn:aws:sqs:us-east-1:123456789012:termination-1"));
        assertThat(recorder.calls().getFirst().authorizations()).extracting(IamRequest::resource)
                .isEqualTo(List.of("arn:aws:sqs:us-east-1:123456789012:termination-1"));
    }
}
