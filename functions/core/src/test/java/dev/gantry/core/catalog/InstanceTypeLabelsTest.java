package dev.gantry.core.catalog;

import static dev.gantry.core.requirements.WellKnownLabels.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class InstanceTypeLabelsTest {
    private final AmiFamilyTraits al2023 = AmiFamilyTraits.of("AL2023");

    @Test
    void m5LargeCarriesKarpentersLabelValues() {
        Map<String, String> l = InstanceTypeLabels.of(Fixtures.m5Large(), "us-east-1", al2023).labels();
        assertThat(l).containsEntry(INSTANCE_TYPE, "m5.large").containsEntry(ARCH, "amd64").containsEntry(OS, "linux")
                .containsEntry(REGION, "us-east-1").containsEntry(INSTANCE_CATEGORY, "m")
                .containsEntry(INSTANCE_FAMILY, "m5").containsEntry(INSTANCE_GENERATION, "5")
                .containsEntry(INSTANCE_SIZE, "large").containsEntry(INSTANCE_CPU, "2")
                .containsEntry(INSTANCE_MEMORY, "8192").containsEntry(INSTANCE_CPU_MANUFACTURER, "intel")
                .containsEntry(INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ, "3100")
                .containsEntry(INSTANCE_NETWORK_BANDWIDTH, "750").containsEntry(INSTANCE_EBS_BANDWIDTH, "4750")
                .containsEntry(INSTANCE_HYPERVISOR, "nitro").containsEntry(INSTANCE_ENCRYPTION_IN_TRANSIT, "false")
                .containsEntry(INSTANCE_CAPABILITY_FLEX, "false");
    }

    @Test
    void labelsTheDataDoesNotSupplyAreUndefinedRatherThanGuessed() {
        InstanceTypeLabels l = InstanceTypeLabels.of(Fixtures.m5Large(), "us-east-1", al2023);
        assertThat(l.labels()).doesNotContainKeys(INSTANCE_GPU_NAME, INSTANCE_LOCAL_NVME, INSTANCE_ACCELERATOR_NAME);
        assertThat(l.undefined()).contains(INSTANCE_GPU_NAME, INSTANCE_GPU_COUNT, INSTANCE_GPU_MEMORY,
                INSTANCE_LOCAL_NVME, INSTANCE_ACCELERATOR_NAME, WINDOWS_BUILD).doesNotContain(INSTANCE_CPU);
    }

    @Test
    void gpuLabelsGiveNameManufacturerCountAndPerGpuMemoryInMebibytes() {
        Map<String, String> l = InstanceTypeLabels.of(Fixtures.p4d(), "us-east-1", al2023).labels();
        assertThat(l).containsEntry(INSTANCE_GPU_NAME, "a100").containsEntry(INSTANCE_GPU_MANUFACTURER, "nvidia")
                .containsEntry(INSTANCE_GPU_COUNT, "8").containsEntry(INSTANCE_GPU_MEMORY, "40960")
                .containsEntry(INSTANCE_LOCAL_NVME, "8000").containsEntry(INSTANCE_ENCRYPTION_IN_TRANSIT, "true");
    }

    @Test
    void neuronTypesCarryAcceleratorLabels() {
        Map<String, String> l = InstanceTypeLabels.of(Fixtures.inf2Xlarge(), "us-east-1", al2023).labels();
        assertThat(l).containsEntry(INSTANCE_ACCELERATOR_NAME, "inferentia2")
                .containsEntry(INSTANCE_ACCELERATOR_MANUFACTURER, "aws").containsEntry(INSTANCE_ACCELERATOR_COUNT, "1")
                .containsEntry(INSTANCE_CATEGORY, "inf").containsEntry(INSTANCE_GENERATION, "2");
    }

    @Test
    void bareMetalHasAnEmptyHypervisorLabel() {
        assertThat(InstanceTypeLabels.of(Fixtures.m5Metal(), "us-east-1", al2023).labels())
                .containsEntry(INSTANCE_HYPERVISOR, "").containsEntry(INSTANCE_SIZE, "metal");
    }

    @Test
    void flexFamiliesAreLabelledAsFlex() {
        InstanceTypeSpec flex = InstanceTypeSpec.builder("c7i-flex.large").basics(2, 4096, "amd64", 29).build();
        assertThat(InstanceTypeLabels.of(flex, "us-east-1", al2023).labels())
                .containsEntry(INSTANCE_CAPABILITY_FLEX, "true").containsEntry(INSTANCE_FAMILY, "c7i-flex")
                .containsEntry(INSTANCE_CATEGORY, "c").containsEntry(INSTANCE_GENERATION, "7");
    }

    @Test
    void windowsNodesAreLabelledWindowsAndLeaveTheBuildOpen() {
        InstanceTypeLabels l = InstanceTypeLabels.of(Fixtures.m5Large(), "us-east-1", AmiFamilyTraits.of("Windows2022"));
        assertThat(l.labels()).containsEntry(OS, "windows");
        assertThat(l.undefined()).doesNotContain(WINDOWS_BUILD);
    }
}
