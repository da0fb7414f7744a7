package dev.gantry.cli.plan;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.cli.prices.PriceNote;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.headroom.BufferPods;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders a {@link SchedulingResult} as the JSON document {@code gantry plan --output json} promises, or as a table. */
public final class PlanReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final SchedulingResult result;
    private final long solveMillis;
    private final List<PriceNote> prices;

    public PlanReport(SchedulingResult result, long solveMillis) {
        this(result, solveMillis, List.of());
    }

    /** {@code prices}: where each region's prices came from, said in both outputs (borrowed prices as a warning). */
    public PlanReport(SchedulingResult result, long solveMillis, List<PriceNote> prices) {
        this.result = result;
        this.solveMillis = solveMillis;
        this.prices = List.copyOf(prices);
    }

    /** The stable JSON shape: nodeClaims, existingNodes, unschedulable, totals, and where the prices came from. */
    public String json() {
        Map<String, Object> doc = new LinkedHashMap<>();
        List<Map<String, Object>> claims = new ArrayList<>();
        for (SchedulingResult.NodeClaimPlan c : result.newClaims()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("nodePool", c.nodePool());
            m.put("instanceType", c.instanceType().name());
            m.put("zone", c.offering().zone());
            m.put("capacityType", c.offering().capacityType());
            m.put("pricePerHour", round(c.pricePerHour()));
            m.put("instanceTypeOptions", c.instanceTypeOptions().stream().map(InstanceType::name).toList());
            List<Map<String, Object>> reqs = new ArrayList<>();
            for (Requirement r : c.requirements().toList()) {
                Map<String, Object> rm = new LinkedHashMap<>();
                rm.put("key", r.key());
                rm.put("operator", r.operator().name());
                if (!r.values().isEmpty()) {
                    rm.put("values", r.values());
                }
                if (r.minValues() != null) {
                    rm.put("minValues", r.minValues());
                }
                reqs.add(rm);
            }
            m.put("requirements", reqs);
            m.put("pods", c.pods().stream().map(Pod::key).toList());
            m.put("requests", c.requests().asMap());
            claims.add(m);
        }
        doc.put("nodeClaims", claims);
        List<Map<String, Object>> nodes = new ArrayList<>();
        result.existingNodes().forEach((name, pods) -> nodes.add(Map.of("name", name, "pods", pods.stream().map(Pod::key).toList())));
        doc.put("existingNodes", nodes);
        List<Map<String, Object>> unsched = new ArrayList<>();
        for (SchedulingResult.Unschedulable u : result.unschedulable()) {
            unsched.add(Map.of("pod", u.pod().key(), "reason", u.reason()));
        }
        doc.put("unschedulable", unsched);
        doc.put("totalPricePerHour", round(result.totalPricePerHour()));
        doc.put("lowerBoundPerHour", round(result.lowerBoundPerHour()));
        doc.put("solveMillis", solveMillis);
        doc.put("strategy", result.strategy());
        doc.put("prices", prices.stream().map(PriceNote::json).toList());
        try {
            return JSON.writeValueAsString(doc) + System.lineSeparator();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A table for people: one line per claim, its pods, and the totals. */
    public String table() {
        StringBuilder b = new StringBuilder();
        if (!result.newClaims().isEmpty()) {
            b.append(String.format("%-24s %-16s %-18s %-16s %-10s %9s  %s%n", "NODECLAIM", "NODEPOOL", "INSTANCE TYPE", "ZONE",
                    "CAPACITY", "$/HOUR", "PODS"));
            for (SchedulingResult.NodeClaimPlan c : result.newClaims()) {
                b.append(String.format("%-24s %-16s %-18s %-16s %-10s %9.4f  %s%n", c.name(), c.nodePool(), c.instanceType().name(),
                        c.offering().zone(), c.offering().capacityType(), c.pricePerHour(), abbreviate(c.pods())));
            }
        }
        result.existingNodes().forEach((name, pods) -> b.append("existing node ").append(name).append(": ").append(abbreviate(pods)).append('\n'));
        result.inFlightClaims().forEach((name, pods) -> b.append("in-flight claim ").append(name).append(": ").append(abbreviate(pods)).append('\n'));
        for (SchedulingResult.Unschedulable u : result.unschedulable()) {
            b.append("unschedulable ").append(u.pod().key()).append(": ").append(u.reason()).append('\n');
        }
        long chunks = result.newClaims().stream().flatMap(c -> c.pods().stream()).filter(BufferPods::isVirtual).count();
        b.append(String.format("%d new node(s), %d pod(s) placed%s, %d unschedulable; $%.4f/hour (lower bound $%.4f), solved in %d ms [%s]%n",
                result.newClaims().size(), result.placedCount(),
                chunks == 0 ? "" : " (" + chunks + " of them CapacityBuffer chunks)", result.unschedulable().size(),
                result.totalPricePerHour(), result.lowerBoundPerHour(), solveMillis, result.strategy()));
        prices.forEach(p -> b.append(p.line()).append('\n'));
        return b.toString();
    }

    private static String abbreviate(List<Pod> pods) {
        List<String> keys = pods.stream().map(Pod::key).toList();
        return keys.size() <= 4 ? String.join(", ", keys) : String.join(", ", keys.subList(0, 3)) + " and " + (keys.size() - 3) + " more";
    }

    private static double round(double v) {
        return Math.round(v * 1e6) / 1e6;
    }
}
