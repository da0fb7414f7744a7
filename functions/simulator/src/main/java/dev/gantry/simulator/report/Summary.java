package dev.gantry.simulator.report;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.runtime.FunctionStats;
import dev.gantry.simulator.scenario.Scenario;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.model.NodePool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The run's figures in the {@code --summary-json} shape (field order fixed, numbers rounded so that the same
 * seed gives the same bytes), and as a table for the terminal. {@code wallSeconds} is the only field that differs
 * between identical runs.
 */
public final class Summary {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode root;

    private Summary(ObjectNode root) {
        this.root = root;
    }

    /**
     * What the summary reports of a run: its scenario and start, the catalogue it was priced from, the pools, what the
     * recorder measured and the invariants counted, the pods pending and the nodes alive at the end, the buffers'
     * names, and the queue, function and fault figures.
     */
    public record Run(Scenario scenario, Instant start, Catalog catalog, Collection<NodePool> pools, Recorder recorder,
               Map<String, Integer> invariants, int pendingAtEnd, int nodesAtEnd, List<String> buffers, Queues queues,
               Functions functions, Injected faults, dev.gantry.simulator.bill.SelfCost selfCost) {
    }

    /**
     * The queues' figures: provisioning runs (and the failed ones), hints sent and deduplicated, dead letters by queue,
     * EC2 calls throttled and refused by an outage, crashes after a launch, messages lost by retention, and messages
     * delivered twice.
     */
    public record Queues(int provisioningRuns, int provisioningRunsFailed, long hintsSent, long hintsDeduplicated,
                  Map<String, Integer> deadLettersByQueue, long throttledCalls, long outageRefusedCalls,
                  int crashesAfterLaunch, long messagesLost, long duplicateDeliveries) {
    }

    /** The functions' figures: whether calls had latency, invocations killed, sweeps throttled, and each function's. */
    public record Functions(boolean latency, long invocationsKilled, long sweepsThrottled, Map<String, FunctionStats> stats) {
    }

    /** The faults injected, by kind, with the ones the simulated services count themselves. */
    public record Injected(boolean chaos, Map<String, Long> byKind, long ec2TokenMismatches, long dynamoThrottledCalls,
                    long dynamoLostAnswers) {
    }

    public static Summary of(Run run, double wallSeconds) {
        Recorder r = run.recorder();
        Scenario scenario = run.scenario();
        ObjectNode o = JSON.createObjectNode();
        o.put("scenario", scenario.name());
        o.put("seed", scenario.run().seed());
        o.put("simulatedSeconds", scenario.run().duration().toSeconds());
        o.put("wallSeconds", round(wallSeconds, 2));
        prices(o.putObject("prices"), scenario, run.catalog());
        ObjectNode pods = o.putObject("pods");
        pods.put("created", r.podsCreated());
        pods.put("scheduled", r.podsScheduled());
        pods.put("pendingAtEnd", run.pendingAtEnd());
        pods.set("timeToScheduleSeconds", percentiles(r.timeToSchedule()));
        o.putObject("reaction").set("pendingToLaunchSeconds", percentiles(r.reaction()));
        ObjectNode nodes = o.putObject("nodes");
        nodes.put("launched", r.launched());
        nodes.put("terminated", r.terminated());
        nodes.put("peak", r.peakNodes());
        nodes.put("atEnd", run.nodesAtEnd());
        nodes.put("wastedLaunches", r.wastedLaunches());
        ObjectNode by = nodes.putObject("terminatedByReason");
        r.terminatedByReason().forEach(by::put);
        ObjectNode cost = o.putObject("cost");
        cost.put("total", round(r.cost(), 4));
        ObjectNode byType = cost.putObject("byCapacityType");
        r.costByCapacityType().total().forEach((type, dollars) -> byType.put(type, round(dollars, 4)));
        SpotSplitFigures.of(r).ifPresent(s -> cost.set("spotSplit", s));
        cost.put("peakPerHour", round(r.peakPerHour(), 4));
        cost.put("lowerBoundTotal", round(r.lowerBoundCost(), 4));
        headroom(o, run);
        cost.put("overLowerBound", r.lowerBoundCost() > 0 ? round(r.cost() / r.lowerBoundCost(), 3) : 0);
        cost.put("packingBoundTotal", round(r.packingBoundCost(), 4));
        cost.put("overPackingBound", r.packingBoundCost() > 0 ? round(r.cost() / r.packingBoundCost(), 3) : 0);
        o.set("consolidation", consolidation(run));
        DriftRollout.of(r).ifPresent(d -> o.set("drift", d));
        RebalanceFigures.of(r).ifPresent(d -> o.set("rebalance", d));
        ObjectNode interruptions = o.putObject("interruptions");
        interruptions.put("received", r.interruptionsReceived());
        interruptions.put("reclaimed", r.reclaimed());
        interruptions.put("drainedBeforeDeadline", r.drainedBeforeDeadline());
        interruptions.put("replacementReadyBeforeDeadline", r.replacementReadyBeforeDeadline());
        o.put("evictions", r.evictions());
        o.put("evictionsWaitedForCapacity", r.evictionsWaited());
        ObjectNode waitedBy = o.putObject("evictionsWaitedForCapacityByReason");
        r.evictionsWaitedByReason().forEach(waitedBy::put);
        ObjectNode inv = o.putObject("invariants");
        run.invariants().forEach(inv::put);
        configChanges(o, run);
        var rec = o.putArray("recoveries");
        for (long[] x : r.recoveries()) {
            rec.addObject().put("at", x[0]).put("allPodsScheduledAfterSeconds", x[1]);
        }
        Queues queues = run.queues();
        ObjectNode q = o.putObject("queues");
        q.put("provisioningRuns", queues.provisioningRuns());
        q.put("provisioningRunsFailed", queues.provisioningRunsFailed());
        q.put("hintsSent", queues.hintsSent());
        q.put("hintsDeduplicated", queues.hintsDeduplicated());
        q.put("deadLetters", queues.deadLettersByQueue().values().stream().mapToInt(Integer::intValue).sum());
        q.put("throttledCalls", queues.throttledCalls());
        q.put("outageRefusedCalls", queues.outageRefusedCalls());
        q.put("crashesAfterLaunch", queues.crashesAfterLaunch());
        ObjectNode dl = q.putObject("deadLettersByQueue");
        queues.deadLettersByQueue().forEach(dl::put);
        q.put("messagesLost", queues.messagesLost());
        q.put("duplicateDeliveries", queues.duplicateDeliveries());
        runtime(o.putObject("runtime"), run.functions());
        o.set("selfCost", run.selfCost().json());
        ObjectNode f = o.putObject("faults");
        f.put("chaos", run.faults().chaos());
        run.faults().byKind().forEach(f::put);
        f.put("ec2TokenMismatches", run.faults().ec2TokenMismatches());
        f.put("dynamoThrottledCalls", run.faults().dynamoThrottledCalls());
        f.put("dynamoLostAnswers", run.faults().dynamoLostAnswers());
        return new Summary(o);
    }

    /**
     * Where the run's prices came from: the built-in catalogue has on-demand prices for us-east-1, GovCloud and
     * cn-north-1 only, and prices any other region with us-east-1's ({@code approximate}), which the table says too.
     */
    private static void prices(ObjectNode p, Scenario scenario, Catalog catalog) {
        boolean borrowed = !catalog.warnings().isEmpty();
        p.put("region", scenario.cluster().region());
        p.put("pricedFrom", borrowed ? dev.gantry.core.catalog.PriceBook.FALLBACK_REGION : scenario.cluster().region());
        p.put("source", "built-in");
        p.put("currency", catalog.currency());
        p.put("approximate", borrowed);
        p.put("spot", "modelled from on-demand");
    }

    /**
     * Only when the scenario has buffers or a ramp: the buffers used, and the time to schedule of the pods created in
     * the ramp window ({@code [start + ramp.from, start + ramp.until)}, UTC), whoever placed them.
     */
    private static void headroom(ObjectNode o, Run run) {
        Scenario.Window ramp = run.scenario().run().ramp();
        if (ramp == null && run.buffers().isEmpty()) {
            return;
        }
        ObjectNode h = o.putObject("headroom");
        var names = h.putArray("buffers");
        run.buffers().forEach(names::add);
        if (ramp != null) {
            ObjectNode r = h.putObject("ramp");
            r.put("from", run.start().plus(ramp.from()).toString());
            r.put("until", run.start().plus(ramp.until()).toString());
            r.set("timeToScheduleSeconds", percentiles(run.recorder().rampTimeToSchedule()));
        }
    }

    private static void headroomRows(StringBuilder b, com.fasterxml.jackson.databind.JsonNode h) {
        if (h == null) {
            return;
        }
        List<String> names = new ArrayList<>();
        h.get("buffers").forEach(n -> names.add(n.asText()));
        row(b, "buffers", names.isEmpty() ? "none" : String.join(", ", names));
        var r = h.get("ramp");
        if (r != null) {
            row(b, "ramp to schedule", stats(r.get("timeToScheduleSeconds")) + ", pods created " + r.get("from").asText()
                    + " to " + r.get("until").asText());
        }
    }

    /**
     * What consolidation did and what it cost in churn: commands by outcome, nodes removed (underutilized and empty), the
     * planned saving of the executed commands, and churn per simulated hour: voluntary disruptions (nodes removed for
     * emptiness, underutilization or expiry) and pod restarts (evictions).
     */
    private static ObjectNode consolidation(Run run) {
        Recorder r = run.recorder();
        double hours = Math.max(1e-9, run.scenario().run().duration().toSeconds() / 3600.0);
        ObjectNode c = JSON.createObjectNode();
        c.put("policy", String.join(",", run.pools().stream()
                .map(p -> p.name() + "=" + p.disruption().consolidationPolicy()).toList()));
        c.put("strategy", run.scenario().gantry().consolidation().strategy().name().toLowerCase(java.util.Locale.ROOT));
        r.consolidation().forEach(c::put);
        int removed = r.terminatedByReason().getOrDefault("underutilized", 0) + r.terminatedByReason().getOrDefault("emptiness", 0);
        c.put("nodesRemoved", removed);
        c.put("plannedSavingsPerHour", round(r.consolidationSavingsPerHour(), 4));
        int disruptions = removed + r.terminatedByReason().getOrDefault("expiry", 0);
        c.put("disruptionsPerHour", round(disruptions / hours, 2));
        c.put("podRestartsPerHour", round(r.evictions() / hours, 2));
        return c;
    }

    /**
     * Per function: how long its invocations took against the deployed timeout, which should keep a margin of at least
     * 30% (the share of the timeout and the count of invocations over 70% of it show where it does not).
     */
    private static void runtime(ObjectNode rt, Functions functions) {
        rt.put("latency", functions.latency());
        rt.put("invocationsKilled", functions.invocationsKilled());
        rt.put("sweepsThrottled", functions.sweepsThrottled());
        ObjectNode fs = rt.putObject("functions");
        functions.stats().forEach((name, st) -> fs.putObject(name)
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
                + VirtualClock.format(root.get("simulatedSeconds").asLong()) + " simulated in " + root.get("wallSeconds").asDouble() + " s)");
        var prices = root.get("prices");
        row(b, "prices", prices.get("approximate").asBoolean()
                ? "WARNING: no " + prices.get("region").asText() + " prices in the built-in catalogue; costs use "
                        + prices.get("pricedFrom").asText() + "'s on-demand prices, which differ by region"
                : prices.get("region").asText() + " on-demand, built-in (" + prices.get("currency").asText()
                        + "); spot modelled from on-demand");
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
                + (reasons.isEmpty() ? "" : " (" + reasons + ")") + ", peak " + nodes.get("peak") + ", " + nodes.get("atEnd") + " at the end"
                + ", " + nodes.get("wastedLaunches") + " wasted (never ran a pod, held a buffer or a static pool's count)");
        var cost = root.get("cost");
        row(b, "cost", String.format(java.util.Locale.ROOT, "$%.2f total, peak $%.3f/h, lower bound $%.2f (fractional), $%.2f (packing, %.2f×)",
                cost.get("total").asDouble(), cost.get("peakPerHour").asDouble(), cost.get("lowerBoundTotal").asDouble(),
                cost.get("packingBoundTotal").asDouble(), cost.get("overPackingBound").asDouble()));
        StringBuilder split = new StringBuilder();
        cost.get("byCapacityType").properties().forEach(e -> split.append(split.isEmpty() ? "" : ", ")
                .append(String.format(java.util.Locale.ROOT, "%s $%.2f", e.getKey(), e.getValue().asDouble())));
        if (!split.isEmpty()) {
            row(b, "cost by capacity", split.toString());
        }
        if (cost.has("spotSplit")) row(b, "spot split", SpotSplitFigures.line(cost.get("spotSplit")));
        headroomRows(b, root.get("headroom"));
        var c = root.get("consolidation");
        row(b, "consolidation", c.get("decided") + " commands decided, " + c.get("handed") + " executed, " + c.get("aborted")
                + " aborted; " + c.get("nodesRemoved") + " nodes removed, " + String.format(java.util.Locale.ROOT, "$%.3f/h", c.get("plannedSavingsPerHour").asDouble())
                + " saved as planned (" + c.get("strategy").asText() + "; " + c.get("policy").asText() + ")");
        row(b, "churn", String.format(java.util.Locale.ROOT, "%.2f disruptions/h, %.2f pod restarts/h; cost %.2f× the lower bound",
                c.get("disruptionsPerHour").asDouble(), c.get("podRestartsPerHour").asDouble(), cost.get("overLowerBound").asDouble()));
        if (root.has("drift")) row(b, "drift", DriftRollout.line(root.get("drift")));
        var i = root.get("interruptions");
        row(b, "interruptions", i.get("received") + " received, " + i.get("drainedBeforeDeadline") + " drained before the deadline"
                + percent(i.get("drainedBeforeDeadline").asInt(), i.get("reclaimed").asInt()) + ", "
                + i.get("replacementReadyBeforeDeadline") + " replaced before it"
                + percent(i.get("replacementReadyBeforeDeadline").asInt(), i.get("reclaimed").asInt()));
        row(b, "evictions", root.get("evictions").asText() + ", " + root.get("evictionsWaitedForCapacity").asText()
                + " of them waited for capacity");
        StringBuilder inv = new StringBuilder();
        int total = 0;
        for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e : root.get("invariants").properties()) {
            total += e.getValue().asInt();
            if (e.getValue().asInt() > 0) {
                inv.append(inv.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            }
        }
        row(b, "invariants", total == 0 ? "all held" : "VIOLATED: " + inv);
        root.get("recoveries").forEach(r -> row(b, "recovery", "outage at " + VirtualClock.format(r.get("at").asLong())
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
        row(b, "Gantry's AWS bill", dev.gantry.simulator.bill.SelfCost.row(root.get("selfCost")));
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

    /** " (97% of 100 reclaimed)", or nothing when no instance was reclaimed. */
    private static String percent(int n, int of) {
        return of == 0 ? "" : String.format(java.util.Locale.ROOT, " (%d%% of %d reclaimed)", Math.round(100.0 * n / of), of);
    }

    private static String stats(com.fasterxml.jackson.databind.JsonNode p) {
        return p.get("count").asInt() == 0 ? "-" : "p50 " + p.get("p50") + " s, p99 " + p.get("p99") + " s, max " + p.get("max")
                + " s (" + p.get("count") + ")";
    }

    private static void row(StringBuilder b, String name, String value) {
        b.append(String.format(java.util.Locale.ROOT, "  %-18s %s%n", name, value));
    }

    /**
     * GitOps changes, only when a scenario made some: each write, when the first run used it and how long after, and
     * what was launched in that NodePool afterwards (none outside its requirements; its CPU against its limit).
     */
    private static void configChanges(ObjectNode o, Run run) {
        var changes = run.recorder().configReactions().changes();
        if (changes.isEmpty()) {
            return;
        }
        var a = o.putArray("configChanges");
        for (var c : changes) {
            ObjectNode n = a.addObject();
            n.put("at", run.recorder().secondsSinceStart(c.at()));
            n.put("object", c.object());
            n.put("deleted", c.deleted());
            c.reaction().ifPresentOrElse(d -> n.put("firstRunUsingItAfterSeconds", d.toMillis() / 1000.0),
                    () -> n.putNull("firstRunUsingItAfterSeconds"));
            if (c.object().startsWith("NodePool/") && !c.deleted()) {
                n.put("launchedAfter", c.launchedAfter());
                n.put("launchedOutsideRequirements", c.launchedOutsideRequirements());
                if (c.cpuLimit() != null) {
                    n.put("cpuLimit", c.cpuLimit());
                    n.put("cpuLaunchedWhenUsed", c.cpuMillisAtUse() / 1000.0);
                    n.put("cpuLaunchedPeakAfter", c.peakCpuMillisAfter() / 1000.0);
                }
            }
        }
    }
}
