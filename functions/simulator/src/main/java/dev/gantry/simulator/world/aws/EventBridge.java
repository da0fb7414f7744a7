package dev.gantry.simulator.world.aws;

import dev.gantry.simulator.bill.SelfUsage;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.core.interruption.EventEnvelope;
import java.io.IOException;
import java.time.Instant;
import java.util.UUID;

/**
 * EventBridge events as EC2 and AWS Health send them to the interruption queue: built in the exact shape of the
 * samples in {@code events/eventbridge/}, or taken from a user's file with the instance id swapped in. And the reverse,
 * JSON to the {@link EventEnvelope} the interruption service reads, as the interruption handler lifts it.
 */
public final class EventBridge {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final dev.gantry.config.codec.EventBridgeCodec CODEC = new dev.gantry.config.codec.EventBridgeCodec(JSON);

    private final String account = "123456789012";
    private final String region;
    private long seq;
    private SelfUsage usage = new SelfUsage();

    public EventBridge(String region) {
        this.region = region;
    }

    /** Counts every event it delivers into {@code u} (all are AWS service events on the default bus: free). */
    public void meter(SelfUsage u) {
        this.usage = u;
    }

    public String spotWarning(SimulatedInstance i, Instant at) {
        ObjectNode detail = JSON.createObjectNode().put("instance-id", i.id()).put("instance-action", "terminate");
        return event("EC2 Spot Instance Interruption Warning", "aws.ec2", at, instanceArn(i), detail);
    }

    public String rebalance(SimulatedInstance i, Instant at) {
        ObjectNode detail = JSON.createObjectNode().put("instance-id", i.id());
        return event("EC2 Instance Rebalance Recommendation", "aws.ec2", at, instanceArn(i), detail);
    }

    /** As {@code events/eventbridge/capacity-reservation-interruption.json}: the instance ends at {@code terminationTime}. */
    public String capacityReservationInterruption(SimulatedInstance i, Instant at, Instant terminationTime) {
        ObjectNode detail = JSON.createObjectNode().put("instance-id", i.id()).put("instance-action", "terminate")
                .put("instance-termination-time", terminationTime.toString());
        return event("EC2 Capacity Reservation Instance Interruption Warning", "aws.ec2", at, instanceArn(i), detail);
    }

    public String stateChange(SimulatedInstance i, String state, Instant at) {
        ObjectNode detail = JSON.createObjectNode().put("instance-id", i.id()).put("state", state);
        return event("EC2 Instance State-change Notification", "aws.ec2", at,
                "arn:aws:ec2:" + region + ":" + account + ":instance/" + i.id(), detail);
    }

    public String healthRetirement(SimulatedInstance i, Instant at) {
        ObjectNode detail = JSON.createObjectNode().put("service", "EC2")
                .put("eventTypeCode", "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED").put("eventTypeCategory", "scheduledChange")
                .put("eventScopeCode", "ACCOUNT_SPECIFIC").put("statusCode", "upcoming").put("eventRegion", region);
        detail.putArray("affectedEntities").addObject().put("entityValue", i.id()).put("status", "UNKNOWN");
        return event("AWS Health Event", "aws.health", at, i.id(), detail);
    }

    /**
     * A user's raw event with {@code instance}'s id in place of every instance id it names (detail.instance-id,
     * resources ARNs, affected entities) and the time set to now.
     */
    public String rewrite(String rawJson, SimulatedInstance i, Instant at) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(rawJson);
            String old = root.path("detail").path("instance-id").asText(null);
            if (old == null) {
                JsonNode first = root.path("detail").path("affectedEntities").path(0).path("entityValue");
                old = first.isMissingNode() ? null : first.asText();
            }
            String text = root.put("time", at.toString()).put("id", nextId()).toString();
            usage.awsEvent(root.path("detail-type").asText("(none)"));
            return old == null ? text : text.replace(old, i.id());
        } catch (IOException | ClassCastException e) {
            throw new IllegalArgumentException("not an EventBridge event: " + e.getMessage());
        }
    }

    private String event(String detailType, String source, Instant at, String resource, ObjectNode detail) {
        ObjectNode o = JSON.createObjectNode();
        o.put("version", "0");
        o.put("id", nextId());
        o.put("detail-type", detailType);
        o.put("source", source);
        o.put("account", account);
        o.put("time", at.toString());
        o.put("region", region);
        o.putArray("resources").add(resource);
        o.set("detail", detail);
        usage.awsEvent(detailType);
        return o.toString();
    }

    private String instanceArn(SimulatedInstance i) {
        return "arn:aws:ec2:" + i.zone() + ":" + account + ":instance/" + i.id();
    }

    private String nextId() {
        return new UUID(0x5157L, seq++).toString();
    }

    /** The fields the interruption service reads, lifted out of the JSON (scalar detail fields only). */
    /** JSON to the envelope the interruption service reads, with the codec the interruption handler uses. */
    public static EventEnvelope envelope(String json) {
        return CODEC.read(json);
    }

    /** The detail-type of an event, for the timeline. */
    public static String detailType(String json) {
        try {
            return JSON.readTree(json).path("detail-type").asText();
        } catch (IOException e) {
            return "?";
        }
    }
}
