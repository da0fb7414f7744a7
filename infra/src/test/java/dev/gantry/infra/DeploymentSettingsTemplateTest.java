package dev.gantry.infra;

import static dev.gantry.infra.TemplateQueries.json;
import static dev.gantry.infra.TemplateQueries.map;
import static dev.gantry.infra.TemplateQueries.ref;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.deployment.ConsolidationVariables;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.config.deployment.EventSourceSettings;
import dev.gantry.config.deployment.FunctionSettings;
import dev.gantry.config.deployment.QueueSettings;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The template carries exactly the figures of {@link DeploymentSettings#DEFAULT}, the value the simulator runs. Each
 * record component has a check below; a component without one fails {@link #everySettingHasATemplateCheck}, so a new
 * setting cannot be added without being asserted here.
 */
class DeploymentSettingsTemplateTest {
    private static final DeploymentSettings S = DeploymentSettings.DEFAULT;
    private static TemplateQueries q;

    /** One queue's resources: the queue, its dead-letter queue, its event source mapping. */
    record QueueResources(Map<String, Object> queue, Map<String, Object> deadLetters, Map<String, Object> mapping) {
    }

    private static final Map<String, BiConsumer<EventSourceSettings, Map<String, Object>>> EVENT_SOURCE_CHECKS = Map.of(
            "batchSize", (s, m) -> assertThat(m.get("BatchSize")).isEqualTo(s.batchSize()),
            "maxBatchingWindow", (s, m) -> assertThat(m.get("MaximumBatchingWindowInSeconds"))
                    .isEqualTo(s.maxBatchingWindow().isZero() ? null : seconds(s.maxBatchingWindow())),
            "maxConcurrency", (s, m) -> assertThat(m.get("ScalingConfig")).isEqualTo(s.maxConcurrency() == null ? null
                    : Map.of("MaximumConcurrency", s.maxConcurrency())));

    private static final Map<String, BiConsumer<QueueSettings, QueueResources>> QUEUE_CHECKS = Map.of(
            "name", (s, r) -> assertThat(r.queue()).isNotNull(),
            "fifo", (s, r) -> {
                assertThat(r.queue().get("FifoQueue")).isEqualTo(s.fifo() ? true : null);
                assertThat(r.deadLetters().get("FifoQueue")).isEqualTo(s.fifo() ? true : null);
            },
            "visibility", (s, r) -> assertThat(r.queue().get("VisibilityTimeout")).isEqualTo(seconds(s.visibility())),
            "retention", (s, r) -> assertThat(r.queue().get("MessageRetentionPeriod")).isEqualTo(seconds(s.retention())),
            "deliveryDelay", (s, r) -> assertThat(r.queue().get("DelaySeconds")).isEqualTo(seconds(s.deliveryDelay())),
            "maxReceiveCount", (s, r) -> assertThat(map(r.queue().get("RedrivePolicy")).get("maxReceiveCount"))
                    .isEqualTo(s.maxReceiveCount()),
            "deadLetterRetention", (s, r) -> assertThat(r.deadLetters())
                    .containsEntry("MessageRetentionPeriod", seconds(s.deadLetterRetention()))
                    .doesNotContainKeys("RedrivePolicy", "DelaySeconds"),
            "consumer", (s, r) -> assertThat(json(r.mapping().get("FunctionName")))
                    .contains("Gantry" + constructId(s.consumer()) + "Alias"),
            "eventSource", (s, r) -> EVENT_SOURCE_CHECKS.values().forEach(c -> c.accept(s.eventSource(), r.mapping())));

    private static final Map<String, BiConsumer<FunctionSettings, Map<String, Object>>> FUNCTION_CHECKS = Map.of(
            "name", (s, p) -> assertThat(p).isNotNull(),
            "memoryMb", (s, p) -> assertThat(p.get("MemorySize")).isEqualTo(s.memoryMb()),
            "timeout", (s, p) -> assertThat(p.get("Timeout")).isEqualTo(seconds(s.timeout())),
            "reservedConcurrency", (s, p) -> assertThat(p.get("ReservedConcurrentExecutions"))
                    .isEqualTo(s.reservedConcurrency()));

    @BeforeAll
    static void synth() {
        q = new TemplateQueries(SynthFixture.shared().template);
    }

    @Test
    void everySettingHasATemplateCheck() {
        assertThat(QUEUE_CHECKS.keySet()).isEqualTo(components(QueueSettings.class));
        assertThat(EVENT_SOURCE_CHECKS.keySet()).isEqualTo(components(EventSourceSettings.class));
        assertThat(FUNCTION_CHECKS.keySet()).isEqualTo(components(FunctionSettings.class));
        // queues and functions are checked one by one below, sweepRate by the schedule test, consolidation by the
        // environment test.
        assertThat(components(DeploymentSettings.class)).containsExactlyInAnyOrder("queues", "functions", "sweepRate",
                "consolidation");
    }

    @Test
    void everyQueueItsDeadLetterQueueAndItsEventSourceCarryExactlyTheSettings() {
        Map<String, Map<String, Object>> queues = q.properties("AWS::SQS::Queue");
        Map<String, Map<String, Object>> mappings = q.properties("AWS::Lambda::EventSourceMapping");
        assertThat(queues).hasSize(2 * S.queues().size());
        assertThat(mappings).hasSize(S.queues().size());
        for (QueueSettings s : S.queues()) {
            // CDK drops the child id "Queue" that repeats the end of its parent's ("ProvisioningQueue").
            String queueId = only(queues, "Gantry" + WorkQueue.constructId(s), "DeadLetters");
            String dlqId = only(queues, "Gantry" + WorkQueue.constructId(s) + "DeadLetters", null);
            assertThat(ref(map(queues.get(queueId).get("RedrivePolicy")).get("deadLetterTargetArn"))).isEqualTo(dlqId);
            Map<String, Object> mapping = mappings.values().stream()
                    .filter(m -> queueId.equals(ref(m.get("EventSourceArn")))).findFirst().orElseThrow();
            QueueResources r = new QueueResources(queues.get(queueId), queues.get(dlqId), mapping);
            QUEUE_CHECKS.forEach((component, check) -> check.accept(s, r));
        }
    }

    @Test
    void everyFunctionCarriesExactlyItsMemoryTimeoutAndReservedConcurrency() {
        Map<String, Map<String, Object>> functions = q.properties("AWS::Lambda::Function");
        assertThat(functions.values()).filteredOn(p -> String.valueOf(p.get("Handler")).startsWith("dev.gantry."))
                .hasSize(S.functions().size());
        for (FunctionSettings s : S.functions()) {
            Map<String, Object> p = functions.get(only(functions, "Gantry" + constructId(s.name()) + "Function", null));
            FUNCTION_CHECKS.forEach((component, check) -> check.accept(s, p));
        }
    }

    @Test
    void theSweepScheduleRunsAtTheSettingsRate() {
        Map<String, Object> schedule = q.properties("AWS::Events::Rule").values().stream()
                .filter(p -> p.containsKey("ScheduleExpression")).findFirst().orElseThrow();
        long minutes = S.sweepRate().toMinutes();
        assertThat(S.sweepRate()).isEqualTo(Duration.ofMinutes(minutes));
        assertThat(schedule.get("ScheduleExpression")).isEqualTo("rate(" + minutes + (minutes == 1 ? " minute)" : " minutes)"));
    }

    @Test
    void theFunctionsThatConsolidateCarryTheConsolidationSettingsAndNoOtherDoes() {
        assertConsolidationEnvironment(q, S.consolidation());
        TemplateQueries karpenterSpot = new TemplateQueries(SynthFixture.with(Map.of("spotToSpotConsolidation", "true",
                "consolidationStrategy", "karpenter")).template);
        assertConsolidationEnvironment(karpenterSpot, new ConsolidationSettings(true, ConsolidationSettings.Strategy.KARPENTER));
    }

    private static void assertConsolidationEnvironment(TemplateQueries t, ConsolidationSettings expected) {
        Map<String, Map<String, Object>> functions = t.properties("AWS::Lambda::Function");
        for (FunctionSettings f : S.functions()) {
            Map<String, Object> p = functions.get(only(functions, "Gantry" + constructId(f.name()) + "Function", null));
            Map<String, Object> variables = map(map(p.get("Environment")).get("Variables"));
            if (ConsolidationVariables.CONSUMERS.contains(f.name())) {
                assertThat(variables).as(f.name()).containsAllEntriesOf(ConsolidationVariables.of(expected));
            } else {
                assertThat(variables).as(f.name()).doesNotContainKeys(ConsolidationVariables.SPOT_TO_SPOT,
                        ConsolidationVariables.STRATEGY);
            }
        }
        assertThat(ConsolidationVariables.of(expected)).containsEntry("GANTRY_SPOT_TO_SPOT_CONSOLIDATION",
                String.valueOf(expected.spotToSpot()));
    }

    private static Set<String> components(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).collect(Collectors.toSet());
    }

    private static String only(Map<String, Map<String, Object>> resources, String prefix, String excluding) {
        var ids = resources.keySet().stream().filter(id -> id.startsWith(prefix)
                && (excluding == null || !id.contains(excluding))).toList();
        assertThat(ids).as(prefix).hasSize(1);
        return ids.getFirst();
    }

    private static String constructId(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private static Integer seconds(Duration d) {
        return Math.toIntExact(d.toSeconds());
    }
}
