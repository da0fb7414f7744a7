package dev.gantry.simulator.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * The report's table of Gantry's own AWS bill, from the summary's {@code selfCost} node: one row per service with
 * its units and dollars over the run, the total, the same at the run's rate for a day, and Karpenter's controller
 * for a day beside it.
 */
final class SelfCostTable {
    private SelfCostTable() {
    }

    static String html(JsonNode s) {
        StringBuilder b = new StringBuilder("<table id=\"selfcost\"><tr><td><b>service</b></td><td><b>units over the run</b></td>"
                + "<td><b>$ over the run</b></td></tr>");
        row(b, "Lambda (" + s.at("/prices/lambdaArchitecture").asText() + ")", s.at("/lambda/gbSeconds").asText() + " GB-s, "
                + s.at("/lambda/requests").asText() + " requests", s.at("/lambda/dollars").asDouble());
        row(b, "SQS", s.at("/sqs/requests").asText() + " requests (" + s.at("/sqs/idleLongPolls").asText()
                + " of them idle long polls of the event sources)", s.at("/sqs/dollars").asDouble());
        row(b, "DynamoDB (on-demand)", s.at("/dynamodb/readUnits").asText() + " read units, " + s.at("/dynamodb/writeUnits").asText()
                + " write units", s.at("/dynamodb/dollars").asDouble());
        row(b, "EventBridge", s.at("/eventbridge/awsServiceEvents").asText() + " AWS service events (free), "
                + s.at("/eventbridge/customEvents").asText() + " custom", s.at("/eventbridge/dollars").asDouble());
        row(b, "<b>total</b>", "", s.get("total").asDouble());
        b.append("</table><p>At this run's rate: <b>").append(money(s.get("perDay").asDouble())).append(" a day</b>. Karpenter's ")
                .append(s.at("/karpenter/replicas").asInt()).append(" controller replicas on ")
                .append(HtmlReport.esc(s.at("/karpenter/instanceType").asText())).append(" on-demand: ")
                .append(money(s.at("/karpenter/perDay").asDouble())).append(" a day. Prices: ")
                .append(HtmlReport.esc(s.at("/prices/region").asText())).append(", ").append(HtmlReport.esc(s.at("/prices/asOf").asText()))
                .append(" (").append(HtmlReport.esc(s.at("/prices/source").asText())).append(").</p>");
        return b.toString();
    }

    private static void row(StringBuilder b, String name, String units, double dollars) {
        b.append("<tr><td>").append(name).append("</td><td>").append(HtmlReport.esc(units)).append("</td><td class=\"t\">")
                .append(money(dollars)).append("</td></tr>");
    }

    private static String money(double d) {
        return String.format(Locale.ROOT, "$%.4f", d);
    }
}
