package dev.gantry.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InstanceTypeSpecTest {

    @Test
    void builderDerivesFamilySizeCategoryAndGenerationFromTheName() {
        InstanceTypeSpec s = InstanceTypeSpec.builder("u-6tb1.112xlarge").build();
        assertThat(s.family()).isEqualTo("u-6tb1");
        assertThat(s.size()).isEqualTo("112xlarge");
        assertThat(s.category()).isEqualTo("u");
        assertThat(s.generation()).isEqualTo(1);
    }

    @Test
    void nameOutsideKarpentersSchemeHasNoCategory() {
        InstanceTypeSpec s = InstanceTypeSpec.builder("mac-m4.metal").build();
        assertThat(s.category()).isNull();
        assertThat(s.generation()).isNull();
        assertThat(s.family()).isEqualTo("mac-m4");
    }

    @Test
    void schedulableOnlyWithVcpuMemoryArchAndPods() {
        assertThat(Fixtures.m5Large().schedulable()).isTrue();
        assertThat(InstanceTypeSpec.builder("x1.large").vcpu(2).memoryMiB(1024L).build().schedulable()).isFalse();
    }

    @Test
    void rejectsAnUnknownArchitecture() {
        assertThatThrownBy(() -> InstanceTypeSpec.builder("x.large").arch("x86_64").build())
                .hasMessageContaining("amd64 or arm64");
    }
}
