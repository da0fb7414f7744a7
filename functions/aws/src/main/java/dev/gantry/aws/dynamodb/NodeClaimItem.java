package dev.gantry.aws.dynamodb;

import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@link NodeClaim} as one DynamoDB item, and back. Every field round-trips exactly: instants are ISO-8601 strings
 * (nanosecond precision), the price is a number written with {@link Double#toString}. Null fields are left out rather
 * than stored as NULL, so that a claim without an instance id is simply absent from the {@code byInstanceId} index
 * (an index key may not be empty or NULL).
 *
 * <p>{@code ttl} is {@code expiresAt} in epoch seconds, rounded <em>up</em>: DynamoDB must never delete a record that
 * readers still consider live. Readers decide expiry from the exact {@code expiresAt}, not from {@code ttl}.
 */
final class NodeClaimItem {
    static final String NAME = "name";
    static final String VERSION = "version";

    private NodeClaimItem() {}

    static Map<String, AttributeValue> encode(String partition, NodeClaim c) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(DynamoTables.PARTITION_KEY, s(partition));
        item.put(DynamoTables.SORT_KEY, s(StoreKeys.claim(c.name())));
        item.put(NAME, s(c.name()));
        item.put(VERSION, n(Long.toString(c.version())));
        item.put("nodePool", s(c.nodePool()));
        item.put("state", s(c.state().name()));
        item.put("requirements", AttributeValue.fromL(c.requirements().stream().map(NodeClaimItem::requirement).toList()));
        item.put("instanceTypeOptions", strings(c.instanceTypeOptions()));
        item.put("pods", strings(c.pods()));
        item.put("pricePerHour", n(Double.toString(c.pricePerHour())));
        putString(item, "nodeClassHash", c.nodeClassHash());
        putString(item, DynamoTables.INSTANCE_ID, c.instanceId());
        putString(item, "instanceType", c.instanceType());
        putString(item, "zone", c.zone());
        putString(item, "capacityType", c.capacityType());
        putString(item, "nodeName", c.nodeName());
        putString(item, "deletionReason", c.deletionReason());
        putInstant(item, "createdAt", c.createdAt());
        putInstant(item, "launchedAt", c.launchedAt());
        putInstant(item, "registeredAt", c.registeredAt());
        putInstant(item, "initializedAt", c.initializedAt());
        putInstant(item, "deletionRequestedAt", c.deletionRequestedAt());
        putInstant(item, "terminatedAt", c.terminatedAt());
        putInstant(item, "expiresAt", c.expiresAt());
        putInstant(item, "progressAt", c.progressAt());
        putInstant(item, "notReadySince", c.notReadySince());
        item.put("drainStep", n(Integer.toString(c.drainStep())));
        putInstant(item, "lastPodEventAt", c.lastPodEventAt());
        putString(item, "podSet", c.podSet());
        putString(item, "launchToken", c.launchToken());
        if (c.fromConsolidation()) {
            item.put("fromConsolidation", AttributeValue.fromBool(true));
        }
        if (c.consolidation() != null) {
            item.put("consolidation", mark(c.consolidation()));
        }
        if (c.launchParameters() != null) {
            item.put("launchParameters", parameters(c.launchParameters()));
        }
        if (c.drift() != null) {
            item.put("drift", drift(c.drift()));
        }
        if (c.expiresAt() != null) {
            item.put(DynamoTables.TTL, ttl(c.expiresAt()));
        }
        return item;
    }

    static NodeClaim decode(Map<String, AttributeValue> item) {
        return new NodeClaim(string(item, NAME), Long.parseLong(item.get(VERSION).n()), string(item, "nodePool"),
                string(item, "nodeClassHash"), NodeClaimState.valueOf(string(item, "state")),
                item.get("requirements").l().stream().map(r -> requirement(r.m())).toList(),
                strings(item, "instanceTypeOptions"), strings(item, "pods"), string(item, DynamoTables.INSTANCE_ID),
                string(item, "instanceType"), string(item, "zone"), string(item, "capacityType"),
                Double.parseDouble(item.get("pricePerHour").n()), string(item, "nodeName"),
                instant(item, "createdAt"), instant(item, "launchedAt"), instant(item, "registeredAt"),
                instant(item, "initializedAt"), instant(item, "deletionRequestedAt"), instant(item, "terminatedAt"),
                string(item, "deletionReason"), instant(item, "expiresAt"),
                // Items written before the termination flow kept its step have none: step 0 accepts any message.
                item.containsKey("drainStep") ? Integer.parseInt(item.get("drainStep").n()) : 0, instant(item, "progressAt"),
                instant(item, "notReadySince"), instant(item, "lastPodEventAt"), string(item, "podSet"),
                item.containsKey("fromConsolidation") && Boolean.TRUE.equals(item.get("fromConsolidation").bool()),
                item.containsKey("consolidation") ? mark(item.get("consolidation").m()) : null, string(item, "launchToken"),
                item.containsKey("launchParameters") ? parameters(item.get("launchParameters").m()) : null,
                // Items written before claims carried hashes have none: the sweep stamps them, never drifts them.
                item.containsKey("drift") ? drift(item.get("drift").m()) : null);
    }

    /** The drift stamp: the hashes with their versions (Karpenter's annotations) and the drift reason, if any. */
    private static AttributeValue drift(DriftStamp d) {
        Map<String, AttributeValue> v = new HashMap<>();
        v.put("nodePoolHash", s(d.nodePoolHash()));
        v.put("nodePoolHashVersion", s(d.nodePoolHashVersion()));
        v.put("nodeClassHash", s(d.nodeClassHash()));
        v.put("nodeClassHashVersion", s(d.nodeClassHashVersion()));
        putString(v, "drifted", d.drifted());
        putInstant(v, "driftedAt", d.driftedAt());
        return AttributeValue.fromM(v);
    }

    private static DriftStamp drift(Map<String, AttributeValue> v) {
        return new DriftStamp(string(v, "nodePoolHash"), string(v, "nodePoolHashVersion"), string(v, "nodeClassHash"),
                string(v, "nodeClassHashVersion"), string(v, "drifted"), instant(v, "driftedAt"));
    }

    /** What a launch sends, as one map: its capacity type, its templates (each with its overrides) and tags. */
    private static AttributeValue parameters(LaunchParameters p) {
        Map<String, AttributeValue> v = new HashMap<>();
        v.put("capacityType", s(p.capacityType()));
        v.put("templates", AttributeValue.fromL(p.templates().stream().map(t -> {
            Map<String, AttributeValue> m = new HashMap<>();
            m.put("name", s(t.name()));
            putString(m, "imageId", t.imageId());
            m.put("maxPods", n(Integer.toString(t.maxPods())));
            m.put("overrides", AttributeValue.fromL(t.overrides().stream().map(o -> {
                Map<String, AttributeValue> x = new HashMap<>();
                x.put("instanceType", s(o.instanceType()));
                x.put("zone", s(o.zone()));
                putString(x, "subnetId", o.subnetId());
                return AttributeValue.fromM(x);
            }).toList()));
            return AttributeValue.fromM(m);
        }).toList()));
        Map<String, AttributeValue> tags = new HashMap<>();
        p.tags().forEach((k, x) -> tags.put(k, s(x)));
        v.put("tags", AttributeValue.fromM(tags));
        return AttributeValue.fromM(v);
    }

    private static LaunchParameters parameters(Map<String, AttributeValue> v) {
        List<LaunchParameters.Template> templates = v.get("templates").l().stream().map(a -> {
            Map<String, AttributeValue> m = a.m();
            return new LaunchParameters.Template(string(m, "name"), string(m, "imageId"), Integer.parseInt(m.get("maxPods").n()),
                    m.get("overrides").l().stream().map(o -> new LaunchParameters.Override(string(o.m(), "instanceType"),
                            string(o.m(), "zone"), string(o.m(), "subnetId"))).toList());
        }).toList();
        Map<String, String> tags = new java.util.TreeMap<>();
        if (v.containsKey("tags")) {
            v.get("tags").m().forEach((k, x) -> tags.put(k, x.s()));
        }
        return new LaunchParameters(string(v, "capacityType"), templates, tags);
    }

    private static AttributeValue mark(ConsolidationMark m) {
        Map<String, AttributeValue> v = new HashMap<>();
        v.put("command", s(m.command()));
        v.put("leader", s(m.leader()));
        v.put("phase", s(m.phase().name()));
        v.put("step", n(Integer.toString(m.step())));
        v.put("candidates", strings(m.candidates()));
        v.put("nodes", strings(m.nodes()));
        v.put("replacements", strings(m.replacements()));
        putString(v, "reason", m.reason());
        v.put("priceBefore", n(Double.toString(m.priceBefore())));
        v.put("plannedPrice", n(Double.toString(m.plannedPrice())));
        putInstant(v, "validateAt", m.validateAt());
        putInstant(v, "deadline", m.deadline());
        putInstant(v, "updatedAt", m.updatedAt());
        return AttributeValue.fromM(v);
    }

    private static ConsolidationMark mark(Map<String, AttributeValue> v) {
        return new ConsolidationMark(string(v, "command"), string(v, "leader"),
                ConsolidationMark.Phase.valueOf(string(v, "phase")), Integer.parseInt(v.get("step").n()),
                strings(v, "candidates"), strings(v, "nodes"), strings(v, "replacements"), string(v, "reason"),
                Double.parseDouble(v.get("priceBefore").n()), Double.parseDouble(v.get("plannedPrice").n()),
                instant(v, "validateAt"), instant(v, "deadline"), instant(v, "updatedAt"));
    }

    /** Epoch seconds, rounded up, as DynamoDB TTL wants them. */
    static AttributeValue ttl(Instant at) {
        long seconds = at.getEpochSecond() + (at.getNano() > 0 ? 1 : 0);
        return n(Long.toString(seconds));
    }

    private static AttributeValue requirement(Requirement r) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("key", s(r.key()));
        m.put("operator", s(r.operator().name()));
        m.put("values", strings(r.values()));
        if (r.minValues() != null) {
            m.put("minValues", n(Integer.toString(r.minValues())));
        }
        return AttributeValue.fromM(m);
    }

    private static Requirement requirement(Map<String, AttributeValue> m) {
        AttributeValue min = m.get("minValues");
        return new Requirement(m.get("key").s(), Operator.parse(m.get("operator").s()),
                m.get("values").l().stream().map(AttributeValue::s).toList(),
                min == null ? null : Integer.valueOf(min.n()));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    // A list of strings, not a string set: sets cannot be empty and do not keep order.
    private static AttributeValue strings(List<String> values) {
        return AttributeValue.fromL(values.stream().map(AttributeValue::fromS).toList());
    }

    private static List<String> strings(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? List.of() : v.l().stream().map(AttributeValue::s).toList();
    }

    private static void putString(Map<String, AttributeValue> item, String name, String value) {
        if (value != null) {
            item.put(name, s(value));
        }
    }

    private static void putInstant(Map<String, AttributeValue> item, String name, Instant value) {
        if (value != null) {
            item.put(name, s(value.toString()));
        }
    }

    static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    static Instant instant(Map<String, AttributeValue> item, String name) {
        String v = string(item, name);
        return v == null ? null : Instant.parse(v);
    }
}
