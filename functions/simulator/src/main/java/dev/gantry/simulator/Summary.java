package dev.gantry.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run's figures in the issue's {@code --summary-json} shape (field order fixed, numbers rounded so that the same
 * seed gives the same bytes), and as a table for the terminal. {@code wallSeconds} is the only field that differs
 * between identical runs.
 */
public final class Summary {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode root;

    private Summary(ObjectNode root) {
        this.root = root;
    }

    static Summary of(Simulation sim, double wallSeconds) {
        Recorder r = sim.recorder;
        ObjectNode o = JSON.createObjectNode();
        o.put("scenario", sim.scenario.name());
        o.put("seed", sim.scenario.seed());
        o.put("simulatedSeconds", sim.scenario.duration().toSeconds());
        o.put("wallSeconds", round(wallSeconds, 2));
        ObjectNode pods = o.putObject("pods");
        pods.put("created", r.podsCreated);
        pods.put("scheduled", r.podsScheduled);
        pods.put("pendingAtEnd", sim.pendingPods());
        pods.set("timeToScheduleSeconds", percentiles(r.timeToSchedule));
        o.putObject("reaction").set("pendingToLaunchSeconds", percentiles(r.reaction));
        ObjectNode nodes = o.putObject("nodes");
        nodes.put("launched", r.launched);
        nodes.put("terminated", r.terminated);
        nodes.put("peak", r.peakNodes);
        nodes.put("atEnd", sim.liveInstances().size());
        ObjectNode by = nodes.putObject("terminatedByReason");
        r.terminatedByReason.forEach(by::put);
        ObjectNode cost = o.putObject("cost");
        cost.put("total", round(r.cost, 4));
        cost.put("peakPerHour", round(r.peakPerHour, 4));
        cost.put("lowerBoundTotal", round(r.lowerBoundCost, 4));
        ObjectNode interruptions = o.putObject("interruptions");
        interruptions.put("received", r.interruptionsReceived);
        interruptions.put("drainedBeforeDeadline", r.drainedBeforeDeadline);
        interruptions.put("replacementReadyBeforeDeadline", r.replacementReadyBeforeDeadline);
        o.put("evictions", r.evictions);
        ObjectNode inv = o.putObject("invariants");
        sim.invariants.counts().forEach(inv::put);
        var rec = o.putArray("recoveries");
        for (long[] x : r.recoveries) {
            rec.addObject().put("at", x[0]).put("allPodsScheduledAfterSeconds", x[1]);
        }
        ObjectNode q = o.putObject("queues");
        q.put("provisioningRuns", sim.eventSources.provisioningRuns);
        q.put("provisioningRunsFailed", sim.eventSources.failedRuns);
        q.put("hintsSent", sim.provisioningQueue.sentCount());
        q.put("hintsDeduplicated", sim.provisioningQueue.duplicateCount());
        q.put("deadLetters", sim.provisioningQueue.deadLetters().size() + sim.interruptionQueue.deadLetters().size()
                + sim.terminationQueue.deadLetters().size());
        q.put("throttledCalls", sim.cloud.faults().throttledCalls());
        q.put("crashesAfterLaunch", sim.crashing.crashes());
        ObjectNode dl = q.putObject("deadLettersByQueue");
        for (SimQueue x : List.of(sim.provisioningQueue, sim.interruptionQueue, sim.terminationQueue)) {
            dl.put(x.name(), x.deadLetters().size());
        }
        q.put("messagesLost", sim.messagesLost());
        q.put("duplicateDeliveries", sim.provisioningQueue.duplicateDeliveries() + sim.interruptionQueue.duplicateDeliveries()
                + sim.terminationQueue.duplicateDeliveries());
        runtime(o.putObject("runtime"), sim);
        ObjectNode f = o.putObject("faults");
        f.put("chaos", sim.scenario.chaos());
        sim.faults.injected().forEach(f::put);
        f.put("ec2TokenMismatches", sim.cloud.tokenMismatches);
        f.put("dynamoThrottledCalls", sim.claims.throttled);
        f.put("dynamoLostAnswers", sim.claims.lostAnswers);
        return new Summary(o);
    }

    /** Per function: how long its invocations took against the deployed timeout (#11: at least 30% margin). */
    private static void runtime(ObjectNode rt, Simulation sim) {
        rt.put("latency", !sim.scenario.latency().build(0).instant());
        rt.put("invocationsKilled", sim.eventSources.killedInvocations);
        rt.put("sweepsThrottled", sim.eventSources.sweepsThrottled);
        ObjectNode fs = rt.putObject("functions");
        sim.runtime.stats().forEach((name, st) -> fs.putObject(name)
                .put("invocations", st.invocations)
                .put("peakConcurrent", st.peakConcurrent)
                .put("longestSeconds", round(st.longest.toMillis() / 1000.0, 3))
                .put("longestShareOfTimeout", round(st.longestShare, 3))
                .put("over70PercentOfTimeout", st.over70Percent)
                .put("timedOut", st.killedByTimeout)
                .put("crashed", st.crashed));
    }

    private static ObjectNode percentiles(List<Double> values) {
        List<Double> v = new ArrayList<>(values);
        v.sort(Double::compare);
        ObjectNode o = JSON.createObjectNode();
        o.put("p50", round(pick(v, 0.50), 1));
        o.put("p99", round(pick(v, 0.99), 1));
        o.put("max", round(v.isEmpty() ? 0 : v.getLast(), 1));
        o.put("count", v.size());
        return o;
    }

    /** The nearest-rank percentile. */
    private static double pick(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static double round(double v, int places) {
        double f = Math.pow(10, places);
        return Math.round(v * f) / f;
    }

    public String json() {
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public ObjectNode tree() {
        return root.deepCopy();
    }

    /** The summary as aligned "name  value" lines, grouped as in the JSON. */
    public String table() {
        StringBuilder b = new StringBuilder();
        row(b, "scenario", root.get("scenario").asText() + " (seed " + root.get("seed").asLong() + ", "
                + Progress.clock(root.get("simulatedSeconds").asLong()) + " simulated in " + root.get("wallSeconds").asDouble() + " s)");
        var pods = root.get("pods");
        row(b, "pods", pods.get("created") + " created, " + pods.get("scheduled") + " scheduled, " + pods.get("pendingAtEnd")
                + " pending at the end");
        row(b, "time to schedule", stats(pods.get("timeToScheduleSeconds")));
        row(b, "pending → launch", stats(root.get("reaction").get("pendingToLaunchSeconds")));
        var nodes = root.get("nodes");
        StringBuilder reasons = new StringBuilder();
        nodes.get("terminatedByReason").properties().forEach(e -> {
            if (e.getValue().asInt() > 0) {
                reasons.append(reasons.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            }
        });
        row(b, "nodes", nodes.get("launched") + " launched, " + nodes.get("terminated") + " terminated"
                + (reasons.isEmpty() ? "" : " (" + reasons + ")") + ", peak " + nodes.get("peak") + ", " + nodes.get("atEnd") + " at the end");
        var cost = root.get("cost");
        row(b, "cost", String.format("$%.2f total, peak $%.3f/h, lower bound $%.2f", cost.get("total").asDouble(),
                cost.get("peakPerHour").asDouble(), cost.get("lowerBoundTotal").asDouble()));
        var i = root.get("interruptions");
        row(b, "interruptions", i.get("received") + " received, " + i.get("drainedBeforeDeadline") + " drained before the deadline, "
                + i.get("replacementReadyBeforeDeadline") + " replaced before it");
        row(b, "evictions", root.get("evictions").asText());
        StringBuilder inv = new StringBuilder();
        int total = 0;
        for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e : root.get("invariants").properties()) {
            total += e.getValue().asInt();
            if (e.getValue().asInt() > 0) {
                inv.append(inv.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            }
        }
        row(b, "invariants", total == 0 ? "all held" : "VIOLATED: " + inv);
        root.get("recoveries").forEach(r -> row(b, "recovery", "outage at " + Progress.clock(r.get("at").asLong())
                + ": every pod scheduled again after " + r.get("allPodsScheduledAfterSeconds") + " s"));
        var q = root.get("queues");
        row(b, "queues", q.get("provisioningRuns") + " provisioning runs (" + q.get("provisioningRunsFailed") + " failed), "
                + q.get("hintsSent") + " hints (" + q.get("hintsDeduplicated") + " deduplicated), " + q.get("deadLetters") + " dead letters"
                + ", " + q.get("messagesLost") + " lost, " + q.get("duplicateDeliveries") + " delivered twice");
        var rt = root.get("runtime");
        rt.get("functions").properties().forEach(e -> {
            var v = e.getValue();
            row(b, "λ " + e.getKey(), v.get("invocations") + " invocations (at most " + v.get("peakConcurrent")
                    + " at once), longest " + v.get("longestSeconds") + " s ("
                    + Math.round(v.get("longestShareOfTimeout").asDouble() * 100) + "% of timeout), "
                    + v.get("over70PercentOfTimeout") + " over 70%, " + v.get("timedOut") + " timed out, "
                    + v.get("crashed") + " crashed");
        });
        StringBuilder fl = new StringBuilder();
        root.get("faults").properties().forEach(e -> {
            if (!e.getKey().equals("chaos") && e.getValue().asLong() > 0) {
                fl.append(fl.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            }
        });
        if (!fl.isEmpty() || root.get("faults").get("chaos").asBoolean()) {
            row(b, "faults", (root.get("faults").get("chaos").asBoolean() ? "chaos: " : "") + (fl.isEmpty() ? "none hit" : fl));
        }
        return b.toString();
    }

    private static String stats(com.fasterxml.jackson.databind.JsonNode p) {
        return p.get("count").asInt() == 0 ? "-" : "p50 " + p.get("p50") + " s, p99 " + p.get("p99") + " s, max " + p.get("max")
                + " s (" + p.get("count") + ")";
    }

    private static void row(StringBuilder b, String name, String value) {
        b.append(String.format("  %-18s %s%n", name, value));
    }
}
