package dev.gantry.infra;

import dev.gantry.config.deployment.QueueSettings;
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
 * A queue built from its {@link QueueSettings}, with its dead-letter queue and an alarm that fires on the first dead
 * letter. The construct id is the settings' name plus {@code Queue} ({@code ProvisioningQueue}).
 *
 * <p>Encryption is SQS-managed SSE, not KMS, on purpose: EventBridge can only deliver to a KMS-encrypted queue if
 * the key policy lets {@code events.amazonaws.com} use the key, which rules out the AWS-managed {@code aws/sqs}
 * key and means a customer-managed key (monthly cost, a key policy to get right) for no gain in who can read the
 * messages: the queue policy and IAM already decide that.
 */
public final class WorkQueue extends Construct {
    private final QueueSettings settings;
    private final Queue queue;
    private final Queue deadLetters;
    private final Alarm deadLetterAlarm;

    public WorkQueue(Construct scope, QueueSettings s) {
        super(scope, constructId(s));
        this.settings = s;
        deadLetters = Queue.Builder.create(this, "DeadLetters")
                .fifo(s.fifo() ? true : null)
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(seconds(s.deadLetterRetention()))
                .build();
        queue = Queue.Builder.create(this, "Queue")
                .fifo(s.fifo() ? true : null)
                // Senders set MessageDeduplicationId explicitly (reason + time bucket), never the body hash.
                .contentBasedDeduplication(s.fifo() ? false : null)
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .visibilityTimeout(seconds(s.visibility()))
                .retentionPeriod(seconds(s.retention()))
                .deliveryDelay(seconds(s.deliveryDelay()))
                .deadLetterQueue(DeadLetterQueue.builder().queue(deadLetters).maxReceiveCount(s.maxReceiveCount())
                        .build())
                .build();
        deadLetterAlarm = Alarm.Builder.create(this, "DeadLettersAlarm")
                .alarmDescription("Gantry " + constructId(s) + ": a message was dead-lettered after "
                        + s.maxReceiveCount() + " failed receives; inspect it, fix the cause, then redrive")
                .metric(deadLetters.metricApproximateNumberOfMessagesVisible()
                        .with(MetricOptions.builder().statistic("Maximum").period(Duration.minutes(1)).build()))
                .threshold(0)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                .evaluationPeriods(1)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
    }

    static String constructId(QueueSettings s) {
        return Character.toUpperCase(s.name().charAt(0)) + s.name().substring(1) + "Queue";
    }

    static Duration seconds(java.time.Duration d) {
        return Duration.seconds(d.toSeconds());
    }

    public QueueSettings settings() {
        return settings;
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
