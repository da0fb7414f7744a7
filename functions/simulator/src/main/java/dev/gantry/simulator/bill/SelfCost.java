package dev.gantry.simulator.bill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.config.deployment.FunctionSettings;
import dev.gantry.simulator.runtime.FunctionStats;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Gantry's own AWS bill for a run, at the {@link UnitPrices}: Lambda GB-seconds (billed duration x the deployed
 * memory) and requests, SQS requests, DynamoDB request units and EventBridge events, in dollars over the run and at
 * the run's rate for a day, beside a Karpenter controller's compute for a day (two replicas on on-demand nodes).
 *
 * <p>Idle long polls are not events the simulator sees, so they are added here: an SQS event source keeps
 * {@value #IDLE_POLLERS} long polls of {@value #LONG_POLL_SECONDS} s open on its queue all the time, whether messages
 * come or not. Receives that returned messages are counted by the queues on top (an upper bound: a busy poller
 * makes fewer empty polls).
 *
 * <p>The run's durations are the port calls' simulated latency; CPU time between calls is not simulated, so a
 * CPU-bound invocation (a large solve) is billed here for less than it would be.
 */
public final class SelfCost {
    static final int IDLE_POLLERS = 5;
    static final int LONG_POLL_SECONDS = 20;
    static final String IDLE_POLLS = "ReceiveMessage (idle long polls)";
    private static final double DAY = 86_400;

    private final ObjectNode json;

    private SelfCost(ObjectNode json) {
        this.json = json;
    }

    /**
     * A Karpenter controller for comparison: {@code replicas} on-demand nodes of {@code instanceType} at
     * {@code pricePerHour} each, around the clock.
     */
    public record Controller(int replicas, String instanceType, double pricePerHour) {
        double perDay() {
            return replicas * pricePerHour * 24;
        }
    }

    public static SelfCost of(UnitPrices p, DeploymentSettings deployed, Map<String, FunctionStats> functions, SelfUsage usage,
                              Duration simulated, Controller karpenter) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        double seconds = Math.max(1, simulated.toSeconds());
        ObjectNode o = f.objectNode();
        o.putObject("prices").put("region", p.region()).put("currency", p.currency()).put("asOf", p.asOf().toString())
                .put("lambdaArchitecture", p.lambdaArchitecture()).put("source", "bill/unit-prices.json");

        ObjectNode lambda = o.putObject("lambda");
        ObjectNode fs = f.objectNode();
        long requests = 0;
        double gbSeconds = 0;
        for (Map.Entry<String, FunctionStats> e : functions.entrySet()) {
            FunctionSettings settings = deployed.function(e.getKey());
            FunctionStats st = e.getValue();
            double gbs = st.billedMillis / 1000.0 * settings.memoryMb() / 1024.0;
            requests += st.invocations;
            gbSeconds += gbs;
            fs.putObject(e.getKey()).put("memoryMb", settings.memoryMb()).put("invocations", st.invocations)
                    .put("billedSeconds", round(st.billedMillis / 1000.0, 3)).put("gbSeconds", round(gbs, 3));
        }
        double lambdaDollars = requests * p.lambdaRequest() + gbSeconds * p.lambdaGbSecond();
        lambda.put("requests", requests).put("gbSeconds", round(gbSeconds, 3)).put("dollars", round(lambdaDollars, 6));
        lambda.set("functions", fs);

        ObjectNode sqs = o.putObject("sqs");
        ObjectNode qs = f.objectNode();
        long sqsRequests = 0;
        double sqsDollars = 0;
        long idle = Math.round(IDLE_POLLERS * seconds / LONG_POLL_SECONDS);
        for (Map.Entry<String, SelfUsage.Queue> e : usage.queues().entrySet()) {
            SelfUsage.Queue q = e.getValue();
            long n = q.total() + idle;
            sqsRequests += n;
            sqsDollars += n * (q.fifo ? p.sqsFifoRequest() : p.sqsStandardRequest());
            ObjectNode qn = qs.putObject(e.getKey()).put("fifo", q.fifo).put("requests", n);
            ObjectNode by = qn.putObject("byAction");
            by.put(IDLE_POLLS, idle);
            q.byAction.forEach(by::put);
        }
        sqs.put("requests", sqsRequests).put("idleLongPolls", idle * usage.queues().size())
                .put("dollars", round(sqsDollars, 6));
        sqs.set("queues", qs);

        double dynamoDollars = usage.writeUnits() * p.dynamoWriteUnit() + usage.readUnits() * p.dynamoReadUnit();
        o.putObject("dynamodb").put("readUnits", round(usage.readUnits(), 1)).put("writeUnits", round(usage.writeUnits(), 1))
                .put("dollars", round(dynamoDollars, 6));

        long awsEvents = usage.awsEvents().values().stream().mapToLong(Long::longValue).sum();
        double eventDollars = usage.customEvents() * p.eventBridgeCustom();
        ObjectNode eb = o.putObject("eventbridge").put("awsServiceEvents", awsEvents).put("customEvents", usage.customEvents())
                .put("dollars", round(eventDollars, 6));
        ObjectNode byType = eb.putObject("awsServiceEventsByDetailType");
        usage.awsEvents().forEach(byType::put);

        double total = lambdaDollars + sqsDollars + dynamoDollars + eventDollars;
        o.put("total", round(total, 6));
        o.put("perDay", round(total * DAY / seconds, 4));
        o.putObject("karpenter").put("replicas", karpenter.replicas()).put("instanceType", karpenter.instanceType())
                .put("pricePerHour", karpenter.pricePerHour()).put("perDay", round(karpenter.perDay(), 4));
        return new SelfCost(o);
    }

    public ObjectNode json() {
        return json.deepCopy();
    }

    /** One line for the terminal table, from a summary's {@code selfCost} node. */
    public static String row(JsonNode s) {
        return String.format(Locale.ROOT, "$%.4f/day at this run's rate ($%.4f over the run: Lambda %s GB-s + %d requests "
                        + "$%.4f, SQS %d requests $%.4f, DynamoDB %s RRU + %s WRU $%.4f, EventBridge %d AWS events free); "
                        + "Karpenter's %d x %s on-demand $%.2f/day",
                s.get("perDay").asDouble(), s.get("total").asDouble(), s.at("/lambda/gbSeconds").asText(),
                s.at("/lambda/requests").asLong(), s.at("/lambda/dollars").asDouble(), s.at("/sqs/requests").asLong(),
                s.at("/sqs/dollars").asDouble(), s.at("/dynamodb/readUnits").asText(), s.at("/dynamodb/writeUnits").asText(),
                s.at("/dynamodb/dollars").asDouble(), s.at("/eventbridge/awsServiceEvents").asLong(),
                s.at("/karpenter/replicas").asInt(), s.at("/karpenter/instanceType").asText(), s.at("/karpenter/perDay").asDouble());
    }

    private static double round(double v, int places) {
        double f = Math.pow(10, places);
        return Math.round(v * f) / f;
    }
}
