package dev.gantry.infra;

import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * A queue with its dead-letter queue and an alarm that fires on the first dead letter.
 *
 * <p>Encryption is SQS-managed SSE, not KMS, on purpose: EventBridge can only deliver to a KMS-encrypted queue if
 * the key policy lets {@code events.amazonaws.com} use the key, which rules out the AWS-managed {@code aws/sqs}
 * key and means a customer-managed key (monthly cost, a key policy to get right) for no gain in who can read the
 * messages: the queue policy and IAM already decide that.
 */
public final class WorkQueue extends Construct {
    /** Receives before a message is dead-lettered: enough to ride out throttling, few enough to surface a bug. */
    static final int MAX_RECEIVE_COUNT = 5;

    private final Queue queue;
    private final Queue deadLetters;
    private final Alarm deadLetterAlarm;

    /**
     * @param visibility at least 6x the consuming function's timeout, as Lambda's SQS integration recommends
     * @param retention  how long an unprocessed message is worth keeping
     * @param delay      queue-level delivery delay (the only delay a FIFO queue supports)
     */
    public WorkQueue(Construct scope, String id, boolean fifo, Duration visibility, Duration retention,
                     Duration delay) {
        super(scope, id);
        deadLetters = Queue.Builder.create(this, "DeadLetters")
                .fifo(fifo ? true : null)
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(Duration.days(14))
                .build();
        queue = Queue.Builder.create(this, "Queue")
                .fifo(fifo ? true : null)
                // Senders set MessageDeduplicationId explicitly (a pod's uid + resourceVersion), never the body hash.
                .contentBasedDeduplication(fifo ? false : null)
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .visibilityTimeout(visibility)
                .retentionPeriod(retention)
                .deliveryDelay(delay)
                .deadLetterQueue(DeadLetterQueue.builder().queue(deadLetters).maxReceiveCount(MAX_RECEIVE_COUNT).build())
                .build();
        deadLetterAlarm = Alarm.Builder.create(this, "DeadLettersAlarm")
                .alarmDescription("Gantry " + id + ": a message was dead-lettered after " + MAX_RECEIVE_COUNT
                        + " failed receives; inspect it, fix the cause, then redrive")
                .metric(deadLetters.metricApproximateNumberOfMessagesVisible()
                        .with(MetricOptions.builder().statistic("Maximum").period(Duration.minutes(1)).build()))
                .threshold(0)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                .evaluationPeriods(1)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
    }

    public Queue queue() {
        return queue;
    }

    public Queue deadLetters() {
        return deadLetters;
    }

    public Alarm deadLetterAlarm() {
        return deadLetterAlarm;
    }
}
