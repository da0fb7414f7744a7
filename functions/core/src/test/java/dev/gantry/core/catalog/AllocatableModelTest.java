package dev.gantry.core.catalog;

import static dev.gantry.core.catalog.Fixtures.GI;
import static dev.gantry.core.catalog.Fixtures.MI;
import static dev.gantry.core.catalog.Fixtures.kubelet;
import static dev.gantry.core.catalog.Fixtures.nodeClass;
import static dev.gantry.core.catalog.Fixtures.reserved;
import static dev.gantry.core.catalog.Fixtures.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Resources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocatableModelTest {
    private final AllocatableModel model = AllocatableModel.DEFAULT;
    private final NodeClass al2023 = nodeClass("AL2023");

    private Resources allocatable(InstanceTypeSpec spec, NodeClass nc) {
        return model.capacity(spec, nc).minus(model.overhead(spec, nc).total());
    }

    @Test
    void m5LargeOnAl2023MatchesKarpentersPublishedAllocatable() {
        Resources a = allocatable(Fixtures.m5Large(), al2023);
        assertThat(a.cpuMillis()).isEqualTo(1930);
        assertThat(a.memoryBytes()).isEqualTo(6903 * MI);
        assertThat(a.pods()).isEqualTo(29);
        assertThat(a.ephemeralBytes()).isEqualTo(17 * GI);
    }

    @Test
    void capacityMemorySubtractsVmOverheadRoundedUpToWholeMebibytes() {
        // 8192 × 7.5% = 614.4 → 615Mi
        assertThat(model.capacity(Fixtures.m5Large(), al2023).memoryBytes()).isEqualTo((8192 - 615) * MI);
        assertThat(new AllocatableModel(0, 0).memoryBytes(Fixtures.m5Large())).isEqualTo(8192 * MI);
    }

    @Test
    void gravitonLoses64MebibytesToCmaBeforeVmOverhead() {
        // (8192 − 64) × 7.5% = 609.6 → 610Mi; allocatable 7518 − (11 × 58 + 255) − 100 = 6525Mi, as Karpenter lists.
        assertThat(model.capacity(Fixtures.c7gXlarge(), al2023).memoryBytes()).isEqualTo(7518 * MI);
        assertThat(allocatable(Fixtures.c7gXlarge(), al2023).memoryBytes()).isEqualTo(6525 * MI);
    }

    @Test
    void kubeletMaxPodsSetsPodsButAl2023StillSizesMemoryFromEniLimitedPods() {
        Resources a = allocatable(Fixtures.m5Large(), nodeClass("AL2023", kubelet(110, null)));
        assertThat(a.pods()).isEqualTo(110);
        assertThat(a.memoryBytes()).isEqualTo(6903 * MI);
    }

    @Test
    void bottlerocketSizesKubeReservedMemoryFromTheEffectiveMaxPods() {
        Resources a = allocatable(Fixtures.m5Large(), nodeClass("Bottlerocket", kubelet(110, null)));
        assertThat(a.pods()).isEqualTo(110);
        assertThat(a.memoryBytes()).isEqualTo((7577 - 1465 - 100) * MI);
    }

    @Test
    void podsPerCoreCapsPodsAtPodsPerCoreTimesVcpus() {
        assertThat(model.capacity(Fixtures.m5Large(), nodeClass("AL2023", kubelet(null, 4))).pods()).isEqualTo(8);
        assertThat(model.capacity(Fixtures.m5Large(), nodeClass("AL2023", kubelet(null, 20))).pods()).isEqualTo(29);
        assertThat(model.capacity(Fixtures.m5Large(), nodeClass("AL2023", kubelet(110, 10))).pods()).isEqualTo(20);
    }

    @Test
    void bottlerocketIgnoresPodsPerCore() {
        assertThat(model.capacity(Fixtures.m5Large(), nodeClass("Bottlerocket", kubelet(null, 4))).pods()).isEqualTo(29);
    }

    @Test
    void windowsDefaultsTo110PodsAnd50GiOfStorage() {
        Resources c = model.capacity(Fixtures.m5Large(), nodeClass("Windows2022"));
        assertThat(c.pods()).isEqualTo(110);
        assertThat(c.ephemeralBytes()).isEqualTo(50 * GI);
    }

    @Test
    void rootVolumeSizeBecomesEphemeralStorage() {
        NodeClass nc = nodeClass("AL2023", NodeClass.Kubelet.DEFAULT,
                List.of(volume("/dev/xvdz", false, "500Gi"), volume("/dev/xvda", true, "100Gi")));
        assertThat(allocatable(Fixtures.m5Large(), nc).ephemeralBytes()).isEqualTo(89 * GI); // 100 − 1 − 10%
    }

    /**
     * Karpenter's {@code ephemeralStorage} (aws {@code pkg/providers/instancetype/types.go}): under
     * {@code instanceStorePolicy: RAID0} a type with an instance store reports its total, in GB as EC2 gives it, whatever
     * the root volume; a type without one keeps the root volume. The policy was ignored.
     */
    @Test
    void raid0MakesTheNvmeInstanceStoreTheEphemeralStorage() {
        NodeClass plain = nodeClass("AL2023", NodeClass.Kubelet.DEFAULT, List.of(volume("/dev/xvda", true, "100Gi")));
        NodeClass raid0 = plain.withInstanceStorePolicy(NodeClass.RAID0);
        assertThat(model.capacity(Fixtures.p4d(), raid0).ephemeralBytes()).isEqualTo(8000 * 1_000_000_000L);
        assertThat(model.capacity(Fixtures.p4d(), plain).ephemeralBytes()).isEqualTo(100 * GI);
        assertThat(model.capacity(Fixtures.m5Large(), raid0).ephemeralBytes()).as("no instance store").isEqualTo(100 * GI);
        assertThat(model.overhead(Fixtures.p4d(), raid0).total().ephemeralBytes())
                .as("the eviction threshold is 10% of the array").isGreaterThan(model.overhead(Fixtures.p4d(), plain)
                        .total().ephemeralBytes());
    }

    @Test
    void withoutRootVolumeTheFamilysEphemeralDeviceIsUsed() {
        NodeClass al = nodeClass("AL2023", NodeClass.Kubelet.DEFAULT, List.of(volume("/dev/xvda", false, "50Gi")));
        assertThat(model.capacity(Fixtures.m5Large(), al).ephemeralBytes()).isEqualTo(50 * GI);
        NodeClass br = nodeClass("Bottlerocket", NodeClass.Kubelet.DEFAULT,
                List.of(volume("/dev/xvda", false, "4Gi"), volume("/dev/xvdb", false, "80Gi")));
        assertThat(model.capacity(Fixtures.m5Large(), br).ephemeralBytes()).isEqualTo(80 * GI);
    }

    @Test
    void bottlerocketDefaultsToItsSecondVolumeOf20Gi() {
        assertThat(model.capacity(Fixtures.m5Large(), nodeClass("Bottlerocket")).ephemeralBytes()).isEqualTo(20 * GI);
    }

    @Test
    void customFamilyUsesTheLastMappingsSize() {
        NodeClass nc = nodeClass("Custom", NodeClass.Kubelet.DEFAULT,
                List.of(volume("/dev/sda1", false, "30Gi"), volume("/dev/sdb", false, "60Gi")));
        assertThat(model.capacity(Fixtures.m5Large(), nc).ephemeralBytes()).isEqualTo(60 * GI);
    }

    @Test
    void kubeReservedSystemReservedAndEvictionHardOverridesReduceAllocatable() {
        NodeClass nc = nodeClass("AL2023", reserved(Map.of("cpu", "200m", "memory", "1Gi"), Map.of("memory", "100Mi"),
                Map.of("memory.available", "5%"), Map.of()));
        Resources a = allocatable(Fixtures.m5Large(), nc);
        assertThat(a.cpuMillis()).isEqualTo(1800);
        long capacity = 7577 * MI;
        long eviction = (long) Math.ceil((double) capacity / 100 * 5);
        assertThat(a.memoryBytes()).isEqualTo(capacity - GI - 100 * MI - eviction);
    }

    @Test
    void evictionSoftDoesNotChangeAllocatable() {
        NodeClass nc = nodeClass("AL2023", reserved(Map.of(), Map.of(), Map.of(), Map.of("memory.available", "1Gi")));
        assertThat(allocatable(Fixtures.m5Large(), nc)).isEqualTo(allocatable(Fixtures.m5Large(), al2023));
    }

    @Test
    void gpusNeuronEfaAndBranchEnisAreExtendedResources() {
        Resources p4d = model.capacity(Fixtures.p4d(), al2023);
        assertThat(p4d.extended()).containsEntry(Resources.NVIDIA_GPU, 8L).containsEntry(AllocatableModel.EFA, 4L);
        Resources inf2 = model.capacity(Fixtures.inf2Xlarge(), al2023);
        assertThat(inf2.extended()).containsEntry(Resources.NEURON, 1L).containsEntry(Resources.NEURON_CORE, 2L);
        assertThat(model.capacity(Fixtures.m5Large(), al2023).extended()).containsOnly(Map.entry(AllocatableModel.POD_ENI, 9L));
    }

    @Test
    void reservedEnisShrinkPodsButNotTheMemoryReservation() {
        AllocatableModel reserving = new AllocatableModel(0.075, 1);
        Resources c = reserving.capacity(Fixtures.m5Large(), al2023);
        assertThat(c.pods()).isEqualTo(20); // (3 − 1) × (10 − 1) + 2
        assertThat(reserving.overhead(Fixtures.m5Large(), al2023).kubeReserved().memoryBytes()).isEqualTo(574 * MI);
    }

    @Test
    void rejectsAnOverheadPercentOutsideZeroToOne() {
        assertThatThrownBy(() -> new AllocatableModel(1.5, 0)).hasMessageContaining("vmMemoryOverheadPercent");
    }
}
