package dev.gantry.config.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.headroom.BufferExpansion;
import dev.gantry.core.headroom.BufferPods;
import dev.gantry.core.headroom.CapacityBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityBufferLoadingTest {
    private static final Path SAMPLES = Path.of("../../samples/buffers");
    private static final Instant TUESDAY_10 = Instant.parse("2026-12-01T10:00:00Z");

    static final String TEMPLATE = """
            apiVersion: v1
            kind: PodTemplate
            metadata: {name: chunk, namespace: web}
            template:
              spec:
                containers:
                  - name: pause
                    resources: {requests: {cpu: "1", memory: 2Gi}}
            ---
            """;

    private static LoadResult load(String yaml) {
        return ConfigLoader.loadString("t.yaml", yaml, LoadOptions.DEFAULT);
    }

    private static List<String> lines(List<Diagnostic> ds) {
        return ds.stream().map(Diagnostic::toString).toList();
    }

    private static String buffer(String annotations, String spec) {
        return TEMPLATE + """
                apiVersion: autoscaling.x-k8s.io/v1beta1
                kind: CapacityBuffer
                metadata:
                  name: warm
                  namespace: web
                """ + (annotations.isEmpty() ? "" : "  annotations:\n" + annotations.indent(4)) + "spec:\n" + spec.indent(2);
    }

    @Test
    void seed000sWeekdayBufferIsTwentyVcpuOfMFamilyChunksReadyAt0850() {
        LoadResult r = ConfigLoader.load(List.of(SAMPLES.resolve("seed000-warm-weekdays.yaml")), LoadOptions.DEFAULT);
        assertThat(lines(r.errors())).isEmpty();
        CapacityBuffer b = r.buffers().getFirst();
        assertThat(b.target()).isEqualTo(new CapacityBuffer.PodTemplateRef("warm-m"));
        assertThat(b.schedule()).isEqualTo(new CapacityBuffer.Schedule("50 8 * * 1-5", Duration.ofHours(10)));
        BufferExpansion at10 = BufferPods.expand(b, r.bufferTargets(), TUESDAY_10, Duration.ofMinutes(3));
        assertThat(at10.chunks()).isEqualTo(10);
        assertThat(at10.total().cpuMillis()).isEqualTo(20_000);
        assertThat(at10.pods().getFirst().requiredNodeAffinity()).hasSize(1);
        assertThat(BufferPods.expand(b, r.bufferTargets(), Instant.parse("2026-12-01T08:47:00Z"), Duration.ofMinutes(3)).chunks())
                .isEqualTo(10);
        assertThat(BufferPods.expand(b, r.bufferTargets(), Instant.parse("2026-12-01T08:46:00Z"), Duration.ofMinutes(3)).chunks())
                .isZero();
    }

    @Test
    void aPercentageOfADeploymentInTheBundleUsesItsPodAndReplicas() {
        LoadResult r = ConfigLoader.load(List.of(SAMPLES.resolve("web-percentage.yaml")), LoadOptions.DEFAULT);
        assertThat(lines(r.errors())).isEmpty();
        BufferExpansion e = BufferPods.expand(r.buffers().getFirst(), r.bufferTargets(), TUESDAY_10, Duration.ZERO);
        assertThat(e.chunks()).isEqualTo(3); // max(2, ceil(20% of 12))
        assertThat(e.chunk().cpuMillis()).isEqualTo(500);
        assertThat(e.pods()).allSatisfy(p -> assertThat(p.labels()).containsEntry("app", "web-frontend"));
    }

    @Test
    void everyBufferSampleLoadsWithoutErrors() {
        LoadResult r = ConfigLoader.load(List.of(SAMPLES), LoadOptions.DEFAULT);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.buffers()).extracting(CapacityBuffer::name)
                .containsExactlyInAnyOrder("batch-predicted", "batch-warm", "web-headroom", "weekday-morning");
        CapacityBuffer predicted = r.buffers().stream().filter(b -> b.name().equals("batch-predicted")).findFirst().orElseThrow();
        assertThat(predicted.prediction()).isEqualTo(new CapacityBuffer.Prediction("batch", 0.9));
    }

    @Test
    void aScalableRefOutsideTheBundleIsKeptForTheClusterToResolve() {
        LoadResult r = load(buffer("", "scalableRef: {apiGroup: apps, kind: StatefulSet, name: db}\npercentage: 10\n"));
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.buffers().getFirst().target()).isEqualTo(new CapacityBuffer.ScalableRef("apps", "StatefulSet", "db"));
    }

    @Test
    void rejectsBothReferencesAndAPodTemplateWithoutReplicasOrLimits() {
        assertThat(lines(load(buffer("", "podTemplateRef: {name: chunk}\nscalableRef: {apiGroup: apps, kind: Deployment, name: x}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:3: CapacityBuffer/warm/spec: set either podTemplateRef or scalableRef, not both");
        assertThat(lines(load(buffer("", "podTemplateRef: {name: chunk}\n")).errors()))
                .containsExactly("t.yaml:16:3: CapacityBuffer/warm/spec: with podTemplateRef, replicas or limits must also be set");
        assertThat(lines(load(buffer("", "replicas: 2\n")).errors())).containsExactly("t.yaml:16:3: CapacityBuffer/warm/spec: "
                + "one of podTemplateRef or scalableRef is required (what one chunk of the buffer looks like)");
    }

    @Test
    void rejectsNegativeCountsAPercentageOfATemplateAndAMisspeltField() {
        LoadResult r = load(buffer("", "podTemplateRef: {name: chunk}\nreplicas: -1\npercentage: 10\nlimit: {cpu: 2}\n"));
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:19:3: CapacityBuffer/warm/spec.limit: unknown field \"limit\", did you mean \"limits\"?",
                "t.yaml:17:13: CapacityBuffer/warm/spec.replicas: must be at least 0, got -1",
                "t.yaml:18:15: CapacityBuffer/warm/spec.percentage: percentage applies only with scalableRef (a percentage of its replicas)");
        assertThat(r.buffers()).isEmpty();
    }

    @Test
    void rejectsAScalableKindGantryCannotResolveAndTheWrongApiGroup() {
        assertThat(lines(load(buffer("", "scalableRef: {apiGroup: batch, kind: Job, name: x}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:40: CapacityBuffer/warm/spec.scalableRef.kind: Gantry sizes buffers from "
                        + "Deployment, ReplicaSet, StatefulSet, not Job");
        assertThat(lines(load(buffer("", "scalableRef: {kind: Deployment, name: x}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:23: CapacityBuffer/warm/spec.scalableRef.kind: Deployment is in apiGroup apps "
                        + "(apiGroup is unset, which means the core group)");
    }

    @Test
    void rejectsAPodTemplateThatIsNotInTheInput() {
        assertThat(lines(load(buffer("", "podTemplateRef: {name: chonk}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:26: CapacityBuffer/warm/spec.podTemplateRef.name: PodTemplate \"chonk\" is not "
                        + "in the input (namespace web has chunk)");
    }

    @Test
    void rejectsABadScheduleADurationAloneAndAMisspeltAnnotation() {
        assertThat(lines(load(buffer("gantry.dev/buffer-schedule: \"50 8 * * mon-fry\"\ngantry.dev/buffer-duration: 10h\n",
                "podTemplateRef: {name: chunk}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:33: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-schedule: "
                        + "'50 8 * * mon-fry' is not a UTC cron schedule: cron value 'fry' is not a number or name");
        assertThat(lines(load(buffer("gantry.dev/buffer-duration: 10h\n", "podTemplateRef: {name: chunk}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:33: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-duration: "
                        + "gantry.dev/buffer-duration needs gantry.dev/buffer-schedule (when each window opens)");
        assertThat(lines(load(buffer("gantry.dev/buffer-schedul: \"0 9 * * *\"\n", "podTemplateRef: {name: chunk}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:32: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-schedul: "
                        + "unknown Gantry buffer annotation, did you mean \"gantry.dev/buffer-schedule\"?");
        assertThat(lines(load(buffer("gantry.dev/buffer-schedule: \"0 9 * * *\"\ngantry.dev/buffer-duration: 1d\n",
                "podTemplateRef: {name: chunk}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:17:33: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-duration: "
                        + "'1d' is not a duration (whole hours, minutes, seconds: 30m, 10h, 1h30m)");
    }

    @Test
    void rejectsAPredictedBufferWithoutLimitsPoolOrWithABadQuantile() {
        assertThat(lines(load(buffer("gantry.dev/buffer-mode: predicted\ngantry.dev/buffer-nodepool: batch\n",
                "podTemplateRef: {name: chunk}\nreplicas: 1\n")).errors())).containsExactly(
                "t.yaml:19:3: CapacityBuffer/warm/spec: a predicted buffer (gantry.dev/buffer-mode: predicted) needs limits to bound it");
        assertThat(lines(load(buffer("gantry.dev/buffer-mode: predicted\ngantry.dev/buffer-nodepool: batch\n",
                "podTemplateRef: {name: chunk}\nlimits: {cpu: 8}\n")).errors())).containsExactly(
                "t.yaml:17:33: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-nodepool: NodePool \"batch\" is not in the input");
        assertThat(lines(load(buffer("gantry.dev/buffer-mode: predicted\ngantry.dev/buffer-nodepool: batch\ngantry.dev/buffer-quantile: \"95\"\n",
                "podTemplateRef: {name: chunk}\nlimits: {cpu: 8}\n")).errors())).containsExactly(
                "t.yaml:18:33: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-quantile: '95' is not a quantile: "
                        + "a number above 0 and at most 1 (0.9 for p90)");
        assertThat(lines(load(buffer("gantry.dev/buffer-mode: predictd\n", "podTemplateRef: {name: chunk}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:29: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-mode: "
                        + "'predictd' is not a mode (static, predicted)");
        assertThat(lines(load(buffer("gantry.dev/buffer-quantile: \"0.5\"\n", "podTemplateRef: {name: chunk}\nreplicas: 1\n")).errors()))
                .containsExactly("t.yaml:16:33: CapacityBuffer/warm/metadata.annotations.gantry.dev/buffer-quantile: "
                        + "gantry.dev/buffer-quantile applies only with gantry.dev/buffer-mode: predicted");
    }

    @Test
    void anotherProvisioningStrategyIsAWarningAndTheBufferIsKeptButIgnored() {
        LoadResult r = load(buffer("", "provisioningStrategy: example.com/standby\npodTemplateRef: {name: chunk}\nreplicas: 1\n"));
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).containsExactly("t.yaml:16:25: CapacityBuffer/warm/spec.provisioningStrategy: "
                + "provisioning strategy example.com/standby is not buffer.x-k8s.io/active-capacity: Gantry keeps no capacity for this buffer");
        assertThat(BufferPods.expand(r.buffers().getFirst(), r.bufferTargets(), TUESDAY_10, Duration.ZERO).state())
                .isEqualTo(BufferExpansion.State.IGNORED);
    }

    @Test
    void aDuplicateBufferIsReportedAtTheSecondAndTheFirstKept() {
        String one = buffer("", "podTemplateRef: {name: chunk}\nreplicas: 1\n");
        String second = one.substring(TEMPLATE.length());
        LoadResult r = load(one + "---\n" + second);
        assertThat(lines(r.errors())).singleElement().asString().startsWith("t.yaml:22:9: CapacityBuffer/warm/metadata.name: "
                + "duplicate CapacityBuffer \"web/warm\" (first defined at ");
        assertThat(r.buffers()).hasSize(1); // the first is kept, as for NodePools
    }

    @Test
    void aPodsLimitIsAWarningBecauseItBoundsNothing() {
        LoadResult r = load(buffer("", "podTemplateRef: {name: chunk}\nlimits: {cpu: 8, pods: 3}\n"));
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).containsExactly("t.yaml:17:26: CapacityBuffer/warm/spec.limits.pods: "
                + "a pods limit bounds nothing: a pod does not request pods (limit cpu or memory)");
    }
}
