package dev.gantry.infra;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.targets.SqsQueue;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * The EventBridge rules that feed the interruption queue: every EC2 and AWS Health event that announces an instance
 * is about to go away (or just went). Each rule is a separate target so the queue policy names each rule ARN as the
 * only allowed {@code aws:SourceArn}.
 */
public final class InterruptionRules extends Construct {

    /** One rule: a construct id and its exact pattern. */
    public record RuleSpec(String id, String source, String detailType, Map<String, Object> detail) {
        EventPattern pattern() {
            EventPattern.Builder b = EventPattern.builder().source(List.of(source)).detailType(List.of(detailType));
            return detail.isEmpty() ? b.build() : b.detail(detail).build();
        }
    }

    /** The events the interruption handler understands; keep in step with its dispatch on detail-type. */
    public static final List<RuleSpec> RULES = List.of(
            new RuleSpec("SpotInterruption", "aws.ec2", "EC2 Spot Instance Interruption Warning", Map.of()),
            new RuleSpec("RebalanceRecommendation", "aws.ec2", "EC2 Instance Rebalance Recommendation", Map.of()),
            new RuleSpec("InstanceStateChange", "aws.ec2", "EC2 Instance State-change Notification", Map.of()),
            new RuleSpec("ScheduledChange", "aws.health", "AWS Health Event",
                    Map.of("service", List.of("EC2"), "eventTypeCategory", List.of("scheduledChange"))),
            new RuleSpec("CapacityReservationInterruption", "aws.ec2",
                    "EC2 Capacity Reservation Instance Interruption Warning", Map.of()));

    public InterruptionRules(Construct scope, String id, IQueue target) {
        super(scope, id);
        for (RuleSpec spec : RULES) {
            Rule.Builder.create(this, spec.id())
                    .description("Gantry: " + spec.detailType() + " -> interruption queue")
                    .eventPattern(spec.pattern())
                    .targets(List.of(new SqsQueue(target)))
                    .build();
        }
    }
}
