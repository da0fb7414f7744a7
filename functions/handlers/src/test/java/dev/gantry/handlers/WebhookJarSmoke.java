package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.handlers.webhook.PathToken;
import dev.gantry.handlers.webhook.WebhookComposition;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * Runs from the webhook jar (plus this class): the SnapStart priming and one admission review end to end, with the
 * SQS call going to a closed port (so the send fails and the reply must still allow), then an invalid NodePool, which
 * the config reader in the jar must refuse. Arguments: the pod-create body, the invalid NodePool review's body.
 */
public final class WebhookJarSmoke {
    private WebhookJarSmoke() {
    }

    public static void main(String[] args) throws Exception {
        var sqs = SqsWorkQueue.client(Region.US_EAST_1, URI.create("http://127.0.0.1:9"),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")));
        PendingPodWebhookHandler h = new PendingPodWebhookHandler(new WebhookComposition.Parts("c",
                new SqsWorkQueue(sqs, "http://127.0.0.1:9/123456789012/hints.fifo"), PathToken.of("t0k")), Clock.systemUTC());
        h.beforeCheckpoint(null);
        APIGatewayV2HTTPEvent e = APIGatewayV2HTTPEvent.builder().withRawPath("/hook/t0k")
                .withBody(Files.readString(Path.of(args[0]))).build();
        var reply = h.handleRequest(e, null);
        if (reply.getStatusCode() != 200 || !reply.getBody().contains("\"allowed\":true")) {
            throw new IllegalStateException("unexpected reply " + reply.getStatusCode() + " " + reply.getBody());
        }
        if (args.length > 1) {
            var refused = h.handleRequest(APIGatewayV2HTTPEvent.builder().withRawPath("/hook/t0k")
                    .withBody(Files.readString(Path.of(args[1]))).build(), null);
            if (!refused.getBody().contains("\"allowed\":false") || !refused.getBody().contains("did you mean")) {
                throw new IllegalStateException("the invalid NodePool was not refused: " + refused.getBody());
            }
        }
        System.out.println("webhook jar smoke ok");
    }
}
