package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.handlers.webhook.PathToken;
import dev.gantry.handlers.webhook.WebhookComposition;
import dev.gantry.testing.ElasticMq;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Warm handler time of the webhook against ElasticMQ: 200 warm-up calls, then 2,000 measured ones (pod create, each
 * sending a hint; the real clock, so dedup collapses some). Prints p50/p99; asserts only that every reply allowed.
 */
class WebhookWarmTimeBenchmarkTest {
    @Test
    void printsWarmHandlerTimePercentiles() {
        try (ElasticMq mq = ElasticMq.start()) {
            String url = mq.sqsClient().createQueue(r -> r.queueName("bench.fifo")
                    .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
            PendingPodWebhookHandler handler = new PendingPodWebhookHandler(new WebhookComposition.Parts("test-cluster",
                    new SqsWorkQueue(mq.sqsClient(), url), PathToken.of(WebhookEvents.TOKEN)), Clock.systemUTC());
            APIGatewayV2HTTPEvent create = WebhookEvents.load("pod-create.json");
            APIGatewayV2HTTPEvent dryRun = WebhookEvents.load("dry-run.json");
            for (int i = 0; i < 200; i++) {
                handler.handleRequest(create, null);
            }
            long[] send = measure(handler, create, 2000);
            long[] noSend = measure(handler, dryRun, 2000);
            System.out.printf("BENCH webhook warm, pod-create (SQS send): p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                    pct(send, 50), pct(send, 99), send[send.length - 1] / 1e6);
            System.out.printf("BENCH webhook warm, dry-run (no send):     p50 %.3f ms, p99 %.3f ms%n", pct(noSend, 50), pct(noSend, 99));
        }
    }

    private static long[] measure(PendingPodWebhookHandler handler, APIGatewayV2HTTPEvent event, int n) {
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            int status = handler.handleRequest(event, null).getStatusCode();
            nanos[i] = System.nanoTime() - t0;
            assertThat(status).isEqualTo(200);
        }
        Arrays.sort(nanos);
        return nanos;
    }

    private static double pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
    }
}
