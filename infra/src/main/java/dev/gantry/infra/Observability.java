package dev.gantry.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.constructs.Construct;

/**
 * The dashboard and alarms. Gantry's own metrics are emitted by the handlers in the embedded metric format
 * (namespace {@value #NAMESPACE}, dimension {@code ClusterName}), so nothing here calls PutMetricData; handler
 * errors and durations come from AWS/Lambda on the {@code live} aliases.
 */
public final class Observability extends Construct {
    public static final String NAMESPACE = "Gantry";
    /** Pods left pending this long mean Gantry is not getting them a node. */
    static final Duration PENDING_AGE_ALARM = Duration.minutes(5);

    private final List<Alarm> alarms = new ArrayList<>();
    private final String clusterName;

    public Observability(Construct scope, String id, String clusterName, List<GantryFunction> functions) {
        super(scope, id);
        this.clusterName = clusterName;
        for (GantryFunction f : functions) {
            alarms.add(Alarm.Builder.create(this, f.getNode().getId() + "Errors")
                    .alarmDescription("Gantry " + f.getNode().getId() + " handler errors (unhandled exceptions)")
                    .metric(f.alias().metricErrors(MetricOptions.builder().period(Duration.minutes(5))
                            .statistic("Sum").build()))
                    .threshold(0).comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                    .evaluationPeriods(1).treatMissingData(TreatMissingData.NOT_BREACHING)
                    .build());
        }
        alarms.add(Alarm.Builder.create(this, "PendingPodAge")
                .alarmDescription("A pod has been pending for over " + PENDING_AGE_ALARM.toMinutes() + " minutes")
                .metric(gantry("PendingPodAgeSeconds", "Maximum"))
                .threshold(PENDING_AGE_ALARM.toSeconds()).comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                .evaluationPeriods(2).treatMissingData(TreatMissingData.NOT_BREACHING)
                .build());
        List<IWidget> row1 = List.of(
                graph("Pending pods", List.of(gantry("PendingPods", "Maximum"),
                        gantry("PendingPodAgeSeconds", "Maximum"))),
                graph("Nodes launched", List.of(gantry("NodesLaunched", "Sum"))),
                graph("Nodes terminated by reason", List.of(byDimension("NodesTerminated", "Reason"))));
        List<IWidget> row2 = List.of(
                graph("Interruption events by kind", List.of(byDimension("InterruptionEvents", "Kind"))),
                graph("Gantry nodes $/hour", List.of(gantry("HourlyCostUsd", "Maximum"))),
                graph("Handler errors", functions.stream().map(f -> (IMetric) f.alias().metricErrors()).toList()));
        List<IWidget> row3 = List.of(
                graph("Handler duration p99", functions.stream().map(f -> (IMetric) f.alias().metricDuration(
                        MetricOptions.builder().statistic("p99").build())).toList()));
        Dashboard.Builder.create(this, "Dashboard")
                .defaultInterval(Duration.hours(3))
                .widgets(List.of(row1, row2, row3))
                .build();
    }

    public List<Alarm> alarms() {
        return List.copyOf(alarms);
    }

    private Metric gantry(String name, String statistic) {
        return Metric.Builder.create().namespace(NAMESPACE).metricName(name)
                .dimensionsMap(Map.of("ClusterName", clusterName)).statistic(statistic)
                .period(Duration.minutes(1)).build();
    }

    /** One line per value of {@code dimension}, whatever values the handlers emit. */
    private MathExpression byDimension(String name, String dimension) {
        return MathExpression.Builder.create()
                .expression("SEARCH('{" + NAMESPACE + ",ClusterName," + dimension + "} MetricName=\"" + name
                        + "\" ClusterName=\"" + clusterName + "\"', 'Sum', 60)")
                .usingMetrics(Map.of())
                .label(name)
                .period(Duration.minutes(1))
                .build();
    }

    private static GraphWidget graph(String title, List<IMetric> metrics) {
        return GraphWidget.Builder.create().title(title).left(metrics).width(8).build();
    }
}
