package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Extended resources: GPUs and Neuron devices only come from the types that offer them. */
class GpuTest {
    private static Pod gpuPod(String name, long gpus) {
        return pod(name).requests(Resources.of(1000, GI).with(Resources.NVIDIA_GPU, gpus)).build();
    }

    @ParameterizedTest(name = "{0} GPUs -> {1}")
    @CsvSource({"1,p3.2xlarge", "2,p3.8xlarge", "4,p3.8xlarge"})
    void launchesTheCheapestTypeWithEnoughGpus(long gpus, String expected) {
        var r = scenario().pods(gpuPod("g", gpus)).pool(pool("default")).solve();
        assertThat(claimOf(r, "g").instanceType().name()).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void explainsAGpuCountNoTypeOffers(Strategy s) {
        var r = scenario().pods(gpuPod("g", 8)).pool(pool("default")).solve(s);
        assertThat(reasonFor(r, "g")).isEqualTo("no instance type offers 8 nvidia.com/gpu");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void neverPacksMoreGpusThanTheTypeHas(Strategy s) {
        var r = scenario().pods(gpuPod("a", 1), gpuPod("b", 1), gpuPod("c", 1), gpuPod("d", 1), gpuPod("e", 1)).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        for (var c : r.newClaims()) {
            assertThat(c.requests().get(Resources.NVIDIA_GPU)).isLessThanOrEqualTo(c.instanceType().allocatable().get(Resources.NVIDIA_GPU));
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotPutCpuOnlyPodsOnGpuTypesWhenCheaperTypesFit(Strategy s) {
        var r = scenario().pods(pods("web", 4, 2000, 4096, Map.of())).pool(pool("default")).solve(s);
        assertThat(r.newClaims()).allSatisfy(c -> assertThat(c.instanceType().name()).doesNotStartWith("p3"));
    }

    /**
     * Gantry's own: a GPU pod among plain pods of the same group gets a GPU node, the plain pods fill what room it leaves
     * and the rest go to plain types. Packed as one bag, the group's menu held only the types with a GPU (the only ones
     * that cover its whole demand), so the plain pods were packed in p3.2xlarge-sized bins (seven 8 GiB pods) and
     * right-sized to m5.4xlarge: $2.07 an hour where one p3.2xlarge and r5.large pairs cost $1.55.
     */
    @org.junit.jupiter.api.Test
    void plainPodsBesideAGpuPodGoToPlainTypesOnceTheGpuNodeIsFull() {
        var all = new java.util.ArrayList<>(pods("cache", 40, 500, 8192, Map.of()));
        all.add(gpuPod("g", 1));
        var r = scenario().pods(all).pool(pool("default")).solve(Strategy.GANTRY);
        assertAllScheduled(r);
        assertThat(r.newClaims().stream().filter(c -> c.instanceType().name().startsWith("p3")))
                .singleElement().satisfies(c -> assertThat(c.instanceType().name()).isEqualTo("p3.2xlarge"));
        assertThat(r.totalPricePerHour()).isLessThanOrEqualTo(0.3 * (3.06 + 17 * 0.126) + 1e-9); // spot: the GPU node and 17 r5.large
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesANeuronTypeForANeuronPod(Strategy s) {
        var pod = pod("inf").requests(Resources.of(1000, GI).with(Resources.NEURON, 1)).build();
        var r = scenario().pods(pod).pool(pool("default").offer(catalogueWithNeuron())).solve(s);
        assertThat(claimOf(r, "inf").instanceType().name()).isEqualTo("inf2.xlarge");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void explainsANeuronRequestWithoutNeuronTypes(Strategy s) {
        var pod = pod("inf").requests(Resources.of(1000, GI).with(Resources.NEURON, 1)).build();
        var r = scenario().pods(pod).pool(pool("default")).solve(s);
        assertThat(reasonFor(r, "inf")).isEqualTo("no instance type offers 1 aws.amazon.com/neuron");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void selectsGpuTypesByTheGpuCountLabel(Strategy s) {
        var pod = pod("g").requiredNodeAffinity(java.util.List.of(reqs(WellKnownLabels.INSTANCE_GPU_COUNT, Operator.Gt, "1"))).build();
        var r = scenario().pods(pod).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "g").instanceType().name()).isEqualTo("p3.8xlarge");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void restrictsAGpuPoolToGpuTypes(Strategy s) {
        var gpuPool = pool("gpu").req(WellKnownLabels.INSTANCE_GPU_COUNT, Operator.Exists);
        var r = scenario().pods(pod("p").build()).pool(gpuPool).solve(s);
        assertThat(claimOf(r, "p").instanceType().name()).startsWith("p3");
    }
}
